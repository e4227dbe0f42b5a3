/**
 * A scaffolded `mcp-gen server --auth` project running as a real child
 * process on 127.0.0.1, protected by a real authorization server
 * (test/helpers/authorization-server.ts) that issues tokens for it: what an end to
 * end test of a client's OAuth needs from the server side.
 *
 * The project is scaffolded into a temporary folder (removed after the
 * test file), its mcp-gen.json gets the `auth` section asked for, it is
 * regenerated, and it is started from its TypeScript sources with the
 * repository's tsx and the MCP_AUTH_* settings pointing at the
 * authorization server. Its resource (the MCP endpoint) is fixed before
 * either starts, so the authorization server knows it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  regenerateProject,
  scaffoldServer,
  writeProject,
} from "../../generator/scaffold/scaffold.js";
import { freePort } from "../../scripts/shared/free-port.js";
import {
  startAuthorizationServer,
  type AuthorizationServerOptions,
  type TestAuthorizationServer,
} from "./authorization-server.js";
import { tempDir, testSources } from "./index.js";
import { linkNodeModules } from "./project.js";

/** Runs the project's TypeScript sources directly, with the repository's tsx. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;

/** What to start. */
export interface AuthorizedServerOptions {
  /** The example the project starts from (default `minimal`: one `echo` tool). */
  readonly example?: "minimal" | "everything";
  /**
   * mcp-gen.json's `auth` (scopes every request needs, per method, per
   * tool); default `{ scopes: ["mcp"] }`, what `--auth` writes.
   */
  readonly auth?: {
    readonly scopes?: readonly string[];
    readonly methods?: Readonly<Record<string, readonly string[]>>;
    readonly tools?: Readonly<Record<string, readonly string[]>>;
  };
  /** The authorization server's scopes (default: every scope `auth` names). */
  readonly scopes?: readonly string[];
  /** `jwt` (default) or `opaque`: opaque tokens make the server introspect them. */
  readonly tokenFormat?: AuthorizationServerOptions["tokenFormat"];
  /** How long an access token lives, in seconds (default 600). */
  readonly accessTokenTTL?: number;
  /** Redirect URIs of the authorization server's `pre-registered-client`. */
  readonly redirectUris?: readonly string[];
}

/** A running protected MCP server and its authorization server. */
export interface AuthorizedServer {
  /** The MCP endpoint, which is also the resource tokens must be issued for. */
  readonly url: string;
  /** The authorization server (issuer, tokens, revocation, request counts). */
  readonly authorizationServer: TestAuthorizationServer;
  /** The project folder. */
  readonly project: string;
  /** What the server wrote to stderr so far (to check that no token was logged). */
  stderr(): string;
  /** Stops the server and the authorization server. */
  close(): Promise<void>;
}

/** Scaffolds, configures and starts a protected server; takes a few seconds (one regeneration). */
export async function startAuthorizedServer(
  options: AuthorizedServerOptions = {},
): Promise<AuthorizedServer> {
  const auth = options.auth ?? { scopes: ["mcp"] };
  const scopes = options.scopes ?? [
    ...new Set([
      ...(auth.scopes ?? []),
      ...Object.values(auth.methods ?? {}).flat(),
      ...Object.values(auth.tools ?? {}).flat(),
    ]),
  ];
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const authorizationServer = await startAuthorizationServer({
    resources: [url],
    scopes,
    ...(options.tokenFormat ? { tokenFormat: options.tokenFormat } : {}),
    ...(options.accessTokenTTL ? { accessTokenTTL: options.accessTokenTTL } : {}),
    ...(options.redirectUris ? { redirectUris: options.redirectUris } : {}),
  });
  try {
    const project = await scaffoldProject(options.example ?? "minimal", auth);
    const env: Record<string, string> = {
      PORT: String(port),
      MCP_AUTH_ISSUER: authorizationServer.issuer,
      MCP_AUTH_RESOURCE: url,
    };
    if (options.tokenFormat === "opaque")
      Object.assign(env, {
        MCP_AUTH_INTROSPECTION_URL: authorizationServer.introspectionUrl,
        MCP_AUTH_CLIENT_ID: authorizationServer.resourceServerClient.clientId,
        MCP_AUTH_CLIENT_SECRET: authorizationServer.resourceServerClient.clientSecret,
      });
    const { child, log } = await startProject(project, env);
    return {
      url,
      authorizationServer,
      project,
      stderr: log,
      async close() {
        await stopChild(child);
        await authorizationServer.close();
      },
    };
  } catch (error) {
    await authorizationServer.close();
    throw error;
  }
}

/** A server project made with --auth (HTTP only), its mcp-gen.json's auth set to `auth`, regenerated. */
async function scaffoldProject(
  example: "minimal" | "everything",
  auth: NonNullable<AuthorizedServerOptions["auth"]>,
): Promise<string> {
  const project = join(tempDir("authorized-server"), "server");
  const { files } = await scaffoldServer({
    dir: project,
    example,
    transport: "http",
    auth: true,
    name: "authorized-server",
    sources: testSources(),
  });
  writeProject(project, files);
  const settingsPath = join(project, "mcp-gen.json");
  const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as Record<string, unknown>;
  writeFileSync(settingsPath, `${JSON.stringify({ ...settings, auth }, null, 2)}\n`);
  await regenerateProject(project, { sources: testSources() });
  // The project's dependencies (jose among them) are the repository's.
  linkNodeModules(project);
  return project;
}

/** Starts the project's src/index.ts; resolves once it listens, rejects with its output if it exits. */
function startProject(
  project: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ["--import", TSX, "src/index.ts"], {
    cwd: project,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the server did not listen within 30 s:\n${log}`));
    }, 30_000);
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      if (/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(log)) {
        clearTimeout(timer);
        resolve({ child, log: () => log });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${log}`));
    });
  });
}

/** Ends a child with SIGTERM (SIGKILL after 5 s) and waits for it. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
