/**
 * The client's OAuth flow (templates/runtime/oauth/flow.ts) as the HTTP
 * transport's auth hook, against a resource server and an authorization
 * server on 127.0.0.1 written here: sign-in on 401 (discovery, dynamic
 * registration, PKCE S256, the resource indicator, RFC 9207 iss), step-up
 * on 403 with its limit, refresh after expiry, a server that moved to
 * another authorization server, and the refusals (wrong iss, a resource
 * for another server, an unreachable authorization server). Also the token
 * stores and the loopback redirect listener.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import {
  clientAuthentication,
  OAuthClient,
  OAuthError,
  type OAuthClientOptions,
} from "../../../templates/runtime/oauth/index.js";
import { connectHttp } from "../../../templates/runtime/transport/http-client.js";
import { loopbackRedirect } from "../../../templates/runtime/oauth/loopback-redirect.js";
import { FileTokenStore, MemoryTokenStore } from "../../../templates/runtime/oauth/token-store.js";

interface Issued {
  scopes: string[];
  issuer: string;
}

/** What the servers saw and how they behave; reset before each test. */
interface World {
  requests: string[];
  registrations: Array<Record<string, unknown>>;
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  tokens: Map<string, Issued>;
  refreshTokens: Map<string, Issued>;
  /** The issuer the resource metadata names. */
  issuer: () => string;
  /** Scopes by JSON-RPC method. */
  needs: Record<string, string[]>;
  /** The resource the metadata names (default: the MCP URL). */
  resource?: string;
  /** How the authorization response's iss is set: right, wrong or left out. */
  iss: "right" | "wrong" | "none";
  expiresIn: number;
}

let server: Server;
let base: string;
let world: World;
let codes = 0;
const pending = new Map<string, { challenge: string; scope: string; issuer: string }>();

function reset(): void {
  world = {
    requests: [],
    registrations: [],
    authorizations: [],
    tokenRequests: [],
    tokens: new Map(),
    refreshTokens: new Map(),
    issuer: () => `${base}/as1`,
    needs: {},
    iss: "right",
    expiresIn: 3600,
  };
}

function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

/** One authorization server at `${base}/<name>`. */
async function authorizationServer(
  name: string,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const issuer = `${base}/${name}`;
  if (path === `/.well-known/oauth-authorization-server/${name}`) {
    json(response, 200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["read", "write", "offline_access"],
      token_endpoint_auth_methods_supported: ["client_secret_basic"],
    });
    return true;
  }
  if (!path.startsWith(`/${name}/`)) return false;
  const step = path.slice(name.length + 2);
  if (step === "register") {
    const metadata = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
    world.registrations.push({ ...metadata, at: name });
    json(response, 201, { client_id: `${name}-client`, client_secret: "s3cret-:x" });
  } else if (step === "authorize") {
    const params = new URL(request.url!, base).searchParams;
    world.authorizations.push(params);
    const code = `code-${++codes}`;
    pending.set(code, {
      challenge: params.get("code_challenge")!,
      scope: params.get("scope") ?? "",
      issuer,
    });
    const back = new URL(params.get("redirect_uri")!);
    back.searchParams.set("code", code);
    back.searchParams.set("state", params.get("state")!);
    if (world.iss !== "none")
      back.searchParams.set("iss", world.iss === "right" ? issuer : "https://evil.example");
    response.writeHead(302, { location: back.href }).end();
  } else if (step === "token") {
    const form = new URLSearchParams(await bodyOf(request));
    form.set("authorization", request.headers.authorization ?? "");
    world.tokenRequests.push(form);
    let grant: Issued | undefined;
    if (form.get("grant_type") === "authorization_code") {
      const code = pending.get(form.get("code")!);
      const verifier = form.get("code_verifier") ?? "";
      const computed = createHash("sha256").update(verifier).digest("base64url");
      if (code && computed === code.challenge)
        // "admin" is never granted
        grant = {
          scopes: code.scope.split(" ").filter((s) => s !== "" && s !== "admin"),
          issuer: code.issuer,
        };
    } else grant = world.refreshTokens.get(form.get("refresh_token") ?? "");
    if (!grant) return (json(response, 400, { error: "invalid_grant" }), true);
    const access = `at-${++codes}`;
    const refresh = `rt-${codes}`;
    world.tokens.set(access, grant);
    world.refreshTokens.set(refresh, grant);
    json(response, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: world.expiresIn,
      refresh_token: refresh,
      scope: grant.scopes.join(" "),
    });
  } else return false;
  return true;
}

/** The resource server: POST /mcp answers every JSON-RPC request with an empty result. */
async function resourceServer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const message = JSON.parse(await bodyOf(request)) as { id: number; method: string };
  const metadata = `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  const issued = token !== undefined ? world.tokens.get(token) : undefined;
  if (!issued || issued.issuer !== world.issuer())
    return json(response, 401, {}, { "www-authenticate": `Bearer ${metadata}` });
  const needed = world.needs[message.method] ?? [];
  if (!needed.every((s) => issued.scopes.includes(s)))
    return json(
      response,
      403,
      {},
      {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${needed.join(" ")}", ${metadata}`,
      },
    );
  json(response, 200, { jsonrpc: "2.0", id: message.id, result: {} });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url!, "http://x").pathname;
    world.requests.push(`${request.method} ${path}`);
    void (async () => {
      if (path === "/.well-known/oauth-protected-resource/mcp")
        return json(response, 200, {
          resource: world.resource ?? `${base}/mcp`,
          authorization_servers: [world.issuer()],
          scopes_supported: ["read"],
        });
      if (path === "/mcp") return resourceServer(request, response);
      for (const name of ["as1", "as2"])
        if (await authorizationServer(name, path, request, response)) return;
      json(response, 404, {});
    })();
  });
  base = await listenOnLoopback(server);
});
afterAll(() => closeServer(server));

/** Follows the authorization redirect at once, as a user who approves would. */
async function approve(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  return new URL(response.headers.get("location")!);
}

function client(options: Partial<OAuthClientOptions> = {}) {
  const auth = new OAuthClient({
    redirectUri: "http://127.0.0.1:9/callback",
    authorize: approve,
    ...options,
  });
  const channel = connectHttp(`${base}/mcp`, { auth });
  let id = 0;
  const call = async (method: string) =>
    channel.request({ jsonrpc: "2.0", id: ++id, method, params: {} }).catch((e: unknown) => e);
  return { auth, call };
}

describe("signing in when the server asks", () => {
  afterEach(reset);
  reset();

  it("discovers, registers, authorizes with PKCE and the resource, and sends the request again with the token", async () => {
    const store = new MemoryTokenStore();
    const { call } = client({ store });
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(world.requests.slice(0, 3)).toEqual([
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-authorization-server/as1",
    ]);
    expect(world.registrations).toEqual([
      expect.objectContaining({
        application_type: "native",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: ["http://127.0.0.1:9/callback"],
      }),
    ]);
    const [authorization] = world.authorizations;
    expect(authorization!.get("code_challenge_method")).toBe("S256");
    expect(authorization!.get("resource")).toBe(`${base}/mcp`);
    // scopes_supported of the resource, and offline_access as the server offers it
    expect(authorization!.get("scope")).toBe("read offline_access");
    const [token] = world.tokenRequests;
    expect(token!.get("resource")).toBe(`${base}/mcp`);
    // client_secret_basic, the id and secret form-encoded (":" escaped, "-" as it is)
    expect(Buffer.from(token!.get("authorization")!.slice(6), "base64").toString()).toBe(
      "as1-client:s3cret-%3Ax",
    );
    expect(store.load({ issuer: `${base}/as1`, resource: `${base}/mcp` })).toMatchObject({
      client: { client_id: "as1-client" },
      scope: "read offline_access",
    });
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(world.authorizations).toHaveLength(1);
  });

  it("steps up on 403 insufficient_scope with the scopes granted and those named, a bounded number of times", async () => {
    world.needs = { "tools/call": ["write"] };
    const { call, auth } = client();
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(await call("tools/call")).toMatchObject({ result: {} });
    expect(world.authorizations.map((a) => a.get("scope"))).toEqual([
      "read offline_access",
      "read offline_access write",
    ]);
    expect(auth.scope).toBe("read offline_access write");

    world.needs = { "tools/call": ["admin"] };
    world.authorizations = [];
    // The authorization server never grants admin: the same scopes are asked for twice, then no more.
    const results = [await call("tools/call"), await call("tools/call"), await call("tools/call")];
    expect(results.every((r) => r instanceof Error)).toBe(true);
    expect(world.authorizations.map((a) => a.get("scope"))).toEqual([
      "read offline_access write admin",
      "read offline_access write admin",
    ]);
  });

  it("refreshes an expired token before sending it, instead of authorizing again", async () => {
    world.expiresIn = 1; // inside the refresh margin: every token is expired at once
    const { call } = client();
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(world.authorizations).toHaveLength(1);
    expect(world.tokenRequests.map((t) => t.get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token", // before the first request is sent again
      "refresh_token", // before the second request
    ]);
    expect(world.tokenRequests[1]!.get("resource")).toBe(`${base}/mcp`);
  });

  it("follows a server to a new authorization server, registering there, its first client never shown", async () => {
    const { call } = client();
    await call("tools/list");
    world.issuer = () => `${base}/as2`;
    expect(await call("tools/list")).toMatchObject({ result: {} });
    expect(world.registrations.map((r) => r.at)).toEqual(["as1", "as2"]);
    expect(world.authorizations.map((a) => a.get("client_id"))).toEqual([
      "as1-client",
      "as2-client",
    ]);
  });

  it("keeps the grant in a file store across clients: no second authorization", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-oauth-"));
    try {
      const store = new FileTokenStore(join(dir, "tokens"));
      await client({ store }).call("tools/list");
      await client({ store }).call("tools/list");
      expect(world.authorizations).toHaveLength(1);
      const [file] = readdirSync(join(dir, "tokens"));
      expect(statSync(join(dir, "tokens", file!)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, "tokens")).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("refusing to sign in", () => {
  afterEach(reset);
  reset();

  it("never asks for a token when iss is wrong or missing though promised (RFC 9207)", async () => {
    for (const iss of ["wrong", "none"] as const) {
      world.iss = iss;
      const error = await client().call("tools/list");
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).step).toBe("authorization");
      expect(world.tokenRequests).toEqual([]);
    }
  });

  it("never authorizes for metadata that names another server's resource", async () => {
    world.resource = "https://evil.example/mcp";
    const error = await client().call("tools/list");
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toMatch(/is for the resource https:\/\/evil\.example\/mcp/);
    expect(world.authorizations).toEqual([]);
  });

  it("fails with a clear error, in bounded time, when the authorization server is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    world.issuer = () => `http://127.0.0.1:${port}`;
    const started = Date.now();
    const error = await client({ timeoutMs: 2000 }).call("tools/list");
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toMatch(/authorization server metadata: cannot reach http/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses http:// authorization servers off the loopback interface unless allowed", async () => {
    world.issuer = () => "http://auth.example";
    const error = await client().call("tools/list");
    expect((error as Error).message).toMatch(/is not https; set allowHttp/);
  });
});

describe("client authentication at the token endpoint", () => {
  const headersOf = (client: Parameters<typeof clientAuthentication>[0]) => {
    const headers = new Headers();
    const body = new URLSearchParams();
    void clientAuthentication(client)({ issuer: "x" }, { ...client }, body, headers);
    return { headers, body };
  };

  it("basic: form-encoded id and secret, unreserved characters as they are", () => {
    const { headers } = headersOf({
      client_id: "pre-registered-client",
      client_secret: "pre-registered-secret",
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(headers.get("authorization")).toBe(
      `Basic ${btoa("pre-registered-client:pre-registered-secret")}`,
    );
  });

  it("post: id and secret in the body; none: the id alone", () => {
    const post = headersOf({
      client_id: "a",
      client_secret: "b",
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(post.headers.get("authorization")).toBe(null);
    expect(Object.fromEntries(post.body)).toEqual({ client_id: "a", client_secret: "b" });
    const none = headersOf({ client_id: "a", token_endpoint_auth_method: "none" });
    expect(none.headers.get("authorization")).toBe(null);
    expect(Object.fromEntries(none.body)).toEqual({ client_id: "a" });
  });
});

describe("the file token store", () => {
  it("keeps one file per issuer and resource, and reads a damaged or foreign file as nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-oauth-"));
    try {
      const store = new FileTokenStore(dir);
      const a = { issuer: "https://as", resource: "https://r/mcp" };
      const b = { issuer: "https://as", resource: "https://r/other" };
      store.save(a, { client: { client_id: "1" }, access_token: "t1" });
      store.save(b, { client: { client_id: "2" } });
      store.save(a, { client: { client_id: "1" }, access_token: "t2" });
      expect(readdirSync(dir)).toHaveLength(2); // no temporary file left
      expect(store.load(a)?.access_token).toBe("t2");
      writeFileSync(store.fileOf(b), "{ not json");
      expect(store.load(b)).toBe(undefined);
      writeFileSync(
        store.fileOf(b),
        JSON.stringify({ ...a, grant: { client: { client_id: "x" } } }),
      );
      expect(store.load(b)).toBe(undefined);
      store.remove(a);
      expect(store.load(a)).toBe(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a grant without a user apart per grant and client, in a file and in memory", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-oauth-"));
    try {
      const place = { issuer: "https://as", resource: "https://r/mcp" };
      const service = { ...place, client: "client_credentials svc" };
      const workload = { ...place, client: "workload wl" };
      for (const store of [new FileTokenStore(dir), new MemoryTokenStore()]) {
        store.save(service, { client: { client_id: "svc" }, access_token: "service" });
        store.save(workload, { client: { client_id: "wl" }, access_token: "workload" });
        expect(store.load(service)?.access_token).toBe("service");
        expect(store.load(workload)?.access_token).toBe("workload");
        expect(store.load(place)).toBe(undefined);
      }
      const file = new FileTokenStore(dir);
      writeFileSync(file.fileOf(workload), readFileSync(file.fileOf(service)));
      expect(file.load(workload)).toBe(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the loopback redirect", () => {
  it("listens on 127.0.0.1 only while authorizing, takes the redirect with its state, refuses others", async () => {
    const statuses: number[] = [];
    const redirect = await loopbackRedirect({
      open: async (url) => {
        const back = new URL(redirect.redirectUri);
        back.searchParams.set("state", "other");
        statuses.push((await fetch(back)).status);
        statuses.push((await fetch(new URL("/elsewhere", back))).status);
        back.searchParams.set("state", url.searchParams.get("state")!);
        back.searchParams.set("code", "c");
        statuses.push((await fetch(back)).status);
      },
    });
    expect(redirect.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const answer = await redirect.authorize(new URL("https://as.example/authorize?state=s1"));
    expect(answer.searchParams.get("code")).toBe("c");
    expect(statuses).toEqual([400, 404, 200]);
    // closed after the redirect
    await expect(fetch(redirect.redirectUri)).rejects.toThrow();
  });

  it("gives up after its timeout and closes", async () => {
    const redirect = await loopbackRedirect({ open: () => {}, timeoutMs: 200 });
    await expect(
      redirect.authorize(new URL("https://as.example/authorize?state=s1")),
    ).rejects.toThrow(/no sign-in redirect reached 127\.0\.0\.1:\d+ within/);
    await expect(fetch(redirect.redirectUri)).rejects.toThrow();
  });

  it("needs a state to know its answer", async () => {
    const redirect = await loopbackRedirect({ open: () => {} });
    await expect(redirect.authorize(new URL("https://as.example/authorize"))).rejects.toThrow(
      /no state parameter/,
    );
  });
});
