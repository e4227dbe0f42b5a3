/**
 * Bounds on what a client can make the server keep beyond one request:
 * the filter of a listen stream (kept as long as the stream), and what a
 * 2025-era session keeps of its client (what `initialize` declared, the
 * resources it subscribed to). Each is checked when it arrives, so that a
 * hostile client is refused before anything is kept; the transports bound
 * how many streams a client holds and for how long (HttpOptions).
 *
 * | variable                      | limit                  | default |
 * | ----------------------------- | ---------------------- | ------- |
 * | `MCP_MAX_LISTEN_FILTER_BYTES` | `maxListenFilterBytes` | 65536   |
 * | `MCP_MAX_CLIENT_INFO_BYTES`   | `maxClientInfoBytes`   | 65536   |
 */
import { Codes, McpError } from "../core/errors.js";
import { jsonLengthWithin } from "../core/limits.js";

/** What one client may make the server keep (see the file's comment). */
export interface ServerLimits {
  /**
   * The most a listen request's filter may hold, as the length of its JSON
   * text (resource URIs and an extension's keys, such as task ids); also
   * the most a 2025-era session's resource subscriptions may hold together.
   */
  readonly maxListenFilterBytes: number;
  /**
   * The most a 2025-era session keeps of what its client declared in
   * `initialize`: its capabilities and clientInfo, as the length of their
   * JSON text.
   */
  readonly maxClientInfoBytes: number;
}

/** The defaults of ServerLimits: 64 KiB each, room for a thousand resource URIs. */
export const SERVER_LIMITS: ServerLimits = {
  maxListenFilterBytes: 64 * 1024,
  maxClientInfoBytes: 64 * 1024,
};

/** Each limit's environment variable. */
const VARIABLES: Readonly<Record<keyof ServerLimits, string>> = {
  maxListenFilterBytes: "MCP_MAX_LISTEN_FILTER_BYTES",
  maxClientInfoBytes: "MCP_MAX_CLIENT_INFO_BYTES",
};

/** The largest value a limit may be set to (1 GiB). */
const MOST = 1 << 30;

/**
 * The limits of the table above from `env`, over the defaults. A value
 * that is not a whole number from 1 to 1 GiB throws an error naming the
 * variable.
 */
export function serverLimitsFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServerLimits {
  const limits: Record<string, number> = { ...SERVER_LIMITS };
  for (const [limit, variable] of Object.entries(VARIABLES)) {
    const text = env[variable]?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < 1 || value > MOST)
      throw new Error(
        `${variable} must be a whole number from 1 to ${MOST}, not ${JSON.stringify(text)}`,
      );
    limits[limit] = value;
  }
  return limits as unknown as ServerLimits;
}

/**
 * -32602 when `value` (what a client asks the server to keep) is longer
 * than `limit` as JSON; `what` names it, `limit` its setting.
 */
export function keepWithin(
  value: unknown,
  limits: ServerLimits,
  limit: keyof ServerLimits,
  what: string,
): void {
  const most = limits[limit];
  if (jsonLengthWithin(value, most) <= most) return;
  throw new McpError(
    Codes.InvalidParams,
    `Invalid params: ${what} take more than ${most} bytes as JSON, the most this server keeps (${VARIABLES[limit]})`,
    { limit: most },
  );
}
