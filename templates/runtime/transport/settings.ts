/**
 * The HTTP server's settings from environment variables, so a deployment
 * changes them without editing code. Every variable is optional; a value
 * that cannot be used stops the start with an error that names the
 * variable, what it got and what it takes.
 *
 * The ones every runtime shares are read by fetchSettingsFromEnvironment
 * (fetch-settings.ts); these are the rest, for node:http.
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
 *
 * MCP_MAX_LISTEN_STREAMS (fetch-settings.ts) must stay below
 * MCP_MAX_CONNECTIONS (default: the smaller of 500 and half of it); a
 * value that does not stops the start here, before serveHttp.
 */
import { fetchSettingsFromEnvironment, flag, integer } from "./fetch-settings.js";
import { withStreamCap, type ServeHttpOptions } from "./node.js";

type Env = Readonly<Record<string, string | undefined>>;

export { integer, isHostSetting, SettingError } from "./fetch-settings.js";

/** The options of `serveHttp` that environment variables set (see the table above); unset ones are left out. */
export function httpSettingsFromEnvironment(env: Env = process.env): ServeHttpOptions {
  const settings: Record<string, unknown> = { ...fetchSettingsFromEnvironment(env) };
  const set = (option: string, value: unknown) => {
    if (value !== undefined) settings[option] = value;
  };
  set("headersTimeoutMs", integer(env, "MCP_HEADERS_TIMEOUT_MS", 1, 3_600_000));
  set("requestTimeoutMs", integer(env, "MCP_REQUEST_TIMEOUT_MS", 1, 3_600_000));
  set("idleTimeoutMs", integer(env, "MCP_IDLE_TIMEOUT_MS", 1, 3_600_000));
  set("maxConnections", integer(env, "MCP_MAX_CONNECTIONS", 1, 1_000_000));
  set("shutdownTimeoutMs", integer(env, "MCP_SHUTDOWN_TIMEOUT_MS", 0, 3_600_000));
  set("accessLog", flag(env, "MCP_ACCESS_LOG"));
  // Checked here so that a bad pair names its variables at once; the default is serveHttp's to fill in.
  withStreamCap(settings);
  return settings;
}
