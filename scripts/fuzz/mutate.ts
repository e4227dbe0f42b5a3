/**
 * Seeded mutations for `npm run fuzz:server`: a small PRNG (the same seed
 * gives the same messages, so a finding can be replayed) and mutators that
 * break one thing or a few at a time in a message's JSON, its bytes and,
 * for HTTP, its headers and framing.
 */

/** mulberry32: tiny, fast and good enough to pick mutations. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values chosen to hit type checks, number edge cases, unicode and size limits. */
function oddValue(random: Random): Json {
  const depth = 1 + random.below(300);
  const choices: Array<() => Json> = [
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -0,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => "",
    () => "x".repeat(1 + random.below(70_000)),
    () => "\u0000\u2028\u2029\ud800",
    () => "../../etc/passwd",
    () => "%2F..%2F%",
    () => "${process.exit(1)}",
    () => [],
    () => [1, "a", null],
    () => ({}),
    () => JSON.parse(`{"__proto__": {"polluted": true}, "constructor": 1}`) as Json,
    () => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as Json,
    () => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`) as Json,
  ];
  return random.pick(choices)();
}

/** Every [container, key] in a JSON value, the value itself excluded. */
function slots(value: Json, out: Array<[Json[] | Record<string, Json>, string | number]> = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([value, i]);
      slots(item, out);
    });
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      out.push([value, key]);
      slots(value[key]!, out);
    }
  }
  return out;
}

/** One JSON-level mutation: replace, delete or add a value somewhere, or change id, method or jsonrpc. */
export function mutateJson(message: Json, random: Random, methods: readonly string[]): Json {
  const copy = structuredClone(message);
  if (copy === null || typeof copy !== "object" || Array.isArray(copy)) return oddValue(random);
  const all = slots(copy);
  switch (random.below(7)) {
    case 0:
      copy.id = random.pick<Json>([1.5, -1, 0, 2 ** 53, "x", "", null, true, [], {}, 1e308]);
      return copy;
    case 1:
      copy.method = random.chance(0.5) ? random.pick(methods) : oddValue(random);
      return copy;
    case 2:
      copy.jsonrpc = random.pick<Json>(["1.0", "2", 2, null]);
      return copy;
    case 3: {
      if (all.length === 0) return copy;
      const [container, key] = random.pick(all);
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key as string];
      return copy;
    }
    case 4: {
      const objects = all
        .map(([container, key]) => (container as Record<string, Json>)[key as never])
        .filter(
          (v): v is Record<string, Json> => !!v && typeof v === "object" && !Array.isArray(v),
        );
      const target = objects.length > 0 ? random.pick(objects) : copy;
      target[random.pick(["__proto__", "constructor", "toString", "extra", "_meta", "cursor"])] =
        oddValue(random);
      return copy;
    }
    default: {
      if (all.length === 0) return copy;
      const [container, key] = random.pick(all);
      (container as Record<string, Json>)[key as never] = oddValue(random);
      return copy;
    }
  }
}

/** One byte-level mutation of a message's text: truncate, flip, insert or cut. */
export function mutateBytes(text: Buffer, random: Random): Buffer {
  if (text.length === 0) return Buffer.from([random.below(256)]);
  const at = random.below(text.length);
  switch (random.below(4)) {
    case 0:
      return text.subarray(0, at);
    case 1: {
      const copy = Buffer.from(text);
      copy[at] = random.below(256);
      return copy;
    }
    case 2: {
      const inserted = random.pick([
        Buffer.from([0xff, 0xfe]),
        Buffer.from([0xc3]),
        Buffer.from('"'),
        Buffer.from("\\u"),
        Buffer.from("}]"),
        Buffer.from("\r\n"),
      ]);
      return Buffer.concat([text.subarray(0, at), inserted, text.subarray(at)]);
    }
    default:
      return Buffer.concat([text.subarray(0, at), text.subarray(at + 1 + random.below(16))]);
  }
}

/** Header values chosen to break parsing: empty, huge, unicode, the base64 form broken, a foreign host. */
export function oddHeaderValue(random: Random): string {
  return random.pick([
    "",
    " ",
    "x".repeat(8 * 1024),
    "=?base64?AAAA?=",
    "=?base64?!!!?=",
    "=?base64?",
    "evil.example",
    "localhost:evil.example",
    "[::1].evil.example",
    "http://evil.example@localhost",
    "tools/call, tools/list",
    "2026-07-28, 2025-11-25",
    "1999-01-01",
    "caf\u00e9",
    "a\tb",
  ]);
}
