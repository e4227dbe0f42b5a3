/**
 * The HTTP server's settings from environment variables, so a deployment
 * changes them without editing code. Every variable is optional; a value
 * that cannot be used stops the start with an error that names the
 * variable, what it got and what it takes.
 *
 * | variable                 | option             | default                     |
 * | ------------------------ | ------------------ | --------------------------- |
 * | `HOST`                   | `host`             | 127.0.0.1                   |
 * | `PORT`                   | `port`             | 3000                        |
 * | `ALLOWED_HOSTS`          | `allowedHosts`     | localhost,127.0.0.1,[::1]   |
 * | `ALLOWED_ORIGINS`        | `allowedOrigins`   | origins of the allowed hosts |
 * | `MCP_HEADERS_TIMEOUT_MS` | `headersTimeoutMs` | 10000                       |
 * | `MCP_REQUEST_TIMEOUT_MS` | `requestTimeoutMs` | 30000                       |
 * | `MCP_IDLE_TIMEOUT_MS`    | `idleTimeoutMs`    | 5000                        |
 * | `MCP_MAX_CONNECTIONS`    | `maxConnections`   | 1000                        |
 * | `MCP_MAX_BODY_BYTES`     | `maxBodyBytes`     | 4194304                     |
 * | `MCP_SESSION_IDLE_MS`    | `sessionIdleMs`    | 600000                      |
 * | `MCP_MAX_SESSIONS`       | `maxSessions`      | 10000                       |
 * | `MCP_MAX_STREAM_BUFFER_BYTES` | `maxStreamBufferBytes` | 1048576        |
 * | `MCP_SHUTDOWN_TIMEOUT_MS` | `shutdownTimeoutMs` | 10000                     |
 * | `MCP_ACCESS_LOG`         | `accessLog`        | off (`1`, `true` or `on`)   |
 */
import { isIP } from "node:net";
import { parseHostHeader, parseOrigin } from "./guards.js";
import type { ServeHttpOptions } from "./node.js";

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

/** The options of `serveHttp` that environment variables set (see the table above); unset ones are left out. */
export function httpSettingsFromEnvironment(env: Env = process.env): ServeHttpOptions {
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
  set("headersTimeoutMs", integer(env, "MCP_HEADERS_TIMEOUT_MS", 1, 3_600_000));
  set("requestTimeoutMs", integer(env, "MCP_REQUEST_TIMEOUT_MS", 1, 3_600_000));
  set("idleTimeoutMs", integer(env, "MCP_IDLE_TIMEOUT_MS", 1, 3_600_000));
  set("maxConnections", integer(env, "MCP_MAX_CONNECTIONS", 1, 1_000_000));
  set("maxBodyBytes", integer(env, "MCP_MAX_BODY_BYTES", 1, 1 << 30));
  set("sessionIdleMs", integer(env, "MCP_SESSION_IDLE_MS", 1000, 86_400_000));
  set("maxSessions", integer(env, "MCP_MAX_SESSIONS", 1, 10_000_000));
  set("maxStreamBufferBytes", integer(env, "MCP_MAX_STREAM_BUFFER_BYTES", 1024, 1 << 30));
  set("shutdownTimeoutMs", integer(env, "MCP_SHUTDOWN_TIMEOUT_MS", 0, 3_600_000));
  set("accessLog", flag(env, "MCP_ACCESS_LOG"));
  return settings;
}

function text(env: Env, name: string): string | undefined {
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
function flag(env: Env, name: string): boolean | undefined {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (["1", "true", "on", "yes"].includes(value)) return true;
  if (["0", "false", "off", "no"].includes(value)) return false;
  throw new SettingError(
    name,
    `${name} must be 1, true or on (or 0, false, off), not ${JSON.stringify(value)}`,
  );
}

/** A host name or IP address without a port, as ALLOWED_HOSTS lists them. */
export function isHostSetting(host: string): boolean {
  if (isIP(host) === 6) return true;
  const parsed = parseHostHeader(host);
  return parsed !== undefined && parsed.port === undefined;
}

/** A comma-separated list whose items pass `valid`, or `any`. */
function list(
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
