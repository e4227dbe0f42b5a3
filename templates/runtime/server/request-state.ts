/**
 * Sealed `requestState` for Multi Round-Trip Requests. The state is
 * attacker-controlled input when it comes back, so it is protected with an
 * HMAC (SHA-256) and bound to the request it belongs to: the method, a
 * digest of the salient params, and an expiry (spec: MRTR, server
 * requirements). Format: `v1.<base64url payload>.<base64url mac>`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Codes, McpError } from "../core/errors.js";

/** What a sealed state carries. */
export interface RequestStatePayload {
  /** The method it was issued for. */
  readonly m: string;
  /** Digest of the params it was issued for (without _meta, inputResponses, requestState). */
  readonly d: string;
  /** Expiry, milliseconds since the epoch. */
  readonly exp: number;
  /** Input responses gathered in earlier rounds, by input request key. */
  readonly a: Readonly<Record<string, unknown>>;
  /** State the handler chose to keep across rounds. */
  readonly s: Readonly<Record<string, unknown>>;
}

const PREFIX = "v1";

/** Seals and opens request states with one key. */
export class RequestStateCodec {
  private readonly key: Buffer;

  /**
   * @param key the HMAC key (at least 32 bytes); states sealed with another key do not open.
   * @param ttlMs how long a state stays valid.
   */
  constructor(
    key: Uint8Array,
    readonly ttlMs: number,
  ) {
    if (key.length < 32) throw new Error("requestState key must be at least 32 bytes");
    this.key = Buffer.from(key);
  }

  /** A codec with a key from MCP_REQUEST_STATE_KEY (hex or base64), or a random one for this process. */
  static fromEnvironment(
    ttlMs = 10 * 60_000,
    env: NodeJS.ProcessEnv = process.env,
  ): RequestStateCodec {
    const configured = env.MCP_REQUEST_STATE_KEY;
    const key = configured
      ? /^[0-9a-f]+$/i.test(configured)
        ? Buffer.from(configured, "hex")
        : Buffer.from(configured, "base64")
      : randomBytes(32);
    return new RequestStateCodec(key, ttlMs);
  }

  /** Seals a payload for `method` and `paramsDigest`. */
  seal(
    method: string,
    digest: string,
    answers: Record<string, unknown>,
    state: Record<string, unknown>,
    now = Date.now(),
  ): string {
    const payload: RequestStatePayload = {
      m: method,
      d: digest,
      exp: now + this.ttlMs,
      a: answers,
      s: state,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${PREFIX}.${body}.${this.mac(body)}`;
  }

  /** Opens a state, or throws -32602 when it is malformed, tampered with, expired, or for another request. */
  open(token: string, method: string, digest: string, now = Date.now()): RequestStatePayload {
    const reject = (reason: string) =>
      new McpError(Codes.InvalidParams, "Invalid or expired requestState", {
        reason: "invalid_request_state",
        detail: reason,
      });
    const [prefix, body, mac, extra] = token.split(".");
    if (prefix !== PREFIX || !body || !mac || extra !== undefined) throw reject("malformed");
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw reject("signature");
    let payload: RequestStatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as RequestStatePayload;
    } catch {
      throw reject("malformed");
    }
    if (payload.exp < now) throw reject("expired");
    if (payload.m !== method || payload.d !== digest) throw reject("issued for another request");
    return payload;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

/** Digest of a request's salient params: everything but `_meta`, `inputResponses` and `requestState`, keys sorted. */
export function paramsDigest(params: Readonly<Record<string, unknown>> | undefined): string {
  const { _meta: _m, inputResponses: _i, requestState: _r, ...salient } = params ?? {};
  return createHash("sha256").update(canonicalJson(salient)).digest("base64url");
}

/** JSON with object keys sorted, so equal values digest equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
