/**
 * src/generated/auth.gen.ts of a server project with authorization.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import {
  clientSignsIn,
  SETTINGS_FILE,
  type ClientSettings,
  type ProjectSettings,
} from "./settings.js";
import type { ToolSpec } from "../load/tools-file.js";

/**
 * src/generated/auth.gen.ts of a server with authorization: mcp-gen.json's
 * `auth` as the defaults the environment may override. Authorization on a
 * server that serves only stdio is an error (MCPG714). A tool named in
 * `auth.tools` that is not in the tools file is an error (MCPG701), so a
 * renamed tool cannot silently lose its scopes.
 */
export function authFiles(
  settings: ProjectSettings,
  tools: readonly ToolSpec[],
  banner: string,
): EmittedFile[] {
  if (settings.kind === "client") return clientAuthFiles(settings, banner);
  if (settings.auth === undefined) return [];
  const auth = settings.auth;
  // mcp-gen.json's schema lets `auth` be true, a client's setting: a server's is an object.
  if (typeof (auth as unknown) !== "object")
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        {
          reason: `"auth" of a server is an object ({ "issuer": ..., "scopes": [...] }); true is a client's setting`,
        },
        { file: SETTINGS_FILE, pointer: "/auth" },
      ),
    ]);
  const misplaced: string[] = CLIENT_ONLY.filter((key) => Object.hasOwn(auth, key));
  // `dpop` is a word in a server ("allowed", "required") and a yes or no in a client.
  if (auth.dpop !== undefined && auth.dpop !== "allowed" && auth.dpop !== "required")
    misplaced.push("dpop");
  if (misplaced.length > 0)
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        {
          reason: `"auth" of a server has ${misplaced.join(", ")}: how a client signs in, not what a server accepts`,
        },
        { file: SETTINGS_FILE, pointer: "/auth" },
      ),
    ]);
  if (settings.transport === "stdio")
    throw new McpGenError([diagnostic("MCPG714", {}, { file: SETTINGS_FILE, pointer: "/auth" })]);
  const names = new Set(tools.map((t) => t.name));
  const unknown = Object.keys(auth.tools ?? {}).filter((name) => !names.has(name));
  if (unknown.length > 0)
    throw new McpGenError(
      unknown.map((name) =>
        diagnostic(
          "MCPG701",
          {
            reason: `auth.tools names ${name}, which is not a tool of ${settings.tools}; rename or remove it`,
          },
          {
            file: SETTINGS_FILE,
            pointer: `/auth/tools/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
          },
        ),
      ),
    );
  const defaults = {
    ...(auth.issuer !== undefined ? { issuer: auth.issuer } : {}),
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
    ...(auth.introspection !== undefined ? { introspection: auth.introspection } : {}),
    ...(auth.dpop !== undefined ? { dpop: auth.dpop } : {}),
    scopes: {
      always: auth.scopes ?? [],
      methods: auth.methods ?? {},
      tools: auth.tools ?? {},
    },
  };
  return [
    {
      path: "src/generated/auth.gen.ts",
      contents: `${banner}
import type { AuthDefaults } from "../mcp-gen/runtime/auth/index.js";

/** mcp-gen.json's auth: what the MCP_AUTH_* variables override. */
export const authDefaults: AuthDefaults = ${JSON.stringify(defaults, null, 2)};
`,
    },
  ];
}

/** What only a client's `auth` has (ClientAuthSettings); the rest of a server's is its own. */
const CLIENT_ONLY = [
  "flow",
  "clientId",
  "tokenEndpointAuthMethod",
  "keyFile",
  "keyAlgorithm",
  "workload",
  "enterprise",
] as const;
/** What only a server's `auth` has (AuthSettings). */
const SERVER_ONLY = ["issuer", "resource", "scopes", "methods", "tools", "introspection"] as const;

/**
 * src/generated/auth.gen.ts of a client that signs in: mcp-gen.json's
 * `auth` (true: nothing beyond the defaults) as what the MCP_AUTH_*
 * variables override. A server's settings there are an error (MCPG801).
 */
function clientAuthFiles(settings: ClientSettings, banner: string): EmittedFile[] {
  if (!clientSignsIn(settings)) return [];
  const auth = typeof settings.auth === "object" ? settings.auth : {};
  const misplaced: string[] = SERVER_ONLY.filter((key) => Object.hasOwn(auth, key));
  if (auth.dpop !== undefined && typeof auth.dpop !== "boolean") misplaced.push("dpop");
  if (misplaced.length > 0)
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        {
          reason: `"auth" of a client has ${misplaced.join(", ")}: what a server accepts, not how a client signs in`,
        },
        { file: SETTINGS_FILE, pointer: "/auth" },
      ),
    ]);
  return [
    {
      path: "src/generated/auth.gen.ts",
      contents: `${banner}
import type { ClientAuthDefaults } from "../mcp-gen/runtime/oauth.js";

/** mcp-gen.json's auth: how this client signs in, what the MCP_AUTH_* variables override. */
export const clientAuthDefaults: ClientAuthDefaults = ${JSON.stringify(auth, null, 2)};
`,
    },
  ];
}
