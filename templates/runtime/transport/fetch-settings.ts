/**
 * The settings of the Streamable HTTP core from environment variables, for
 * every runtime: the ones that do not depend on who accepts connections
 * (node:http, Bun.serve, Deno.serve or a Worker), and the parsing every
 * setting shares. A value that cannot be used throws a SettingError naming
 * the variable, what it got and what it takes. Imports no node: module, so
 * a Worker can read its settings with it.
 *
 * | variable                      | option                 | default                      |
 * | ----------------------------- | ---------------------- | ---------------------------- |
 * | `HOST`                        | `host`                 | 127.0.0.1 (not on Workers)   |
 * | `PORT`                        | `port`                 | 3000 (not on Workers)        |
 * | `ALLOWED_HOSTS`               | `allowedHosts`         | localhost,127.0.0.1,[::1]    |
 * | `ALLOWED_ORIGINS`             | `allowedOrigins`       | origins of the allowed hosts |
 * | `MCP_MAX_BODY_BYTES`          | `maxBodyBytes`         | 4194304                      |
 * | `MCP_SESSION_IDLE_MS`         | `sessionIdleMs`        | 600000                       |
 * | `MCP_MAX_SESSIONS`            | `maxSessions`          | 10000                        |
 * | `MCP_MAX_STREAM_BUFFER_BYTES` | `maxStreamBufferBytes` | 1048576                      |
 * | `MCP_MAX_LISTEN_STREAMS_PER_CLIENT` | `maxListenStreamsPerClient` | 16              |
 * | `MCP_MAX_LISTEN_STREAMS`      | `maxListenStreams`     | 500                          |
 * | `MCP_LISTEN_IDLE_MS`          | `listenIdleMs`         | 600000                       |
 * | `MCP_LISTEN_LIFETIME_MS`      | `listenLifetimeMs`     | 3600000                      |
 * | `MCP_MAX_BATCH_ITEMS`         | `maxBatchItems`        | 100                          |
 */
import { parseHostHeader, parseOrigin } from "./guards.js";
import type { HttpOptions } from "./http.js";

/** A setting whose value cannot be used. */
export class SettingError extends Error {
  constructor(
    /** The environment variable. */
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "SettingError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The core's options and the listening address, as the environment sets them; unset ones are left out. */
export interface FetchSettings extends HttpOptions {
  /** The address to listen on (Bun, Deno; a Worker has none of its own). */
  readonly host?: string;
  /** The port (0 picks a free one). */
  readonly port?: number;
}

/** The settings of the table above from `env`; unset ones are left out. */
export function fetchSettingsFromEnvironment(env: Env): FetchSettings {
  const settings: Record<string, unknown> = {};
  const set = (option: string, value: unknown) => {
    if (value !== undefined) settings[option] = value;
  };
  set("host", text(env, "HOST"));
  set("port", integer(env, "PORT", 0, 65535));
  set("allowedHosts", list(env, "ALLOWED_HOSTS", "localhost,mcp.example.com", isHostSetting));
  set(
    "allowedOrigins",
    list(env, "ALLOWED_ORIGINS", "https://app.example.com", (o) => parseOrigin(o) !== undefined),
  );
  set("maxBodyBytes", integer(env, "MCP_MAX_BODY_BYTES", 1, 1 << 30));
  set("sessionIdleMs", integer(env, "MCP_SESSION_IDLE_MS", 1000, 86_400_000));
  set("maxSessions", integer(env, "MCP_MAX_SESSIONS", 1, 10_000_000));
  set("maxStreamBufferBytes", integer(env, "MCP_MAX_STREAM_BUFFER_BYTES", 1024, 1 << 30));
  set("maxListenStreamsPerClient", integer(env, "MCP_MAX_LISTEN_STREAMS_PER_CLIENT", 1, 1_000_000));
  set("maxListenStreams", integer(env, "MCP_MAX_LISTEN_STREAMS", 1, 1_000_000));
  set("listenIdleMs", integer(env, "MCP_LISTEN_IDLE_MS", 1000, 86_400_000));
  set("listenLifetimeMs", integer(env, "MCP_LISTEN_LIFETIME_MS", 1000, 604_800_000));
  set("maxBatchItems", integer(env, "MCP_MAX_BATCH_ITEMS", 1, 100_000));
  return settings;
}

/** A variable's value without surrounding space, or undefined when it is unset or empty. */
export function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
}

/** An integer from `min` to `max`, or undefined when the variable is unset or empty. */
export function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max)
    throw new SettingError(
      name,
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`,
    );
  return number;
}

/** A yes/no setting: 1, true, on / 0, false, off. */
export function flag(env: Env, name: string): boolean | undefined {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (["1", "true", "on", "yes"].includes(value)) return true;
  if (["0", "false", "off", "no"].includes(value)) return false;
  throw new SettingError(
    name,
    `${name} must be 1, true or on (or 0, false, off), not ${JSON.stringify(value)}`,
  );
}

/** A host name or IP address without a port, as ALLOWED_HOSTS lists them (an IPv6 address unbracketed too). */
export function isHostSetting(host: string): boolean {
  // An IPv6 literal is written bare in the list ("::1"); the Host parser takes it in brackets.
  const parsed = parseHostHeader(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);
  return parsed !== undefined && parsed.port === undefined;
}

/** A comma-separated list whose items pass `valid`, or `any`. */
export function list(
  env: Env,
  name: string,
  example: string,
  valid: (item: string) => boolean,
): readonly string[] | "any" | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (value.toLowerCase() === "any") return "any";
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (items.length === 0)
    throw new SettingError(
      name,
      `${name} must be a comma-separated list (e.g. ${example}) or "any"`,
    );
  const bad = items.find((item) => !valid(item));
  if (bad !== undefined)
    throw new SettingError(
      name,
      `${name} has ${JSON.stringify(bad)}, which is not ${name === "ALLOWED_HOSTS" ? "a host name or IP address without a port" : "an origin (scheme://host[:port], nothing after it)"}; e.g. ${example}`,
    );
  return items;
}
