/**
 * Sealed pagination cursors (spec: pagination). A cursor goes to the
 * client and comes back as input the client controls, so it is signed
 * (HMAC-SHA256): a client can neither forge one nor move it to another
 * offset, another list, or another list method. It names the list it was
 * issued from by a digest of its items' keys, so it stays valid while the
 * list keeps the same items in the same order, on any instance that holds
 * the same key, and is refused once the list changed.
 *
 * Format: `c1.<base64url(JSON payload)>.<base64url(HMAC)>`. The codec
 * keeps nothing between calls.
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { invalidParams, type McpError } from "../core/errors.js";
import {
  decodeKey,
  keyWeakness,
  KEY_VARIABLE as REQUEST_STATE_KEY_VARIABLE,
} from "./request-state.js";

/** The environment variable with the cursor key (hex or base64, 32 bytes or more). */
export const CURSOR_KEY_VARIABLE = "MCP_CURSOR_KEY";

/** The longest cursor a server reads; a longer one is refused before any work. */
export const MAX_CURSOR_LENGTH = 512;

const PREFIX = "c1";
const MAC_BYTES = 32;
const HOW_TO_MAKE_A_KEY =
  "make one with `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"`";

/** What a server whose cursor key alone was made at random tells at start when it shares a store with other instances. */
export const RANDOM_CURSOR_KEY_WARNING = `warning: ${CURSOR_KEY_VARIABLE} is not set, so list cursors fail across the instances sharing this store; set the same key on each (docs/server.md#several-instances)`;

/** Where a cursor points: the list method, the offset of the next page, and the list it was issued from. */
export interface CursorPosition {
  readonly method: string;
  readonly offset: number;
  /** {@link listDigest} of the list the cursor was issued from. */
  readonly list: string;
}

/** Signs and checks list cursors with one key. */
export class CursorCodec {
  private readonly key: Buffer;
  /** Whether the key was made at random for this process: cursors work only here, until a restart. */
  randomKey = false;

  /** @param secret 32 or more random bytes; every instance that should accept a cursor needs the same. */
  constructor(secret: Uint8Array) {
    const weakness = keyWeakness(Buffer.from(secret));
    if (weakness !== undefined)
      throw new Error(
        `${CURSOR_KEY_VARIABLE} ${weakness}; it must be 32 or more random bytes, written as hex or base64 (${HOW_TO_MAKE_A_KEY})`,
      );
    // Derived, so the same secret can serve requestState too without either opening the other's tokens.
    this.key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "mcp-gen cursor v1", 32));
  }

  /**
   * The codec of MCP_CURSOR_KEY; without it, one derived from
   * MCP_REQUEST_STATE_KEY (the secret instances already share); without
   * either, a key made at random for this process (`randomKey`).
   */
  static fromEnvironment(
    env: Readonly<Record<string, string | undefined>> = process.env,
  ): CursorCodec {
    for (const variable of [CURSOR_KEY_VARIABLE, REQUEST_STATE_KEY_VARIABLE]) {
      const configured = env[variable]?.trim();
      if (configured) return new CursorCodec(secretOf(variable, configured));
    }
    const codec = new CursorCodec(randomBytes(32));
    codec.randomKey = true;
    return codec;
  }

  /** A cursor for the page of `method` that starts at `offset` of the list whose digest is `list`. */
  seal(position: CursorPosition): string {
    const body = Buffer.from(
      JSON.stringify({ m: position.method, o: position.offset, l: position.list }),
    ).toString("base64url");
    return `${PREFIX}.${body}.${this.mac(body).toString("base64url")}`;
  }

  /**
   * Where a cursor of `method` points in the list whose digest is now
   * `list`; -32602 when it is malformed, signed with another key, edited,
   * issued for another method, or issued from a list that has changed since.
   */
  open(cursor: unknown, method: string, list: string): number {
    const refuse = (reason: string, message = "Invalid cursor"): McpError =>
      invalidParams(message, { reason });
    if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) throw refuse("malformed");
    const [prefix, body, mac, extra] = cursor.split(".");
    if (prefix !== PREFIX || !body || !mac || extra !== undefined) throw refuse("malformed");
    if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(mac)) throw refuse("malformed");
    const given = Buffer.from(mac, "base64url");
    if (given.length !== MAC_BYTES || !timingSafeEqual(given, this.mac(body)))
      throw refuse("not_signed_here");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      m?: unknown;
      o?: unknown;
      l?: unknown;
    };
    if (payload.m !== method) throw refuse("other_method");
    if (!Number.isSafeInteger(payload.o) || (payload.o as number) < 1) throw refuse("malformed");
    if (payload.l !== list)
      throw refuse(
        "list_changed",
        "Invalid cursor: the list changed since this cursor was issued; list again from the start",
      );
    return payload.o as number;
  }

  private mac(body: string): Buffer {
    return createHmac("sha256", this.key).update(`${PREFIX}.${body}`).digest();
  }
}

/** The bytes of a key variable's value; a refusal names the variable it came from. */
function secretOf(variable: string, text: string): Buffer {
  try {
    return decodeKey(text);
  } catch (error) {
    throw new Error((error as Error).message.replace(REQUEST_STATE_KEY_VARIABLE, variable), {
      cause: error,
    });
  }
}

/** A short digest of a list's item keys in order: equal on every instance that lists the same items. */
export function listDigest(keys: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(keys)).digest("base64url").slice(0, 22);
}
