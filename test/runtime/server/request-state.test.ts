/**
 * Sealed requestState (templates/runtime/server/request-state.ts): a state
 * is encrypted and authenticated (AES-256-GCM), so the client can neither
 * read nor change it; it opens only with the key that sealed it, before it
 * expires, and for the method and params digest it was issued for (spec:
 * MRTR, server requirements). Every refusal is -32602 with the reason in
 * data.detail. Short and visibly weak keys are refused, naming
 * MCP_REQUEST_STATE_KEY.
 */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  CursorCodec,
  McpError,
  paramsDigest,
  RequestStateCodec,
  RequestStateKeyError,
  serveHttp,
} from "../../../templates/runtime/index.js";
import { testServer } from "../../helpers/mcp-client.js";

/** A fixed key that looks like random bytes (a digest), so runs are repeatable. */
const KEY = createHash("sha256").update("request-state test key").digest();
const NOW = 1_800_000_000_000;
const codec = new RequestStateCodec(KEY, 60_000);
/** 20 distinct bytes, repeated to make a key that is not random. */
const PATTERN = Buffer.from(Array.from({ length: 20 }, (_, i) => i * 11 + 130));
const DIGEST = paramsDigest({ name: "book", arguments: { seats: 2 } });
const token = codec.seal("tools/call", DIGEST, { seat: { action: "accept" } }, { step: 2 }, NOW);

/** Opens `state` and returns the refusal's code and detail (or "opened"). */
function refusal(open: () => unknown): { code: number; detail: unknown } | "opened" {
  try {
    open();
    return "opened";
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    const e = error as McpError;
    expect(e.message).toBe("Invalid or expired requestState");
    return { code: e.code, detail: (e.data as { detail: unknown }).detail };
  }
}

/** `state` with one bit of byte `at` of its sealed bytes flipped (negative: from the end). */
function flipped(state: string, at: number): string {
  const bytes = Buffer.from(state.slice(3), "base64url");
  const index = at < 0 ? bytes.length + at : at;
  bytes[index]! ^= 1;
  return `v2.${bytes.toString("base64url")}`;
}

describe("request-state: seal and open", () => {
  it("opens what it sealed, with the answers and state, before the expiry", () => {
    const payload = codec.open(token, "tools/call", DIGEST, NOW + 59_999);
    expect(payload).toEqual({
      m: "tools/call",
      d: DIGEST,
      exp: NOW + 60_000,
      a: { seat: { action: "accept" } },
      s: { step: 2 },
    });
  });

  it("has the v2.<sealed bytes> form, and the client cannot read what it carries", () => {
    expect(token).toMatch(/^v2\.[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(token.slice(3), "base64url").toString("latin1");
    for (const secret of ["accept", "seat", "step", "tools/call"])
      expect(bytes).not.toContain(secret);
    // Two seals of the same content differ (a fresh IV each time).
    expect(codec.seal("tools/call", DIGEST, {}, {}, NOW)).not.toBe(
      codec.seal("tools/call", DIGEST, {}, {}, NOW),
    );
  });

  it.each([
    [
      "a changed ciphertext byte",
      () => codec.open(flipped(token, 20), "tools/call", DIGEST, NOW),
      "authentication",
    ],
    [
      "a changed IV",
      () => codec.open(flipped(token, 0), "tools/call", DIGEST, NOW),
      "authentication",
    ],
    [
      "a changed tag",
      () => codec.open(flipped(token, -1), "tools/call", DIGEST, NOW),
      "authentication",
    ],
    [
      "a state past its expiry",
      () => codec.open(token, "tools/call", DIGEST, NOW + 60_001),
      "expired",
    ],
    [
      "another method",
      () => codec.open(token, "prompts/get", DIGEST, NOW),
      "issued for another request",
    ],
    [
      "another params digest",
      () =>
        codec.open(
          token,
          "tools/call",
          paramsDigest({ name: "book", arguments: { seats: 3 } }),
          NOW,
        ),
      "issued for another request",
    ],
    [
      "another key",
      () => new RequestStateCodec(randomBytes(32), 60_000).open(token, "tools/call", DIGEST, NOW),
      "authentication",
    ],
    [
      "the earlier v1 form",
      () => codec.open(token.replace(/^v2/, "v1"), "tools/call", DIGEST, NOW),
      "malformed",
    ],
    ["too many parts", () => codec.open(`${token}.x`, "tools/call", DIGEST, NOW), "malformed"],
    [
      "too few bytes to hold a tag",
      () => codec.open("v2.AAAA", "tools/call", DIGEST, NOW),
      "malformed",
    ],
    [
      "not a sealed state at all",
      () => codec.open("hello", "tools/call", DIGEST, NOW),
      "malformed",
    ],
    ["an empty string", () => codec.open("", "tools/call", DIGEST, NOW), "malformed"],
  ])("refuses %s with -32602", (_title, open, detail) => {
    expect(refusal(open)).toEqual({ code: -32602, detail });
  });
});

describe("request-state: the key", () => {
  it.each([
    ["a key shorter than 32 bytes", randomBytes(31), /is 31 bytes long, shorter than 32/],
    ["32 equal bytes", Buffer.alloc(32, 7), /has only 1 distinct byte values/],
    [
      "a repeated pattern",
      Buffer.from("0123456789abcdef0123456789abcdef".repeat(2), "hex"),
      /distinct|repeats a pattern/,
    ],
    [
      "a repeated pattern of many distinct bytes",
      Buffer.concat([PATTERN, PATTERN]),
      /repeats a pattern of 20 bytes/,
    ],
    [
      "printable text",
      Buffer.from("correct horse battery staple, and then some more"),
      /printable text/,
    ],
  ])("refuses %s, naming MCP_REQUEST_STATE_KEY", (_title, key, message) => {
    expect(() => new RequestStateCodec(key)).toThrow(RequestStateKeyError);
    expect(() => new RequestStateCodec(key)).toThrow(message);
    expect(() => new RequestStateCodec(key)).toThrow(/^MCP_REQUEST_STATE_KEY /);
  });

  it.each([
    ["too short", randomBytes(16).toString("hex"), /shorter than 32/],
    [
      "a passphrase",
      "mysecretkeythatisdefinitelylongenoughforaes",
      /looks like a word or passphrase/,
    ],
    ["neither hex nor base64", "not a key, just words!", /is neither hex nor base64/],
    ["weak hex", "00".repeat(32), /distinct byte values/],
  ])("refuses MCP_REQUEST_STATE_KEY %s at start", (_title, value, message) => {
    expect(() => RequestStateCodec.fromEnvironment({ MCP_REQUEST_STATE_KEY: value })).toThrow(
      message,
    );
  });

  it("takes its key from MCP_REQUEST_STATE_KEY, hex or base64: states open across codecs with the same key", () => {
    const hex = RequestStateCodec.fromEnvironment({ MCP_REQUEST_STATE_KEY: KEY.toString("hex") });
    const base64 = RequestStateCodec.fromEnvironment({
      MCP_REQUEST_STATE_KEY: KEY.toString("base64"),
    });
    const url = RequestStateCodec.fromEnvironment({
      MCP_REQUEST_STATE_KEY: KEY.toString("base64url"),
    });
    const sealed = hex.seal("tools/call", DIGEST, {}, {}, NOW);
    expect(base64.open(sealed, "tools/call", DIGEST, NOW).m).toBe("tools/call");
    expect(url.open(sealed, "tools/call", DIGEST, NOW).m).toBe("tools/call");
    expect(codec.open(sealed, "tools/call", DIGEST, NOW).m).toBe("tools/call");
  });

  it("takes its lifetime from MCP_REQUEST_STATE_TTL_MS (default 10 minutes) and refuses one it cannot use", () => {
    const env = { MCP_REQUEST_STATE_KEY: KEY.toString("hex") };
    expect(RequestStateCodec.fromEnvironment(env).ttlMs).toBe(600_000);
    expect(
      RequestStateCodec.fromEnvironment({ ...env, MCP_REQUEST_STATE_TTL_MS: "5000" }).ttlMs,
    ).toBe(5000);
    for (const bad of ["soon", "-1", "10", "86400001"])
      expect(() =>
        RequestStateCodec.fromEnvironment({ ...env, MCP_REQUEST_STATE_TTL_MS: bad }),
      ).toThrow(
        /^MCP_REQUEST_STATE_TTL_MS must be a whole number of milliseconds from 1000 to 86400000/,
      );
  });

  it("without MCP_REQUEST_STATE_KEY, makes a random key per codec, and says so", () => {
    const one = RequestStateCodec.fromEnvironment({});
    const two = RequestStateCodec.fromEnvironment({});
    expect([one.randomKey, two.randomKey]).toEqual([true, true]);
    expect(
      RequestStateCodec.fromEnvironment({ MCP_REQUEST_STATE_KEY: KEY.toString("hex") }).randomKey,
    ).toBe(false);
    expect(
      refusal(() =>
        two.open(one.seal("tools/call", DIGEST, {}, {}, NOW), "tools/call", DIGEST, NOW),
      ),
    ).toEqual({ code: -32602, detail: "authentication" });
  });

  it("over HTTP the server warns at start, in one line naming MCP_REQUEST_STATE_KEY, only when a random key meets a shared store", async () => {
    const bus = { send: () => undefined, receive: () => () => undefined, close: async () => {} };
    for (const [title, options, expected] of [
      [
        "random key, shared store",
        { requestState: RequestStateCodec.fromEnvironment({}), changeBus: bus },
        1,
      ],
      ["random key, one instance", { requestState: RequestStateCodec.fromEnvironment({}) }, 0],
      [
        "key set, shared store",
        {
          requestState: new RequestStateCodec(KEY),
          changeBus: bus,
          lists: { cursors: new CursorCodec(KEY) },
        },
        0,
      ],
    ] as const) {
      const warnings: string[] = [];
      // Both keys random: the one line names MCP_REQUEST_STATE_KEY, from which the cursor key is derived.
      const server = await serveHttp(
        testServer({ lists: { cursors: CursorCodec.fromEnvironment({}) }, ...options }),
        { port: 0, warn: (m) => warnings.push(m) },
      );
      await server.close();
      expect(warnings, title).toHaveLength(expected);
      for (const warning of warnings) {
        expect(warning).toBe(
          "warning: MCP_REQUEST_STATE_KEY is not set, so multi-round requests and list cursors fail across the instances sharing this store; set the same key on each (docs/server.md#several-instances)",
        );
        expect(warning.length).toBeLessThan(200);
      }
    }
  });
});

describe("request-state: params digest", () => {
  it("ignores _meta, inputResponses and requestState, and the order of keys", () => {
    const digest = paramsDigest({ name: "book", arguments: { b: 1, a: [1, { y: 2, x: 1 }] } });
    expect(
      paramsDigest({
        arguments: { a: [1, { x: 1, y: 2 }], b: 1 },
        name: "book",
        _meta: { progressToken: 1 },
        inputResponses: { k: {} },
        requestState: "v2.x",
      }),
    ).toBe(digest);
  });

  it("differs when a salient param differs", () => {
    expect(paramsDigest({ name: "book", arguments: { seats: 2 } })).not.toBe(
      paramsDigest({ name: "book", arguments: { seats: "2" } }),
    );
    expect(paramsDigest({ name: "book" })).not.toBe(paramsDigest({ name: "books" }));
  });

  it("canonical JSON sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: [2, 1], a: { d: null, c: "x" } })).toBe(
      '{"a":{"c":"x","d":null},"b":[2,1]}',
    );
    expect(canonicalJson(undefined)).toBe("null");
  });
});
