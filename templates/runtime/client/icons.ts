/**
 * Icons, fetched and checked before a user interface shows them (spec:
 * basic, icons, security considerations). Icon metadata and bytes come
 * from the server and are untrusted:
 *
 * - only `https:` (from the server's own origin) and `data:` sources; any
 *   other scheme (javascript:, file:, http:, ftp:, ws:, an app's own) is
 *   refused, and so is a redirect to another origin or scheme;
 * - fetched without credentials: no cookies, no Authorization;
 * - bounded: bytes, width and height, animation frames, redirects, time;
 * - the type is sniffed from the bytes against a strict allowlist (PNG,
 *   JPEG, WebP; SVG only when the caller opts in, and then marked
 *   untrusted, since it may hold scripts), and a declared type (the icon's
 *   `mimeType`, the reply's Content-Type, a data: URI's) that says
 *   otherwise is refused.
 *
 * The fetch is injectable (any Fetch implementation: a custom TLS setup, a
 * proxy, a test's); by default it is the global one.
 */

/** The image types an icon may have. */
export type IconType = "image/png" | "image/jpeg" | "image/webp" | "image/svg+xml";

/** An icon that passed every check. */
export interface CheckedIcon {
  readonly type: IconType;
  readonly bytes: Uint8Array;
  /** Pixels (absent for SVG, which scales). */
  readonly width?: number;
  readonly height?: number;
  /** Frames of an animation (1 for a still image). */
  readonly frames: number;
  /**
   * True for SVG: it may hold scripts and references. Show it only as an
   * image (an `<img>` or a rasterized copy), never inline in a page.
   */
  readonly untrusted: boolean;
}

/** Why an icon was refused. */
export type IconProblem =
  | "scheme"
  | "origin"
  | "redirect"
  | "status"
  | "size"
  | "dimensions"
  | "frames"
  | "type"
  | "mismatch"
  /** Not fetched (network failure, timeout) or not decodable. */
  | "unreadable";

/** An icon that must not be shown, and why. */
export class IconRefused extends Error {
  constructor(
    readonly problem: IconProblem,
    message: string,
  ) {
    super(`icon refused (${problem}): ${message}`);
    this.name = "IconRefused";
  }
}

/** How icons are fetched and what they may be. */
export interface IconOptions {
  /** The URL of the server (its MCP endpoint): an https icon must have its origin. */
  readonly serverUrl: string | URL;
  /** The Fetch implementation (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** The most bytes an icon may have (default 256 KiB). */
  readonly maxBytes?: number;
  /** The widest and tallest an icon may be, in pixels (default 1024). */
  readonly maxDimension?: number;
  /** The most frames an animated icon may have (default 1: still images only). */
  readonly maxFrames?: number;
  /** Accept SVG (marked untrusted). Default false. */
  readonly allowSvg?: boolean;
  /** The most redirects followed, each within the server's origin (default 3). */
  readonly maxRedirects?: number;
  /** How long the fetch may take (default 10 s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** An icon as the protocol describes it. */
export interface IconSource {
  readonly src: string;
  readonly mimeType?: string;
}

const DEFAULTS = {
  maxBytes: 256 * 1024,
  maxDimension: 1024,
  maxFrames: 1,
  maxRedirects: 3,
  timeoutMs: 10_000,
};
/** Types that say nothing about the bytes, so that they cannot mismatch. */
const GENERIC_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream"]);

/** Fetches an icon and checks it; rejects with IconRefused naming the first problem. */
export async function fetchIcon(icon: IconSource, options: IconOptions): Promise<CheckedIcon> {
  let url: URL;
  try {
    url = new URL(icon.src);
  } catch {
    throw new IconRefused("scheme", `${JSON.stringify(icon.src.slice(0, 100))} is not a URL`);
  }
  if (url.protocol === "data:") {
    const { type, bytes } = decodeDataUrl(icon.src);
    if (bytes.length > (options.maxBytes ?? DEFAULTS.maxBytes))
      throw new IconRefused(
        "size",
        `the data: URI holds ${bytes.length} bytes, more than ${options.maxBytes ?? DEFAULTS.maxBytes}`,
      );
    return checkIcon(bytes, [icon.mimeType, type], options);
  }
  if (url.protocol !== "https:")
    throw new IconRefused(
      "scheme",
      `${url.protocol} icons are not fetched; only https: (from the server's origin) and data:`,
    );
  const origin = new URL(options.serverUrl).origin;
  if (url.origin !== origin)
    throw new IconRefused("origin", `${url.origin} is not the server's origin ${origin}`);
  const signal = AbortSignal.any([
    AbortSignal.timeout(options.timeoutMs ?? DEFAULTS.timeoutMs),
    ...(options.signal ? [options.signal] : []),
  ]);
  let bytes: Uint8Array;
  let response: Response;
  try {
    response = await fetchWithinOrigin(url, origin, options, signal);
    bytes = await readBounded(response, options.maxBytes ?? DEFAULTS.maxBytes);
  } catch (error) {
    if (error instanceof IconRefused) throw error;
    throw new IconRefused("unreadable", `it could not be fetched: ${(error as Error).message}`);
  }
  return checkIcon(
    bytes,
    [icon.mimeType, response.headers.get("content-type") ?? undefined],
    options,
  );
}

/** Follows redirects by hand, each one to https on the same origin, and returns the final 200 reply. */
async function fetchWithinOrigin(
  start: URL,
  origin: string,
  options: IconOptions,
  signal: AbortSignal,
): Promise<Response> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await fetchImpl(url, {
      method: "GET",
      redirect: "manual",
      credentials: "omit",
      referrerPolicy: "no-referrer",
      headers: {
        accept: `image/png, image/jpeg, image/webp${options.allowSvg ? ", image/svg+xml" : ""}`,
      },
      signal,
    });
    if (response.status >= 300 && response.status < 400) {
      void response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      if (location === null)
        throw new IconRefused("redirect", `a ${response.status} without a Location`);
      if (hop >= (options.maxRedirects ?? DEFAULTS.maxRedirects))
        throw new IconRefused(
          "redirect",
          `more than ${options.maxRedirects ?? DEFAULTS.maxRedirects} redirects`,
        );
      const next = new URL(location, url);
      if (next.protocol !== "https:" || next.origin !== origin)
        throw new IconRefused(
          "redirect",
          `a redirect to ${next.origin === "null" ? next.protocol : next.origin} leaves the server's origin ${origin}`,
        );
      url = next;
      continue;
    }
    if (response.status !== 200) {
      void response.body?.cancel().catch(() => {});
      throw new IconRefused("status", `the server answered ${response.status}`);
    }
    return response;
  }
}

/** The body, refused as soon as it passes `maxBytes` (Content-Length is checked first). */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    void response.body?.cancel().catch(() => {});
    throw new IconRefused("size", `the icon has ${declared} bytes, more than ${maxBytes}`);
  }
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new IconRefused("size", `the icon has more than ${maxBytes} bytes`);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A data: URI's media type and bytes. */
function decodeDataUrl(src: string): { type: string; bytes: Uint8Array } {
  const comma = src.indexOf(",");
  if (comma < 0) throw new IconRefused("unreadable", "the data: URI has no comma");
  const header = src.slice(5, comma).split(";");
  const base64 = header.at(-1)?.toLowerCase() === "base64";
  const type = (header[0] ?? "").trim().toLowerCase();
  const payload = src.slice(comma + 1);
  try {
    if (base64)
      return {
        type,
        bytes: Uint8Array.from(atob(decodeURIComponent(payload)), (c) => c.charCodeAt(0)),
      };
    return { type, bytes: percentDecode(payload) };
  } catch {
    throw new IconRefused("unreadable", "the data: URI's data cannot be decoded");
  }
}

function percentDecode(text: string): Uint8Array {
  const out: number[] = [];
  const raw = new TextEncoder().encode(text);
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x25 && i + 2 < raw.length) {
      const byte = Number.parseInt(String.fromCharCode(raw[i + 1]!, raw[i + 2]!), 16);
      if (Number.isNaN(byte)) throw new Error("bad escape");
      out.push(byte);
      i += 2;
    } else out.push(raw[i]!);
  }
  return Uint8Array.from(out);
}

/** Sniffs the bytes, checks them against the declared types and the limits. */
export function checkIcon(
  bytes: Uint8Array,
  declared: ReadonlyArray<string | undefined>,
  options: Pick<IconOptions, "maxDimension" | "maxFrames" | "allowSvg" | "maxBytes"> = {},
): CheckedIcon {
  if (bytes.length > (options.maxBytes ?? DEFAULTS.maxBytes))
    throw new IconRefused(
      "size",
      `the icon has ${bytes.length} bytes, more than ${options.maxBytes ?? DEFAULTS.maxBytes}`,
    );
  const sniffed = sniff(bytes);
  if (!sniffed) throw new IconRefused("type", "the bytes are not a PNG, JPEG, WebP or SVG image");
  if (sniffed.type === "image/svg+xml" && !options.allowSvg)
    throw new IconRefused("type", "the icon is SVG, which is accepted only when allowSvg is set");
  for (const type of declared) {
    const named = normalType(type);
    if (!GENERIC_TYPES.has(named) && named !== sniffed.type)
      throw new IconRefused("mismatch", `declared as ${type}, but the bytes are ${sniffed.type}`);
  }
  const maxDimension = options.maxDimension ?? DEFAULTS.maxDimension;
  if (
    sniffed.width !== undefined &&
    (sniffed.width > maxDimension || sniffed.height! > maxDimension)
  )
    throw new IconRefused(
      "dimensions",
      `${sniffed.width}x${sniffed.height} is larger than ${maxDimension}x${maxDimension}`,
    );
  if (sniffed.width === 0 || sniffed.height === 0)
    throw new IconRefused("dimensions", "the image has no pixels");
  const maxFrames = options.maxFrames ?? DEFAULTS.maxFrames;
  if (sniffed.frames > maxFrames)
    throw new IconRefused("frames", `${sniffed.frames} frames, more than ${maxFrames}`);
  return { ...sniffed, bytes, untrusted: sniffed.type === "image/svg+xml" };
}

function normalType(type: string | undefined): string {
  const named = (type ?? "").split(";")[0]!.trim().toLowerCase();
  return named === "image/jpg" || named === "image/pjpeg" ? "image/jpeg" : named;
}

interface Sniffed {
  readonly type: IconType;
  readonly width?: number;
  readonly height?: number;
  readonly frames: number;
}

/** The image type of the bytes and, for raster images, their size and frame count; undefined when unknown or corrupt. */
function sniff(b: Uint8Array): Sniffed | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(b);
  if (startsWith(b, [0xff, 0xd8, 0xff])) return jpeg(b);
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && ascii(b, 8, 4) === "WEBP") return webp(b);
  return svg(b);
}

function png(b: Uint8Array): Sniffed | undefined {
  if (b.length < 33 || ascii(b, 12, 4) !== "IHDR") return undefined;
  let frames = 1;
  // Walk the chunks for acTL, which makes it an animated PNG and says how many frames.
  for (let at = 8; at + 12 <= b.length;) {
    const length = u32(b, at);
    const name = ascii(b, at + 4, 4);
    if (name === "acTL" && at + 12 <= b.length) frames = u32(b, at + 8);
    if (name === "IDAT" || name === "IEND") break;
    at += 12 + length;
  }
  return { type: "image/png", width: u32(b, 16), height: u32(b, 20), frames };
}

function jpeg(b: Uint8Array): Sniffed | undefined {
  // Segments until a start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC), which carries the size.
  for (let at = 2; at + 9 < b.length;) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return {
        type: "image/jpeg",
        height: (b[at + 5]! << 8) | b[at + 6]!,
        width: (b[at + 7]! << 8) | b[at + 8]!,
        frames: 1,
      };
    if (marker === 0xd9 || marker === 0xda) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function webp(b: Uint8Array): Sniffed | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30)
    return {
      type: "image/webp",
      width: u16le(b, 26) & 0x3fff,
      height: u16le(b, 28) & 0x3fff,
      frames: 1,
    };
  if (chunk === "VP8L" && b.length >= 25) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return {
      type: "image/webp",
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      frames: 1,
    };
  }
  if (chunk === "VP8X" && b.length >= 30) {
    let frames = 0;
    for (let at = 12; at + 8 <= b.length;) {
      if (ascii(b, at, 4) === "ANMF") frames++;
      at += 8 + u32le(b, at + 4) + (u32le(b, at + 4) % 2);
    }
    return {
      type: "image/webp",
      width: u24le(b, 24) + 1,
      height: u24le(b, 27) + 1,
      frames: Math.max(frames, 1),
    };
  }
  return undefined;
}

function svg(b: Uint8Array): Sniffed | undefined {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(b.subarray(0, 4096));
  // Past a byte order mark, an XML declaration, a doctype and comments, the root must be <svg.
  const body = text
    .replace(/^\uFEFF/, "")
    .replace(/^\s*<\?xml[^>]*\?>/, "")
    .replace(/^(\s*(<!--[\s\S]*?-->|<!DOCTYPE[^>]*>))*/i, "");
  return /^\s*<svg[\s>]/i.test(body) ? { type: "image/svg+xml", frames: 1 } : undefined;
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return b.length >= prefix.length && prefix.every((v, i) => b[i] === v);
}
function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length));
}
function u32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}
function u32le(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}
function u24le(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
}
function u16le(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}
