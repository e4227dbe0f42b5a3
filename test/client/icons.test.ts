/**
 * fetchIcon (templates/runtime/client/icons.ts) against a local HTTPS
 * server that serves each bad case. TLS is real: a self-signed certificate
 * is made with openssl when the file starts, and the fetch given to
 * fetchIcon (undici's, the one Node's global fetch is built on) trusts it;
 * everything else is what any caller gets. A second HTTPS server on another
 * port is "another origin".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchIcon, IconRefused, type IconOptions } from "../../templates/runtime/client/index.js";

/** A PNG chunk: length, name, data, CRC. */
function chunk(name: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(name, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid grey PNG of `width`x`height`; with `frames`, an animated PNG's acTL chunk says that many. */
function png(width: number, height: number, frames?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height);
  const actl = Buffer.alloc(8);
  if (frames !== undefined) actl.writeUInt32BE(frames, 0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...(frames !== undefined ? [chunk("acTL", actl)] : []),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** The start of a baseline JPEG: SOI, a JFIF APP0 segment and a SOF0 frame header with the size. */
function jpeg(width: number, height: number): Buffer {
  return Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
    0xff,
    0xd9,
  ]);
}

/** A lossless WebP header of `width`x`height`. */
function webp(width: number, height: number): Buffer {
  const bits = (width - 1) | ((height - 1) << 14);
  const data = Buffer.from([
    0x2f,
    bits & 0xff,
    (bits >> 8) & 0xff,
    (bits >> 16) & 0xff,
    (bits >>> 24) & 0xff,
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  const riff = Buffer.alloc(4);
  riff.writeUInt32LE(4 + 8 + data.length);
  return Buffer.concat([Buffer.from("RIFF"), riff, Buffer.from("WEBPVP8L"), size, data]);
}

const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><script>alert(1)</script></svg>',
);

let dir: string;
let server: Server;
let other: Server;
let origin: string;
let otherOrigin: string;
let iconFetch: typeof fetch;
const seen: IncomingHttpHeaders[] = [];

/** What the icon server answers at each path. */
function route(path: string): { status: number; headers?: Record<string, string>; body?: Buffer } {
  const routes: Record<string, ReturnType<typeof route>> = {
    "/ok.png": { status: 200, headers: { "content-type": "image/png" }, body: png(16, 16) },
    "/ok.jpg": { status: 200, headers: { "content-type": "image/jpeg" }, body: jpeg(32, 24) },
    "/ok.webp": { status: 200, headers: { "content-type": "image/webp" }, body: webp(48, 40) },
    "/untyped.png": {
      status: 200,
      headers: { "content-type": "application/octet-stream" },
      body: png(8, 8),
    },
    "/icon.svg": { status: 200, headers: { "content-type": "image/svg+xml" }, body: SVG },
    "/png-as-webp": { status: 200, headers: { "content-type": "image/webp" }, body: png(8, 8) },
    "/svg-as-png": { status: 200, headers: { "content-type": "image/png" }, body: SVG },
    "/gif": {
      status: 200,
      headers: { "content-type": "image/gif" },
      body: Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
    },
    "/html": {
      status: 200,
      headers: { "content-type": "text/html" },
      body: Buffer.from("<html><script>x()</script></html>"),
    },
    "/huge-declared": {
      status: 200,
      headers: { "content-type": "image/png", "content-length": String(10 * 1024 * 1024) },
    },
    "/wide.png": { status: 200, headers: { "content-type": "image/png" }, body: png(4000, 1) },
    "/animated.png": { status: 200, headers: { "content-type": "image/png" }, body: png(8, 8, 3) },
    "/missing": { status: 404 },
    "/hop": { status: 302, headers: { location: "/ok.png" } },
    "/loop": { status: 302, headers: { location: "/loop" } },
    "/to-http": { status: 302, headers: { location: `http://${new URL(origin).host}/ok.png` } },
    "/to-other": { status: 307, headers: { location: `${otherOrigin}/ok.png` } },
  };
  return routes[path] ?? { status: 404 };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-gen-icons-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const tls = {
    key: readFileSync(join(dir, "key.pem")),
    cert: readFileSync(join(dir, "cert.pem")),
  };
  server = createServer(tls, (req, res) => {
    seen.push(req.headers);
    if (req.url === "/huge-stream.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.write(png(8, 8));
      res.end(Buffer.alloc(300 * 1024));
      return;
    }
    const answer = route(req.url ?? "/");
    res.writeHead(answer.status, answer.headers);
    if (req.url === "/huge-declared") {
      // The headers promise 10 MiB; the client must stop before reading any of it.
      res.flushHeaders();
      setTimeout(() => res.destroy(), 2000).unref();
    } else res.end(answer.body);
  });
  other = createServer(tls, (_req, res) =>
    res.writeHead(200, { "content-type": "image/png" }).end(png(8, 8)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  otherOrigin = `https://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const dispatcher = new Agent({ connect: { ca: tls.cert } });
  iconFetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => other.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const options = (more: Partial<IconOptions> = {}): IconOptions => ({
  serverUrl: `${origin}/mcp`,
  fetch: iconFetch,
  ...more,
});

/** The problem fetchIcon refused `src` for. */
async function refusal(src: string, more: Partial<IconOptions> = {}, mimeType?: string) {
  try {
    await fetchIcon({ src, ...(mimeType ? { mimeType } : {}) }, options(more));
  } catch (error) {
    if (error instanceof IconRefused) return error.problem;
    throw error;
  }
  return "accepted";
}

describe("icons that may be shown", () => {
  it.each([
    ["/ok.png", "image/png", 16, 16],
    ["/ok.jpg", "image/jpeg", 32, 24],
    ["/ok.webp", "image/webp", 48, 40],
    ["/untyped.png", "image/png", 8, 8],
    ["/hop", "image/png", 16, 16],
  ])("%s: %s, %ix%i", async (path, type, width, height) => {
    const icon = await fetchIcon({ src: `${origin}${path}` }, options());
    expect(icon).toMatchObject({ type, width, height, frames: 1, untrusted: false });
  });

  it("is fetched without cookies or credentials", () => {
    for (const headers of seen) {
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    }
    expect(seen.length).toBeGreaterThan(0);
  });

  it("takes data: URIs, base64 or not", async () => {
    const base64 = `data:image/png;base64,${png(4, 4).toString("base64")}`;
    expect(await fetchIcon({ src: base64, mimeType: "image/png" }, options())).toMatchObject({
      type: "image/png",
      width: 4,
    });
    const svg = `data:image/svg+xml,${encodeURIComponent(SVG.toString())}`;
    expect(await fetchIcon({ src: svg }, options({ allowSvg: true }))).toMatchObject({
      type: "image/svg+xml",
      untrusted: true,
    });
  });

  it("takes SVG only when asked to, and then marks it untrusted", async () => {
    expect(await refusal(`${origin}/icon.svg`)).toBe("type");
    expect(
      await fetchIcon({ src: `${origin}/icon.svg` }, options({ allowSvg: true })),
    ).toMatchObject({
      type: "image/svg+xml",
      untrusted: true,
    });
  });

  it("takes an animation of up to maxFrames frames", async () => {
    expect(
      await fetchIcon({ src: `${origin}/animated.png` }, options({ maxFrames: 3 })),
    ).toMatchObject({ frames: 3 });
  });
});

describe("icons that are refused", () => {
  it.each([
    ["javascript:alert(1)", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["ftp://example.com/icon.png", "scheme"],
    ["ws://example.com/icon", "scheme"],
    ["myapp://icon.png", "scheme"],
    ["not a url", "scheme"],
  ])("%s: %s", async (src, problem) => {
    expect(await refusal(src)).toBe(problem);
  });

  it("plain http, even from the server's own host", async () => {
    expect(await refusal(`http://${new URL(origin).host}/ok.png`)).toBe("scheme");
  });

  it("another origin", async () => {
    expect(await refusal(`${otherOrigin}/ok.png`)).toBe("origin");
    expect(await refusal(`${origin}/ok.png`, { serverUrl: "https://localhost:1/mcp" })).toBe(
      "origin",
    );
  });

  it.each([
    ["/to-other", "redirect"],
    ["/to-http", "redirect"],
    ["/loop", "redirect"],
    ["/missing", "status"],
  ])("%s: %s", async (path, problem) => {
    expect(await refusal(`${origin}${path}`)).toBe(problem);
  });

  it("too many bytes, by Content-Length or as they arrive", async () => {
    expect(await refusal(`${origin}/huge-declared`)).toBe("size");
    expect(await refusal(`${origin}/huge-stream.png`)).toBe("size");
    expect(await refusal(`${origin}/ok.png`, { maxBytes: 20 })).toBe("size");
  });

  it("too wide, too many frames", async () => {
    expect(await refusal(`${origin}/wide.png`)).toBe("dimensions");
    expect(await refusal(`${origin}/animated.png`)).toBe("frames");
  });

  it("bytes that are no allowed image, whatever they are declared as", async () => {
    expect(await refusal(`${origin}/gif`)).toBe("type");
    expect(await refusal(`${origin}/html`)).toBe("type");
    expect(await refusal(`${origin}/svg-as-png`)).toBe("type");
    expect(await refusal(`data:text/html,<script>alert(1)</script>`)).toBe("type");
  });

  it("a declared type the bytes contradict: the icon's mimeType, Content-Type, or a data: URI's", async () => {
    expect(await refusal(`${origin}/ok.png`, {}, "image/jpeg")).toBe("mismatch");
    expect(await refusal(`${origin}/png-as-webp`)).toBe("mismatch");
    expect(await refusal(`data:image/webp;base64,${png(4, 4).toString("base64")}`)).toBe(
      "mismatch",
    );
    expect(await refusal(`${origin}/icon.svg`, { allowSvg: true }, "image/png")).toBe("mismatch");
  });
});
