/**
 * Sealed `requestState` for Multi Round-Trip Requests. The state goes to
 * the client and comes back as attacker-controlled input, so it is sealed
 * with authenticated encryption (AES-256-GCM): the client can neither read
 * the answers and handler state it carries nor change them. It is bound to
 * the request it belongs to (the method and a digest of the salient
 * params) and expires (spec: MRTR, server requirements).
 *
 * Format: `v2.<base64url(iv 12 bytes | ciphertext | tag 16 bytes)>`. The
 * codec keeps nothing between calls: any instance with the same key opens
 * what another sealed.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
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

/** The environment variable with the key (hex or base64, 32 bytes or more). */
export const KEY_VARIABLE = "MCP_REQUEST_STATE_KEY";
/** The environment variable with the lifetime of a sealed state, in milliseconds. */
export const TTL_VARIABLE = "MCP_REQUEST_STATE_TTL_MS";
/** How long a sealed state stays valid unless told otherwise (10 minutes). */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;

const PREFIX = "v2";
const AAD = Buffer.from("mcp-gen requestState v2");
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HOW_TO_MAKE_A_KEY =
  "make one with `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"`";

/**
 * What a server whose key was made at random tells at start when it shares a
 * store with other instances (docs/server.md, "Several instances", says more).
 */
export const RANDOM_KEY_WARNING = `warning: ${KEY_VARIABLE} is not set, so multi-round requests and list cursors fail across the instances sharing this store; set the same key on each (docs/server.md#several-instances)`;

/** A key that cannot be used, and why; its message names MCP_REQUEST_STATE_KEY. */
export class RequestStateKeyError extends Error {
  constructor(reason: string) {
    super(
      `${KEY_VARIABLE} ${reason}; it must be 32 or more random bytes, written as hex or base64 (${HOW_TO_MAKE_A_KEY})`,
    );
    this.name = "RequestStateKeyError";
  }
}

/** Seals and opens request states with one key. */
export class RequestStateCodec {
  private readonly key: Buffer;

  /**
   * @param key 32 or more random bytes; a shorter or visibly weak key throws RequestStateKeyError.
   *   States sealed with another key do not open.
   * @param ttlMs how long a state stays valid.
   */
  constructor(
    key: Uint8Array,
    readonly ttlMs: number = DEFAULT_REQUEST_STATE_TTL_MS,
  ) {
    const weakness = keyWeakness(Buffer.from(key));
    if (weakness !== undefined) throw new RequestStateKeyError(weakness);
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1)
      throw new Error(
        `${TTL_VARIABLE} must be a whole number of milliseconds of 1 or more, not ${ttlMs}`,
      );
    // The AES key is derived, so a key of any length (and one shared with nothing else) gives 32 bytes.
    this.key = Buffer.from(
      hkdfSync("sha256", key, Buffer.alloc(0), "mcp-gen requestState aes-256-gcm", 32),
    );
  }

  /** Whether the key was made at random for this process (no MCP_REQUEST_STATE_KEY): states open only here, until a restart. */
  randomKey = false;

  /**
   * A codec with the key of MCP_REQUEST_STATE_KEY (hex or base64) and the
   * lifetime of MCP_REQUEST_STATE_TTL_MS (default 10 minutes). Without a
   * key, one is made at random for this process (`randomKey`;
   * `randomKeyWarning` says what that means).
   */
  static fromEnvironment(
    env: Readonly<Record<string, string | undefined>> = process.env,
  ): RequestStateCodec {
    const ttl = env[TTL_VARIABLE]?.trim();
    let ttlMs = DEFAULT_REQUEST_STATE_TTL_MS;
    if (ttl) {
      ttlMs = Number(ttl);
      if (!/^\d+$/.test(ttl) || ttlMs < 1000 || ttlMs > 86_400_000)
        throw new Error(
          `${TTL_VARIABLE} must be a whole number of milliseconds from 1000 to 86400000 (a day), not ${JSON.stringify(ttl)}`,
        );
    }
    const configured = env[KEY_VARIABLE]?.trim();
    if (configured) return new RequestStateCodec(decodeKey(configured), ttlMs);
    const codec = new RequestStateCodec(randomBytes(32), ttlMs);
    codec.randomKey = true;
    return codec;
  }

  /** Seals the answers and state of a round of `method` with params digest `digest`. */
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
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv).setAAD(AAD);
    const sealed = Buffer.concat([
      iv,
      cipher.update(JSON.stringify(payload), "utf8"),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${PREFIX}.${sealed.toString("base64url")}`;
  }

  /** Opens a state, or throws -32602 when it is malformed, tampered with, sealed with another key, expired, or for another request. */
  open(token: string, method: string, digest: string, now = Date.now()): RequestStatePayload {
    const reject = (reason: string) =>
      new McpError(Codes.InvalidParams, "Invalid or expired requestState", {
        reason: "invalid_request_state",
        detail: reason,
      });
    const [prefix, body, extra] = token.split(".");
    if (prefix !== PREFIX || !body || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(body))
      throw reject("malformed");
    const sealed = Buffer.from(body, "base64url");
    if (sealed.length < IV_BYTES + TAG_BYTES) throw reject("malformed");
    let text: string;
    try {
      const decipher = createDecipheriv(
        "aes-256-gcm",
        this.key,
        sealed.subarray(0, IV_BYTES),
      ).setAAD(AAD);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      text = Buffer.concat([
        decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw reject("authentication");
    }
    const payload = JSON.parse(text) as RequestStatePayload;
    if (payload.exp < now) throw reject("expired");
    if (payload.m !== method || payload.d !== digest) throw reject("issued for another request");
    return payload;
  }
}

/** The bytes of a key written as hex or base64 (standard or URL-safe); anything else throws. */
export function decodeKey(text: string): Buffer {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    if (!/[a-z]/.test(text) || !/[A-Z]/.test(text))
      throw new RequestStateKeyError(
        "looks like a word or passphrase, not base64 of random bytes (it has letters of one case only)",
      );
    return Buffer.from(text, "base64");
  }
  throw new RequestStateKeyError("is neither hex nor base64");
}

/**
 * Why a key is unfit, or undefined: shorter than 32 bytes, or visibly not
 * random (few distinct bytes, a repeated pattern, printable text). 32
 * random bytes fail these checks with a probability far below 1e-9.
 */
export function keyWeakness(key: Buffer): string | undefined {
  if (key.length < 32) return `is ${key.length} bytes long, shorter than 32`;
  const distinct = new Set(key).size;
  if (distinct < 16) return `has only ${distinct} distinct byte values in ${key.length}`;
  for (let period = 1; period <= key.length / 2; period++)
    if (key.subarray(period).equals(key.subarray(0, key.length - period)))
      return `repeats a pattern of ${period} bytes`;
  if (key.every((byte) => byte >= 0x20 && byte < 0x7f))
    return "is printable text, not random bytes (write random bytes as hex or base64)";
  return undefined;
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
