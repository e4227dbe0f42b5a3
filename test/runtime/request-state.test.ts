/**
 * Sealed requestState (templates/runtime/server/request-state.ts): a state opens
 * only with the key that sealed it, unchanged, before it expires, and for
 * the method and params digest it was issued for (spec: MRTR, server
 * requirements). Every refusal is -32602 with the reason in data.detail.
 */
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  McpError,
  paramsDigest,
  RequestStateCodec,
} from "../../templates/runtime/index.js";

const KEY = Buffer.alloc(32, 7);
const NOW = 1_800_000_000_000;
const codec = new RequestStateCodec(KEY, 60_000);
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

/** `token` with one character of its payload changed (and still valid base64url). */
function tampered(state: string): string {
  const [prefix, body, mac] = state.split(".") as [string, string, string];
  const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<
    string,
    unknown
  >;
  payload.a = { seat: { action: "decline" } };
  return `${prefix}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
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

  it("has the v1.<payload>.<mac> form", () => {
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    [
      "a changed payload (the MAC no longer matches)",
      () => codec.open(tampered(token), "tools/call", DIGEST, NOW),
      "signature",
    ],
    [
      "a changed MAC",
      () =>
        codec.open(
          `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`,
          "tools/call",
          DIGEST,
          NOW,
        ),
      "signature",
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
      () =>
        new RequestStateCodec(Buffer.alloc(32, 8), 60_000).open(token, "tools/call", DIGEST, NOW),
      "signature",
    ],
    [
      "another version prefix",
      () => codec.open(token.replace(/^v1/, "v2"), "tools/call", DIGEST, NOW),
      "malformed",
    ],
    ["too many parts", () => codec.open(`${token}.x`, "tools/call", DIGEST, NOW), "malformed"],
    [
      "not a sealed state at all",
      () => codec.open("hello", "tools/call", DIGEST, NOW),
      "malformed",
    ],
    ["an empty string", () => codec.open("", "tools/call", DIGEST, NOW), "malformed"],
  ])("refuses %s with -32602", (_title, open, detail) => {
    expect(refusal(open)).toEqual({ code: -32602, detail });
  });

  it("refuses a key shorter than 32 bytes", () => {
    expect(() => new RequestStateCodec(Buffer.alloc(31), 1000)).toThrow(
      "requestState key must be at least 32 bytes",
    );
  });

  it("takes its key from MCP_REQUEST_STATE_KEY, hex or base64: states open across codecs with the same key", () => {
    const hex = RequestStateCodec.fromEnvironment(60_000, {
      MCP_REQUEST_STATE_KEY: KEY.toString("hex"),
    });
    const base64 = RequestStateCodec.fromEnvironment(60_000, {
      MCP_REQUEST_STATE_KEY: KEY.toString("base64"),
    });
    const sealed = hex.seal("tools/call", DIGEST, {}, {}, NOW);
    expect(base64.open(sealed, "tools/call", DIGEST, NOW).m).toBe("tools/call");
    expect(codec.open(sealed, "tools/call", DIGEST, NOW).m).toBe("tools/call");
  });

  it("without MCP_REQUEST_STATE_KEY, each codec has a random key of its own", () => {
    const one = RequestStateCodec.fromEnvironment(60_000, {});
    const two = RequestStateCodec.fromEnvironment(60_000, {});
    expect(
      refusal(() =>
        two.open(one.seal("tools/call", DIGEST, {}, {}, NOW), "tools/call", DIGEST, NOW),
      ),
    ).toEqual({ code: -32602, detail: "signature" });
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
        requestState: "v1.x.y",
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
