/**
 * The DPoP replay cache of a server scaled out (RFC 9449 11.1): the
 * identifier of every proof accepted, kept in Redis (`<prefix>dpop:<id>`)
 * by every instance, so a proof replayed to another instance is refused
 * too. One `SET NX PX` per proof: atomic, so of two instances that get the
 * same proof at once exactly one accepts it; each key expires when its
 * proof could no longer be accepted anyway.
 *
 * It is the auth/ layer's ReplayCache by shape (scale/ is in every server,
 * auth/ only in those with authorization, so neither imports the other).
 * Every call has the store's deadline; a Redis that is down or silent
 * fails the call, which the auth/ layer answers with 503.
 */
import { RedisLink, type RedisOptions } from "./redis-link.js";

/** Proof identifiers in Redis, shared by every instance that uses it. */
export class RedisReplayCache {
  private readonly link: RedisLink;

  constructor(options: RedisOptions) {
    this.link = new RedisLink(options);
  }

  /** True when `id` was new (now recorded until `expiresAtMs`), false when another proof already had it. */
  claim(id: string, expiresAtMs: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(expiresAtMs - Date.now()));
    return this.link.run("checking a DPoP proof for replay", async (client) => {
      const answer = await client.set(`${this.link.prefix}dpop:${id}`, "1", {
        condition: "NX",
        expiration: { type: "PX", value: ms },
      });
      return answer === "OK";
    });
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}

/**
 * The replay cache `MCP_AUTH_REPLAY_STORE` asks for: unset follows
 * `MCP_TASK_STORE` (a server whose tasks are shared shares its proofs),
 * `memory` keeps them in each instance (undefined: the auth/ layer's own),
 * a `redis://` or `rediss://` URL shares them through that Redis.
 * `MCP_TASK_STORE_TIMEOUT_MS` is the deadline of each call.
 */
export function replayCacheFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  onError?: (error: unknown, where: string) => void,
): RedisReplayCache | undefined {
  const own = env.MCP_AUTH_REPLAY_STORE?.trim();
  const name = own === undefined || own === "" ? "MCP_TASK_STORE" : "MCP_AUTH_REPLAY_STORE";
  const value = env[name]?.trim();
  if (value === undefined || value === "" || value === "memory") return undefined;
  if (!URL.canParse(value) || !/^rediss?:$/.test(new URL(value).protocol))
    throw new Error(
      `${name}=${value}: expected "memory" or a Redis URL such as redis://127.0.0.1:6379/0`,
    );
  const timeout = env.MCP_TASK_STORE_TIMEOUT_MS?.trim();
  const commandTimeoutMs = timeout ? Number(timeout) : undefined;
  if (
    commandTimeoutMs !== undefined &&
    !(Number.isSafeInteger(commandTimeoutMs) && commandTimeoutMs >= 100)
  )
    throw new Error(
      `MCP_TASK_STORE_TIMEOUT_MS=${timeout}: expected a whole number of milliseconds, at least 100`,
    );
  return new RedisReplayCache({
    url: value,
    ...(onError ? { onError } : {}),
    ...(commandTimeoutMs !== undefined ? { commandTimeoutMs } : {}),
  });
}
