/**
 * `mcp-gen auth-dev` for clients without a user
 * (generator/dev/auth-dev-machine.ts), in a project made by `mcp-gen
 * server --auth`: each flow's env file, read the way a scaffolded client
 * reads its settings (clientAuthFromEnvironment), signs in and calls a
 * server protected by the runtime's auth/ layer, with and without DPoP:
 * client credentials (secret and private_key_jwt), workload identity and
 * enterprise-managed authorization (token exchange for an ID-JAG, then
 * jwt-bearer). The files are readable by the user alone; an assertion for
 * another client, a replayed ID-JAG and a DPoP proof for another URL are
 * refused. Real oidc-provider, real HTTP on 127.0.0.1.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startDevAuthorizationServer,
  type DevAuthorizationServer,
} from "../../generator/dev/auth-server.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { bearerAuthorization } from "../../templates/runtime/auth/index.js";
import { McpClient } from "../../templates/runtime/client/index.js";
import { serveHttp, type RunningHttpServer } from "../../templates/runtime/index.js";
import {
  clientAuthFromEnvironment,
  DpopKey,
  OAuthClient,
} from "../../templates/runtime/oauth/index.js";
import { connectHttp } from "../../templates/runtime/transport/http-client.js";
import { tempDir, testSources } from "../helpers/index.js";
import { legacy, protocol, testServer } from "../helpers/mcp-client.js";
import { linkNodeModules } from "../helpers/project.js";

let project: string;
let as: DevAuthorizationServer;
let mcp: RunningHttpServer;
let resource: string;
const log: string[] = [];

/** A free port on 127.0.0.1, for the MCP server whose URL the resource must be. */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  project = join(tempDir("auth-dev-flows"), "srv");
  const { files } = await scaffoldServer({
    dir: project,
    name: "srv",
    auth: true,
    sources: testSources(),
  });
  writeProject(project, files);
  linkNodeModules(project);
  as = await startDevAuthorizationServer({ dir: project, port: 0, log: (line) => log.push(line) });
  resource = `http://127.0.0.1:${await freeLoopbackPort()}/mcp`;
  const server = testServer();
  server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
    content: [
      {
        type: "text",
        text: JSON.stringify({
          subject: ctx.authorization?.subject,
          clientId: ctx.authorization?.clientId,
          bound: (ctx.authorization?.claims.cnf as { jkt?: string } | undefined)?.jkt ?? null,
        }),
      },
    ],
  }));
  mcp = await serveHttp(server, {
    port: Number(new URL(resource).port),
    authorization: bearerAuthorization({
      issuer: as.issuer,
      resource,
      onError: (m) => log.push(m),
    }),
  });
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await as?.close();
});

/** The MCP_AUTH_* lines of an env file. */
function envOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => /^MCP_AUTH_[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

async function whoami(env: Record<string, string>) {
  const client = new McpClient({
    protocol,
    legacy,
    channel: connectHttp(resource, {
      auth: new OAuthClient({ ...clientAuthFromEnvironment({}, env) }),
    }),
    info: { name: "dev-flows", version: "1.0.0" },
  });
  try {
    await client.connect();
    const result = (await client.callTool("whoami", {})) as { content: Array<{ text: string }> };
    return JSON.parse(result.content[0]!.text) as {
      subject: string;
      clientId: string;
      bound: string | null;
    };
  } finally {
    await client.close();
  }
}

describe("the development authorization server's flows without a user", () => {
  const expected: Record<string, { subject: string; clientId: string }> = {
    client_credentials: { subject: "dev-service", clientId: "dev-service" },
    "client_credentials (private_key_jwt)": {
      subject: "dev-service-jwt",
      clientId: "dev-service-jwt",
    },
    workload: { subject: "dev-workload", clientId: "dev-workload" },
    enterprise: { subject: "dev-user", clientId: "dev-enterprise" },
  };

  it("writes one env file per flow, and the keys and tokens they name, for the user alone", () => {
    expect(Object.keys(as.flows).sort()).toEqual(Object.keys(expected).sort());
    const dir = join(project, ".auth-dev");
    for (const file of [
      ...Object.values(as.flows),
      ...["machine.json", "service-key.pem", "workload.jwt", "id-token.jwt"].map((f) =>
        join(dir, f),
      ),
    ])
      expect(statSync(file).mode & 0o777, file).toBe(0o600);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain("*");
  });

  for (const dpop of [false, true])
    it(`signs in with each flow's settings${dpop ? ", DPoP-bound" : ""}, and the server sees who`, async () => {
      for (const [flow, file] of Object.entries(as.flows)) {
        const seen = await whoami({ ...envOf(file), MCP_AUTH_DPOP: dpop ? "1" : "0" });
        expect(seen, flow).toMatchObject(expected[flow]!);
        if (dpop) expect(seen.bound, flow).toMatch(/^[A-Za-z0-9_-]{43}$/);
        else expect(seen.bound, flow).toBe(null);
      }
    });

  it("refuses a workload token for another client, a replayed ID-JAG, and a DPoP proof for another URL", async () => {
    const token = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
      const response = await fetch(`${as.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const workload = readFileSync(join(project, ".auth-dev", "workload.jwt"), "utf8").trim();
    const bearer = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    expect(
      await token({
        grant_type: bearer,
        assertion: workload,
        client_id: "dev-enterprise-idp",
        resource,
      }),
    ).toMatchObject({ status: 400 });
    const exchange = await token({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      client_id: "dev-enterprise-idp",
      subject_token: readFileSync(join(project, ".auth-dev", "id-token.jwt"), "utf8").trim(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: as.issuer,
      resource,
    });
    expect(exchange.body).toMatchObject({
      issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      token_type: "N_A",
    });
    const secret = envOf(as.flows.enterprise!).MCP_AUTH_CLIENT_SECRET!;
    const basic = `Basic ${Buffer.from(`dev-enterprise:${secret}`).toString("base64")}`;
    const present = () =>
      token(
        { grant_type: bearer, assertion: String(exchange.body.access_token), resource },
        { authorization: basic },
      );
    expect((await present()).status).toBe(200);
    expect(await present()).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const key = await DpopKey.generate();
    const elsewhere = await key.proof("POST", new URL(`${as.issuer}/elsewhere`), "x");
    expect(
      await token(
        { grant_type: bearer, assertion: workload, client_id: "dev-workload", resource },
        { dpop: elsewhere },
      ),
    ).toMatchObject({ status: 400, body: { error: "invalid_dpop_proof" } });
    expect(log.some((line) => line.startsWith("token request refused: invalid_grant"))).toBe(true);
    for (const line of log) expect(line).not.toContain(workload);
  });
});
