/**
 * A project's settings: what mcp-gen.json records, read and checked here,
 * and the project's extensions with their manifests. A new project's own
 * checks (its folder, name, revision) are scaffold/new-project.ts's.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { findManifest } from "../load/extensions.js";
import type { ExtensionManifest } from "../load/types.js";
import {
  clientDeclares,
  RESULT_RULE,
  serverDeclares,
  type ExtensionEntry,
} from "../runtime/rules.js";
import { parseJsonText } from "../load/json.js";
import { resolveExtensionReference } from "../load/references.js";
import { checkTargetParts, TARGETS, type Target } from "./targets.js";

/** What a project records in mcp-gen.json, so `mcp-gen generate` can regenerate it. */
export type ProjectSettings = ServerSettings | ClientSettings;

/** What every project records. */
interface CommonSettings {
  readonly revision: string;
  /** Known extensions by name; others as the path of their folder or manifest, relative to the project. */
  readonly extensions: readonly string[];
  /** Settings declared under capabilities.extensions, by extension identifier (default: the manifest's). */
  readonly extensionSettings?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The tools file, relative to the project. */
  readonly tools: string;
  readonly example: "minimal" | "everything";
  /**
   * How the tool validators run `pattern`: `linear` (re2js, in time linear
   * in the input; a client's default, since its schemas come from servers)
   * or `native` (JavaScript's RegExp, which backtracks; a server's default,
   * since its schemas are its own).
   */
  readonly patterns?: "linear" | "native";
}

/** Whether a project's tool validators run their patterns in linear time (its `patterns`, else its kind's default). */
export function linearPatternsOf(settings: {
  readonly kind: "server" | "client";
  readonly patterns?: "linear" | "native";
}): boolean {
  return (settings.patterns ?? (settings.kind === "client" ? "linear" : "native")) === "linear";
}

/** A server project's settings. */
export interface ServerSettings extends CommonSettings {
  readonly kind: "server";
  readonly transport: "stdio" | "http" | "both";
  /** The runtime it is scaffolded for (absent: node); see targets.ts. */
  readonly target?: Target;
  /** OAuth authorization (HTTP only); the environment (MCP_AUTH_*) wins over it. */
  readonly auth?: AuthSettings;
  /** How lists are paged and the caching hints they carry; MCP_LIST_PAGE_SIZE wins over the page size. */
  readonly lists?: ListSettings;
}

/** mcp-gen.json's `lists`: a server's page size and the caching hints of its list results. */
export interface ListSettings {
  readonly pageSize?: number;
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

/** mcp-gen.json's `auth`: the project's defaults for its authorization. */
export interface AuthSettings {
  /** The authorization server's issuer URL (MCP_AUTH_ISSUER wins). */
  readonly issuer?: string;
  /** This server's canonical resource URI (MCP_AUTH_RESOURCE wins; default: its public URL). */
  readonly resource?: string;
  /** Scopes every request needs. */
  readonly scopes?: readonly string[];
  /** Scopes by JSON-RPC method. */
  readonly methods?: Readonly<Record<string, readonly string[]>>;
  /** Scopes by tool name (each a tool of the tools file). */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  /** RFC 7662 introspection (MCP_AUTH_INTROSPECTION_URL, MCP_AUTH_CLIENT_ID win); the secret only from MCP_AUTH_CLIENT_SECRET. */
  readonly introspection?: { readonly url: string; readonly clientId?: string };
  /** DPoP-bound tokens: `allowed` beside bearer tokens (the default) or `required` (MCP_AUTH_DPOP wins). */
  readonly dpop?: "allowed" | "required";
}

/**
 * mcp-gen.json's `auth` of a client, beyond `true`: how it signs in (the
 * flow, its client, where its key and assertions are, DPoP); MCP_AUTH_*
 * win, and secrets come only from the environment.
 */
export interface ClientAuthSettings {
  readonly flow?: "authorization_code" | "client_credentials" | "workload" | "enterprise";
  readonly clientId?: string;
  readonly tokenEndpointAuthMethod?:
    "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  readonly keyFile?: string;
  readonly keyAlgorithm?: string;
  readonly workload?: { readonly tokenFile?: string; readonly tokenVariable?: string };
  readonly enterprise?: {
    readonly issuer?: string;
    readonly tokenEndpoint?: string;
    readonly clientId?: string;
    readonly idTokenFile?: string;
    readonly idTokenVariable?: string;
  };
  readonly dpop?: boolean;
}

/** A client project's settings. */
export interface ClientSettings extends CommonSettings {
  readonly kind: "client";
  /** The server the tools were listed from (`--from-server`), for the record. */
  readonly fromServer?: string;
  /** The folder a `fromServer` command line ran in, relative to the project (default: the project folder). */
  readonly fromServerFolder?: string;
  /**
   * Signs in with OAuth when a server asks (true, or how: ClientAuthSettings):
   * the project carries runtime/oauth and depends on oauth4webapi and jose.
   */
  readonly auth?: boolean | ClientAuthSettings;
}

/** Whether a client signs in: `auth` is true or an object. */
export function clientSignsIn(settings: ClientSettings): boolean {
  return settings.auth !== undefined && settings.auth !== false;
}

/** How a project regenerates its generated files: its own mcp-gen, through its package.json. */
export const REGENERATE = "npm run regenerate (in the project folder; settings in mcp-gen.json)";

/** The project settings file. */
export const SETTINGS_FILE = "mcp-gen.json";

/** An extension of a project, as mcp-gen.json names it, with its manifest. */
export interface ProjectExtension {
  /** What generate() is given: a known name, or the path resolved against the project. */
  readonly ref: string;
  readonly known: boolean;
  readonly id: string;
  readonly name: string;
  readonly capability?: string;
  readonly requests: readonly string[];
  /** Whether a server, and a client, of the project declare it: its settings type that side, or its negotiation rule needs that side's declaration. */
  readonly declaredBy: { readonly client: boolean; readonly server: boolean };
  /** What each side declares under capabilities.extensions[id]: mcp-gen.json's extensionSettings, else the manifest's capability.settings, else {}. */
  readonly settings: {
    readonly client: Readonly<Record<string, unknown>>;
    readonly server: Readonly<Record<string, unknown>>;
  };
}

export function projectExtensions(
  settings: ProjectSettings,
  projectDir: string,
): ProjectExtension[] {
  return settings.extensions.map((entry) => {
    const ref = resolveExtensionReference(entry, projectDir);
    const { manifest, known } = findManifest(ref);
    const serverSide =
      manifest.capability && (manifest.capability.sides ?? ["client", "server"]).includes("server");
    const requests = Object.entries(manifest.requests ?? {})
      .filter(([, r]) => (r.direction ?? "client-to-server") !== "server-to-client")
      .filter(([, r]) => (r.channel ?? manifest.channel ?? "mcp") === "mcp")
      .filter(([method]) => !(known && SERVED_BY_RUNTIME.has(method)))
      .map(([method]) => method)
      .sort();
    const own = settings.extensionSettings?.[manifest.id];
    const defaults = manifest.capability?.settings;
    const rule = negotiationEntry(manifest);
    return {
      ref,
      known,
      id: manifest.id,
      name: manifest.name,
      ...(serverSide ? { capability: manifest.capability.definition } : {}),
      requests,
      declaredBy: { client: clientDeclares(rule), server: serverDeclares(rule) },
      settings: {
        client: own ?? defaults?.client ?? {},
        server: own ?? defaults?.server ?? {},
      },
    };
  });
}

/** What the runtime's negotiation rule reads of an extension, from its manifest (the EXTENSIONS entry it will have). */
function negotiationEntry(manifest: ExtensionManifest): ExtensionEntry {
  const onMcp = (channel: string | undefined) => (channel ?? manifest.channel ?? "mcp") === "mcp";
  const messages = (all: Readonly<Record<string, { readonly channel?: string }>> = {}) =>
    Object.fromEntries(
      Object.entries(all)
        .filter(([, m]) => onMcp(m.channel))
        .map(([method]) => [method, ""]),
    );
  const results =
    Object.keys(manifest.resultTypes ?? {}).length > 0 ||
    Object.keys(manifest.returns ?? {}).length > 0;
  return {
    id: manifest.id,
    requests: messages(manifest.requests),
    notifications: messages(manifest.notifications),
    resultTypes: results ? [RESULT_RULE] : [],
    capability: { sides: manifest.capability?.sides ?? ["client", "server"] },
    ...(manifest.negotiation ? { negotiation: manifest.negotiation } : {}),
  };
}

/**
 * Requests of known extensions that the runtime serves itself: the project
 * gets no stub for them.
 */
const SERVED_BY_RUNTIME: ReadonlySet<string> = new Set([
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/** The Tasks extension's identifier: a client project with it follows tasks. */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/** Reads a project's mcp-gen.json. */
export function readSettings(projectDir: string): ProjectSettings {
  const file = join(projectDir, SETTINGS_FILE);
  if (!existsSync(file))
    throw new McpGenError([diagnostic("MCPG710", { file, reason: "not found" }, { file })]);
  const value = parseJsonText(readFileSync(file, "utf8"), file) as unknown as ProjectSettings;
  const extensions = value.extensions as unknown;
  if (
    (value.kind !== "server" && value.kind !== "client") ||
    typeof value.revision !== "string" ||
    typeof value.tools !== "string" ||
    !Array.isArray(extensions) ||
    !extensions.every((e) => typeof e === "string") ||
    (value.kind === "server" &&
      value.target !== undefined &&
      !(TARGETS as readonly unknown[]).includes(value.target))
  ) {
    throw new McpGenError([
      diagnostic(
        "MCPG710",
        {
          file,
          reason:
            'it needs kind "server" or "client", a revision, a tools file and an array of extensions (and a server\'s target, if any, is node, bun, deno or workers)',
        },
        { file },
      ),
    ]);
  }
  return value;
}

/**
 * Refuses settings a project cannot be generated with, pointing into
 * mcp-gen.json: a target that cannot run one of the project's parts
 * (MCPG716).
 */
export function checkProjectSettings(settings: ProjectSettings, projectDir: string): void {
  if (settings.kind === "server" && settings.target !== undefined)
    checkTargetParts(
      {
        target: settings.target,
        transport: settings.transport,
        auth: settings.auth !== undefined,
        extensionIds: projectExtensions(settings, projectDir).map((e) => e.id),
      },
      SETTINGS_FILE,
    );
}
