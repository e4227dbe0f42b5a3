/**
 * The client the official conformance suite drives
 * (`@modelcontextprotocol/conformance client --command "node dist/conformance.js"`):
 * the suite starts a mock server for a scenario, runs this file with the
 * server's URL as its last argument and the scenario in
 * MCP_CONFORMANCE_SCENARIO, and checks what the client sent. Each scenario
 * is what a real client would do against such a server; nothing here
 * knows what the suite checks.
 *
 * MCP_CONFORMANCE_PROTOCOL_VERSION names the revision of the run: a
 * 2025-era one makes the client open a session with initialize at once,
 * 2026-07-28 (or none) lets it probe with server/discover. Exit code 0 when
 * the scenario ran, 1 when it failed or is unknown.
 *
 * Every connection signs in with OAuth when the server asks (the auth/
 * scenarios). The suite's authorization servers approve at once, so this
 * client follows the authorization redirect itself instead of showing it
 * to a user; MCP_CONFORMANCE_CONTEXT may carry pre-registered credentials.
 * The scenarios of the authorization extensions each stand for a
 * deployment configured for one flow (client credentials, workload
 * identity, enterprise-managed authorization, DPoP): DEPLOYMENTS turns the
 * context's credentials into the MCP_AUTH_* settings a scaffolded client
 * reads, and the client signs in by those settings alone.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Client, type Inputs } from "./generated/client.gen.js";
import { connectHttp, type InputHandlers } from "./mcp-gen/runtime/client.js";
import {
  clientAuthFromEnvironment,
  OAuthClient,
  type PreRegisteredClient,
} from "./mcp-gen/runtime/oauth.js";

/**
 * Where this client's metadata document would be published: its client_id
 * at an authorization server that accepts client ID metadata documents
 * (the suite's mock servers never fetch it).
 */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Registered as the redirect URI; nothing listens there, the redirect is read from the Location header. */
const REDIRECT_URI = "http://127.0.0.1/callback";

type Scenario = (client: Client, context: Record<string, unknown>) => Promise<void>;

/** The server's tools (the first page is all a mock has). */
async function listTools(client: Client) {
  return (await client.rpc.toolsList()).tools;
}

const scenarios: Readonly<Record<string, Scenario>> = {
  initialize: async (client) => {
    await listTools(client);
  },
  tools_call: async (client) => {
    await listTools(client);
    await client.tools.add_numbers({ a: 5, b: 3 });
  },
  "request-metadata": async () => {
    // connect() alone: the server refuses the first request's version, the client retries with one it lists.
  },
  "sep-2322-client-request-state": async (client) => {
    for (const name of [
      "test_mrtr_echo_state",
      "test_mrtr_no_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_result_type",
    ])
      await client.raw.callTool(name, {});
  },
  "http-standard-headers": async (client) => {
    const [tool] = await listTools(client);
    if (tool) await client.raw.callTool(tool.name, {});
    const { resources } = await client.rpc.resourcesList();
    if (resources[0]) await client.rpc.resourcesRead({ uri: resources[0].uri });
    const { prompts } = await client.rpc.promptsList();
    if (prompts[0]) await client.rpc.promptsGet({ name: prompts[0].name });
  },
  "http-custom-headers": async (client, context) => {
    await listTools(client);
    const calls = Array.isArray(context.toolCalls) ? context.toolCalls : [];
    for (const call of calls as Array<{ name: string; arguments?: Record<string, unknown> }>)
      await client.raw.callTool(call.name, call.arguments ?? {});
  },
  "http-invalid-tool-headers": async (client) => {
    // The client leaves out tools whose x-mcp-header annotations are invalid; the rest are called.
    for (const tool of await listTools(client))
      await client.raw.callTool(tool.name, { region: "us-west1" });
  },
  "json-schema-ref-no-deref": async (client) => {
    await listTools(client);
  },
  "json-schema-2020-12-preservation": async (client) => {
    const tools = await listTools(client);
    const rich = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (rich && tools.some((t) => t.name === "json_schema_echo"))
      await client.raw.callTool("json_schema_echo", { schema: rich.inputSchema });
  },
  "elicitation-sep1034-client-defaults": async (client) => {
    await client.raw.callTool("test_client_elicitation_defaults", {});
  },
  "sse-retry": async (client) => {
    await listTools(client);
    await client.raw.callTool("test_reconnection", {});
  },
};

/** Any auth/ scenario: signed in on the first request, list the tools and call the first. */
const signedIn: Scenario = async (client) => {
  const [tool] = await listTools(client);
  if (tool) await client.raw.callTool(tool.name, {});
};

/**
 * The user's part of an authorization, for an authorization server that
 * approves at once: fetch the authorization URL and take the redirect.
 */
async function followAuthorization(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || location === null)
    throw new Error(
      `the authorization server answered HTTP ${response.status} instead of redirecting at once: it needs a user`,
    );
  return new URL(location, url);
}

/** Credentials in the scenario's context (client_id and client_secret), if any. */
function preRegistered(context: Record<string, unknown>): PreRegisteredClient | undefined {
  const { client_id: clientId, client_secret: clientSecret, issuer } = context;
  if (typeof clientId !== "string") return undefined;
  return {
    clientId,
    ...(typeof clientSecret === "string" ? { clientSecret } : {}),
    ...(typeof issuer === "string" ? { issuer } : {}),
  };
}

type Settings = Record<string, string>;

/** Where a private key from the context is written for the run (a key comes from a file, as in a deployment). */
let keyFolder: string | undefined;

/** The context's PEM private key in a file of mode 0600, removed when the run ends. */
function keyFile(pem: unknown): string {
  keyFolder ??= mkdtempSync(join(tmpdir(), "mcp-conformance-key-"));
  const file = join(keyFolder, "client-key.pem");
  writeFileSync(file, String(pem), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * The deployments the authorization-extension scenarios stand for: the
 * settings (MCP_AUTH_*) an operator would give a client running that way,
 * from the credentials in the scenario's context.
 */
const DEPLOYMENTS: Readonly<Record<string, (context: Record<string, unknown>) => Settings>> = {
  "auth/client-credentials-basic": (c) => ({
    MCP_AUTH_FLOW: "client_credentials",
    MCP_AUTH_CLIENT_ID: String(c.client_id),
    MCP_AUTH_CLIENT_SECRET: String(c.client_secret),
  }),
  "auth/client-credentials-jwt": (c) => ({
    MCP_AUTH_FLOW: "client_credentials",
    MCP_AUTH_CLIENT_ID: String(c.client_id),
    MCP_AUTH_CLIENT_KEY_FILE: keyFile(c.private_key_pem),
    MCP_AUTH_CLIENT_KEY_ALG: String(c.signing_algorithm ?? "ES256"),
  }),
  "auth/wif-jwt-bearer": (c) => ({
    MCP_AUTH_FLOW: "workload",
    MCP_AUTH_CLIENT_ID: String(c.client_id),
    MCP_AUTH_CLIENT_AUTH_METHOD: "none",
    // The platform puts the workload's identity token in a variable.
    MCP_AUTH_WORKLOAD_TOKEN_VARIABLE: "CONFORMANCE_WORKLOAD_TOKEN",
    CONFORMANCE_WORKLOAD_TOKEN: String(c.valid_jwt),
  }),
  "auth/enterprise-managed-authorization": (c) => ({
    MCP_AUTH_FLOW: "enterprise",
    MCP_AUTH_CLIENT_ID: String(c.client_id),
    MCP_AUTH_CLIENT_SECRET: String(c.client_secret),
    MCP_AUTH_IDP_ISSUER: String(c.idp_issuer),
    MCP_AUTH_IDP_CLIENT_ID: String(c.idp_client_id),
    // The user's ID token from the enterprise sign-in, as the application holds it.
    MCP_AUTH_ID_TOKEN_VARIABLE: "CONFORMANCE_ID_TOKEN",
    CONFORMANCE_ID_TOKEN: String(c.idp_id_token),
  }),
  "auth/dpop": () => ({ MCP_AUTH_DPOP: "1" }),
  "auth/dpop-nonce": () => ({ MCP_AUTH_DPOP: "1" }),
};

/** Accepts every elicitation, leaving defaults to be filled in; confirms yes/no questions. */
const handlers: InputHandlers<Inputs> = {
  elicitation: (params) => {
    const fields = "requestedSchema" in params ? params.requestedSchema.properties : {};
    const content: Record<string, boolean> = {};
    if (Object.hasOwn(fields, "confirmed")) content.confirmed = true;
    return { action: "accept", content };
  },
  sampling: () => ({
    role: "assistant",
    content: { type: "text", text: "conformance" },
    model: "conformance-model",
  }),
  roots: () => ({ roots: [] }),
};

async function main(): Promise<number> {
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const url = process.argv.at(-1);
  const scenario = Object.hasOwn(scenarios, name)
    ? scenarios[name]
    : name.startsWith("auth/")
      ? signedIn
      : undefined;
  if (!scenario || !url || !/^https?:\/\//.test(url)) {
    process.stderr.write(`conformance: no scenario ${JSON.stringify(name)} here, or no URL\n`);
    return 1;
  }
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<
    string,
    unknown
  >;
  const deployment = Object.hasOwn(DEPLOYMENTS, name) ? DEPLOYMENTS[name] : undefined;
  const pre = deployment ? undefined : preRegistered(context);
  const signIn = clientAuthFromEnvironment({}, deployment ? deployment(context) : {});
  const auth = new OAuthClient({
    redirectUri: REDIRECT_URI,
    authorize: followAuthorization,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcp-gen-conformance-client",
    ...(pre ? { preRegistered: pre } : {}),
    ...signIn,
  });
  const client = createClient({
    channel: connectHttp(url, {
      auth,
      onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
    }),
    info: { name: "mcp-gen-conformance-client", version: "1.0.0" },
    handlers,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "auto",
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  try {
    await client.connect();
    await scenario(client, context);
    return 0;
  } catch (error) {
    process.stderr.write(`conformance: ${name}: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  } finally {
    await client.close().catch(() => {});
    if (keyFolder) rmSync(keyFolder, { recursive: true, force: true });
  }
}

process.exitCode = await main();
