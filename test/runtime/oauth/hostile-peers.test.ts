/**
 * A client without a user against broken and hostile peers, written here
 * on node:http at 127.0.0.1 (templates/runtime/oauth): an authorization
 * server and a resource server that ask for a new DPoP nonce on every
 * request (one retry, then the refusal stands, also for a request that
 * already carries a token), a resource server that asks for the very nonce
 * it was sent (not retried), an identity provider that answers the token
 * exchange with garbage, a wrong token type or more than the size limit
 * (refused before anything reaches the authorization server), an
 * authorization server that refuses a workload's assertion (reported, not
 * retried), and assertion files and variables that are too large, files
 * that never end, are not files, or are replaced between two token
 * requests. Every failure is an OAuthError that names the step and holds
 * neither the assertion, the ID token nor the client secret.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeServer, listenOnLoopback } from "../../helpers/loopback.js";
import {
  assertionFromFile,
  assertionFromVariable,
  OAuthClient,
  OAuthError,
  type MachineGrant,
} from "../../../templates/runtime/oauth/index.js";
import { connectHttp } from "../../../templates/runtime/transport/http-client.js";

/** A JWT-shaped assertion (the stand-in never checks its signature). */
const jwt = (claims: Record<string, unknown>) =>
  [{ alg: "ES256", typ: "JWT" }, claims, "sig"]
    .map((part) =>
      Buffer.from(typeof part === "string" ? part : JSON.stringify(part)).toString("base64url"),
    )
    .join(".");
const ASSERTION = jwt({ sub: "workload", secret: "assertion-secret-1" });
const ID_TOKEN = jwt({ sub: "alice", secret: "id-token-secret-2" });
const CLIENT_SECRET = "client-secret-3";
const SECRETS = [ASSERTION, ID_TOKEN, CLIENT_SECRET];

type TokenBehaviour =
  "dpop-token" | "bearer-token" | "short-lived" | "nonce-loop" | "invalid_grant";
type IdpBehaviour =
  "ok" | "garbage" | "wrong-issued-type" | "access-token-as-n_a" | "wrong-token-type" | "huge";
type ResourceBehaviour = "ok" | "nonce-loop" | "nonce-once" | "nonce-stale";

interface World {
  token: TokenBehaviour;
  idp: IdpBehaviour;
  resource: ResourceBehaviour;
  /** Each token request's form and DPoP header. */
  tokenRequests: Array<{ form: URLSearchParams; dpop?: string }>;
  idpRequests: URLSearchParams[];
  /** Each request to /mcp that carried a token: its scheme and DPoP header. */
  resourceRequests: Array<{ authorization: string; dpop?: string }>;
  nonces: number;
}

let world: World;
let server: Server;
let base: string;
let dir: string;

function reset(): void {
  world = {
    token: "dpop-token",
    idp: "ok",
    resource: "ok",
    tokenRequests: [],
    idpRequests: [],
    resourceRequests: [],
    nonces: 0,
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify(body));
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return new URLSearchParams(text);
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0]!;
  if (path === "/.well-known/oauth-protected-resource/mcp")
    return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`] });
  if (path === "/.well-known/oauth-authorization-server/as")
    return json(res, 200, {
      issuer: `${base}/as`,
      token_endpoint: `${base}/as/token`,
      grant_types_supported: ["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
      dpop_signing_alg_values_supported: ["ES256"],
    });
  if (path === "/.well-known/oauth-authorization-server/idp")
    return json(res, 200, { issuer: `${base}/idp`, token_endpoint: `${base}/idp/token` });
  if (path === "/as/token") return tokenEndpoint(req, res);
  if (path === "/idp/token") return identityProvider(req, res);
  if (path === "/mcp") return resourceServer(req, res);
  res.writeHead(404).end();
}

async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
  world.tokenRequests.push({
    form: await form(req),
    ...(typeof req.headers.dpop === "string" ? { dpop: req.headers.dpop } : {}),
  });
  const n = world.tokenRequests.length;
  switch (world.token) {
    case "nonce-loop":
      return json(res, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": `as-nonce-${n}` });
    case "invalid_grant":
      return json(res, 400, {
        error: "invalid_grant",
        error_description: "the assertion has expired",
      });
    case "bearer-token":
      return json(res, 200, { access_token: `token-${n}`, token_type: "Bearer", expires_in: 3600 });
    case "short-lived":
      // Expired as soon as it is kept (the client renews 30 s before expiry).
      return json(res, 200, { access_token: `token-${n}`, token_type: "Bearer", expires_in: 1 });
    case "dpop-token":
      return json(res, 200, { access_token: `token-${n}`, token_type: "DPoP", expires_in: 3600 });
  }
}

async function identityProvider(req: IncomingMessage, res: ServerResponse): Promise<void> {
  world.idpRequests.push(await form(req));
  const idJag = "urn:ietf:params:oauth:token-type:id-jag";
  switch (world.idp) {
    case "ok":
      return json(res, 200, {
        access_token: jwt({ typ: "id-jag" }),
        issued_token_type: idJag,
        token_type: "N_A",
      });
    case "garbage":
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end("<html>oops</html>");
    case "wrong-issued-type":
      return json(res, 200, {
        access_token: "an-access-token",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
      });
    case "access-token-as-n_a":
      // Only issued_token_type is wrong: an access token, not an ID-JAG.
      return json(res, 200, {
        access_token: jwt({}),
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "N_A",
      });
    case "wrong-token-type":
      return json(res, 200, {
        access_token: jwt({}),
        issued_token_type: idJag,
        token_type: "Bearer",
      });
    case "huge": {
      // Valid JSON, no Content-Length, streamed: only a limit counted while reading stops it.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"issued_token_type":"${idJag}","token_type":"N_A","padding":"`);
      const chunk = "x".repeat(64 * 1024);
      for (let i = 0; i < 40 && !res.destroyed; i++) res.write(chunk);
      return void res.end(`","access_token":"x"}`);
    }
  }
}

async function resourceServer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  const id = (JSON.parse(text || "{}") as { id?: unknown }).id ?? null;
  const authorization = req.headers.authorization;
  if (authorization === undefined)
    return json(
      res,
      401,
      {},
      {
        "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      },
    );
  const dpop = typeof req.headers.dpop === "string" ? req.headers.dpop : undefined;
  world.resourceRequests.push({ authorization, ...(dpop ? { dpop } : {}) });
  const asked =
    world.resource === "nonce-loop" ||
    world.resource === "nonce-stale" ||
    (world.resource === "nonce-once" && world.nonces === 0);
  if (asked) {
    world.nonces++;
    // nonce-stale asks for the same nonce every time, and never takes it.
    const nonce = world.resource === "nonce-stale" ? "rs-stale" : `rs-nonce-${world.nonces}`;
    return json(
      res,
      401,
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32001, message: "Unauthorized: use a DPoP nonce" },
      },
      {
        "www-authenticate":
          'DPoP error="use_dpop_nonce", error_description="nonce required", algs="ES256"',
        "dpop-nonce": nonce,
      },
    );
  }
  json(res, 200, { jsonrpc: "2.0", id, result: { tools: [] } });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-oauth-hostile-"));
  server = createServer((req, res) => {
    answer(req, res).catch(() => res.writeHead(500).end());
  });
  base = await listenOnLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(reset);

/** Calls tools/list with `grant` (and DPoP when asked); the result, or the error it failed with. */
async function call(grant: MachineGrant, dpop = false): Promise<unknown> {
  const auth = new OAuthClient({ grant, dpop });
  const channel = connectHttp(`${base}/mcp`, { auth });
  try {
    return await channel.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  } catch (error) {
    return error;
  }
}

const credentials = {
  kind: "client_credentials",
  client: { clientId: "svc", clientSecret: CLIENT_SECRET },
} as const;
const workload = (assertion: () => Promise<string>): MachineGrant => ({
  kind: "workload",
  assertion,
  client: { clientId: "wl", method: "none" },
});
const enterprise: MachineGrant = {
  kind: "enterprise",
  client: { clientId: "app", clientSecret: CLIENT_SECRET },
  idp: { issuer: "", client: { clientId: "idp-app" }, idToken: () => Promise.resolve(ID_TOKEN) },
};

/** The error, checked to be an OAuthError of `step` holding no secret. */
function failure(result: unknown, step: OAuthError["step"]): string {
  expect(result).toBeInstanceOf(OAuthError);
  const error = result as OAuthError;
  expect(error.step).toBe(step);
  for (const secret of SECRETS) expect(error.message).not.toContain(secret);
  return error.message;
}

/** tools/list, again and again, through one client signed in by client credentials with DPoP. */
function listWithDpop(): (id: number) => Promise<{ error?: { message: string } }> {
  const channel = connectHttp(`${base}/mcp`, {
    auth: new OAuthClient({ grant: credentials, dpop: true }),
  });
  return (id) => channel.request({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
}

describe("DPoP nonces", () => {
  it("an authorization server that asks for a new nonce every time gets one retry, then the error", async () => {
    world.token = "nonce-loop";
    const message = failure(await call(credentials, true), "token");
    expect(message).toMatch(/use_dpop_nonce/);
    expect(world.tokenRequests).toHaveLength(2);
    expect(decodeJwt(world.tokenRequests[0]!.dpop!).nonce).toBe(undefined);
    expect(decodeJwt(world.tokenRequests[1]!.dpop!).nonce).toBe("as-nonce-1");
  });

  it("a resource server's nonce is sent once; asked again, the refusal stands", async () => {
    world.resource = "nonce-loop";
    const result = (await call(credentials, true)) as { error?: { message: string } };
    expect(result.error?.message).toBe("Unauthorized: use a DPoP nonce");
    expect(world.resourceRequests).toHaveLength(2);
    const [first, second] = world.resourceRequests.map((r) => decodeJwt(r.dpop!));
    expect(first!.nonce).toBe(undefined);
    expect(second!.nonce).toBe("rs-nonce-1");
    expect(first!.jti).not.toBe(second!.jti);
  });

  it("a request sent with a token in hand is sent at most twice, however often the nonce changes", async () => {
    world.resource = "nonce-loop";
    const list = listWithDpop();
    // The first request signs in, which is one of its retries.
    await list(1);
    const signedIn = world.resourceRequests.length;
    expect((await list(2)).error?.message).toBe("Unauthorized: use a DPoP nonce");
    const sent = world.resourceRequests.slice(signedIn).map((r) => decodeJwt(r.dpop!).nonce);
    expect(sent).toEqual(["rs-nonce-1", `rs-nonce-${world.nonces - 1}`]);
  });

  it("a nonce the server refused is not sent again for it", async () => {
    world.resource = "nonce-stale";
    const list = listWithDpop();
    await list(1);
    const signedIn = world.resourceRequests.length;
    // The proof carries the nonce; the server asks for that same nonce: no retry with it.
    expect((await list(2)).error?.message).toBe("Unauthorized: use a DPoP nonce");
    const sent = world.resourceRequests.slice(signedIn).map((r) => decodeJwt(r.dpop!).nonce);
    expect(sent).toEqual(["rs-stale"]);
  });

  it("a resource server that asks once gets the nonce, and the request goes through", async () => {
    world.resource = "nonce-once";
    expect(await call(credentials, true)).toMatchObject({ result: { tools: [] } });
    expect(world.resourceRequests.map((r) => r.authorization.split(" ")[0])).toEqual([
      "DPoP",
      "DPoP",
    ]);
    const proof = world.resourceRequests[1]!.dpop!;
    expect(decodeProtectedHeader(proof)).toMatchObject({ typ: "dpop+jwt", alg: "ES256" });
    expect(decodeJwt(proof)).toMatchObject({
      htm: "POST",
      htu: `${base}/mcp`,
      nonce: "rs-nonce-1",
    });
  });

  it("a token the authorization server does not bind is sent as a bearer token", async () => {
    world.token = "bearer-token";
    expect(await call(credentials, true)).toMatchObject({ result: {} });
    expect(world.tokenRequests[0]!.dpop).toBeDefined();
    expect(world.resourceRequests[0]).toEqual({ authorization: "Bearer token-1" });
  });
});

describe("the token exchange of enterprise-managed authorization", () => {
  const grant = (): MachineGrant => ({
    ...enterprise,
    idp: { ...enterprise.idp, issuer: `${base}/idp` },
  });

  it("exchanges the ID token for an ID-JAG, then presents it (the control)", async () => {
    expect(await call(grant())).toMatchObject({ result: {} });
    expect(Object.fromEntries(world.idpRequests[0]!)).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      subject_token: ID_TOKEN,
      audience: `${base}/as`,
      resource: `${base}/mcp`,
    });
    expect(world.tokenRequests[0]!.form.get("grant_type")).toBe(
      "urn:ietf:params:oauth:grant-type:jwt-bearer",
    );
  });

  it.each([
    ["garbage", /token exchange: .*idp\/token: .*JSON/],
    [
      "wrong-issued-type",
      /answered a token of type "urn:ietf:params:oauth:token-type:access_token" \(token_type "bearer"\), not an ID-JAG/,
    ],
    [
      "access-token-as-n_a",
      /answered a token of type "urn:ietf:params:oauth:token-type:access_token" \(token_type "n_a"\), not an ID-JAG/,
    ],
    [
      "wrong-token-type",
      /answered a token of type "urn:ietf:params:oauth:token-type:id-jag" \(token_type "bearer"\), not an ID-JAG/,
    ],
    ["huge", /the answer has more than 1048576 bytes/],
  ] as const)(
    "an identity provider answering %s is refused, and nothing reaches the authorization server",
    async (behaviour, message) => {
      world.idp = behaviour;
      expect(failure(await call(grant()), "token exchange")).toMatch(message);
      expect(world.tokenRequests).toEqual([]);
    },
  );
});

describe("workload identity", () => {
  it("an assertion the authorization server refuses is reported once, not retried", async () => {
    world.token = "invalid_grant";
    const message = failure(await call(workload(() => Promise.resolve(ASSERTION))), "token");
    expect(message).toMatch(/invalid_grant: the assertion has expired \(HTTP 400\)/);
    expect(world.tokenRequests).toHaveLength(1);
    expect(Object.fromEntries(world.tokenRequests[0]!.form)).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: ASSERTION,
      client_id: "wl",
      resource: `${base}/mcp`,
    });
  });

  it("reads the file for every token request: a rotated token is the one sent", async () => {
    world.token = "short-lived"; // every request needs a new token
    const file = join(dir, "rotating.jwt");
    writeFileSync(file, `${ASSERTION}\n`);
    const auth = new OAuthClient({ grant: workload(assertionFromFile(file)) });
    const channel = connectHttp(`${base}/mcp`, { auth });
    await channel.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const rotated = jwt({ sub: "workload", n: 2 });
    writeFileSync(file, rotated);
    await channel.request({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    // The first request signs in, then renews its already expired token; the second renews it again.
    expect(world.tokenRequests.map((r) => r.form.get("assertion"))).toEqual([
      ASSERTION,
      ASSERTION,
      rotated,
    ]);
  });

  it("refuses a file one byte over the limit and accepts one at it, before any token request", async () => {
    const at = join(dir, "at-limit.jwt");
    const over = join(dir, "over-limit.jwt");
    const body = (size: number) => `${"a".repeat(size - 8)}.b.c${" ".repeat(4)}`;
    writeFileSync(at, body(1024));
    writeFileSync(over, body(1025));
    expect(await assertionFromFile(at, 1024)()).toBe(body(1024).trim());
    await expect(assertionFromFile(over, 1024)()).rejects.toThrow(
      /over-limit.jwt is larger than 1024 bytes/,
    );
    const huge = join(dir, "huge.jwt");
    writeFileSync(huge, Buffer.alloc(10 * 1024 * 1024, 0x61));
    const message = failure(await call(workload(assertionFromFile(huge))), "token");
    expect(message).toMatch(/huge.jwt is larger than 65536 bytes/);
    expect(world.tokenRequests).toEqual([]);
  });

  it("refuses a variable over the limit and accepts one at it, before any token request, never quoting it", async () => {
    const at = `${"a".repeat(1020)}.b.c`;
    const over = `${"a".repeat(1021)}.b.c`;
    expect(await assertionFromVariable("TOKEN", { TOKEN: at }, 1024)()).toBe(at);
    const error = await assertionFromVariable("TOKEN", { TOKEN: over }, 1024)().catch(
      (e: unknown) => e,
    );
    expect(failure(error, "token")).toMatch(
      /the environment variable TOKEN holds more than 1024 bytes/,
    );
    expect((error as Error).message).not.toContain("aaaa");
    const huge = `${jwt({ sub: "workload" })}${"a".repeat(70_000)}`;
    const message = failure(
      await call(workload(assertionFromVariable("TOKEN", { TOKEN: huge }))),
      "token",
    );
    expect(message).toMatch(/TOKEN holds more than 65536 bytes/);
    expect(world.tokenRequests).toEqual([]);
  });

  it("refuses what is not a regular file (a FIFO, a device) without blocking, and a file without a JWT", async () => {
    const fifo = join(dir, "token.fifo");
    execFileSync("mkfifo", [fifo]);
    await expect(assertionFromFile(fifo)()).rejects.toThrow(/token.fifo is not a regular file/);
    await expect(assertionFromFile("/dev/zero")()).rejects.toThrow(
      /\/dev\/zero is not a regular file/,
    );
    await expect(assertionFromFile(join(dir, "missing.jwt"))()).rejects.toThrow(
      /cannot open the assertion file .*missing.jwt \(ENOENT\)/,
    );
    const text = join(dir, "not-a-jwt.txt");
    writeFileSync(text, "hunter2 is my password");
    const error = await assertionFromFile(text)().catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/does not hold a JWT/);
    expect((error as Error).message).not.toContain("hunter2");
  });
});
