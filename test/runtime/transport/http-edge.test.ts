/**
 * The HTTP edge (templates/runtime/transport: guards.ts, node.ts,
 * settings.ts) over real HTTP on 127.0.0.1: strict Host and Origin
 * parsing, 415 for a body that is not JSON, settings from the
 * environment, and slow, idle and numerous clients closed within seconds
 * while new clients are still served.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CursorCodec,
  httpSettingsFromEnvironment,
  parseHostHeader,
  parseOrigin,
  RequestStateCodec,
  serveHttp,
  SettingError,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import { bindWarning } from "../../../templates/runtime/transport/node.js";
import { headersFor, openStream, raw, request, testServer } from "../../helpers/mcp-client.js";
import { sleep, until } from "../../helpers/wait.js";

const discover = JSON.stringify(request("server/discover"));
const discoverHeaders = headersFor(request("server/discover"));

describe("HTTP: strict Host and Origin", () => {
  let server: RunningHttpServer;
  let port: string;
  beforeAll(async () => {
    server = await serveHttp(testServer(), { port: 0 });
    port = new URL(server.url).port;
  });
  afterAll(() => server.close());

  it.each([
    ["a host name that is followed by a second one after the colon", "localhost:evil.example"],
    ["an IPv6 literal followed by a name", "[::1].evil.example"],
    ["user information after the port", "localhost:PORT@evil.example"],
    ["user information before the host", "evil.example@localhost"],
    ["a port out of range", "localhost:70000"],
    ["two values joined by a comma", "localhost, evil.example"],
    ["a path", "localhost/evil"],
    ["a colon without a port", "localhost:"],
  ])("refuses a Host with %s", async (_what, host) => {
    const reply = await raw(server.url, {
      headers: { ...discoverHeaders, host: host.replace("PORT", port) },
      body: discover,
    });
    expect(reply.status).toBe(403);
    expect(reply.text).toContain("ALLOWED_HOSTS");
  });

  it.each([
    ["user information naming another host", "http://evil.example@localhost"],
    ["a path after the host", "http://localhost/evil"],
    ["a host followed by a second name", "http://localhost:evil.example"],
    ["an IPv6 literal followed by a name", "http://[::1].evil.example"],
    ["no scheme", "localhost:PORT"],
  ])("refuses an Origin with %s", async (_what, origin) => {
    const reply = await raw(server.url, {
      headers: {
        ...discoverHeaders,
        host: `localhost:${port}`,
        origin: origin.replace("PORT", port),
      },
      body: discover,
    });
    expect(reply.status).toBe(403);
    expect(reply.text).toContain("ALLOWED_ORIGINS");
  });

  it("refuses a request with two Host headers, whichever comes first", async () => {
    for (const hosts of [
      ["localhost", "evil.example"],
      ["evil.example", "localhost"],
    ]) {
      const text = await rawExchange(
        port,
        `POST /mcp HTTP/1.1\r\nHost: ${hosts[0]}\r\nHost: ${hosts[1]}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(discover)}\r\nconnection: close\r\n` +
          Object.entries(discoverHeaders)
            .filter(([k]) => k !== "content-type")
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join("") +
          `\r\n${discover}`,
      );
      expect(text).toMatch(/^HTTP\/1.1 (400|403)/);
    }
  });

  it("parses hosts and origins strictly", () => {
    expect(parseHostHeader("LocalHost:3000")).toEqual({ host: "localhost", port: 3000 });
    expect(parseHostHeader("[::1]")).toEqual({ host: "[::1]" });
    expect(parseHostHeader("[::1]:8080")).toEqual({ host: "[::1]", port: 8080 });
    expect(parseHostHeader("127.0.0.1")).toEqual({ host: "127.0.0.1" });
    for (const bad of ["[::1", "[evil]", "999.1.1.1", "-x.example", "a..b", "x:", "x:0", "x_y"])
      expect(parseHostHeader(bad), bad).toBeUndefined();
    expect(parseOrigin("https://App.example.com")).toMatchObject({
      host: "app.example.com",
      text: "https://app.example.com",
    });
    for (const bad of [
      "null",
      "https://a.example/",
      "https://u:p@a.example",
      "https://a.example?x",
    ])
      expect(parseOrigin(bad), bad).toBeUndefined();
  });

  it("allowedOrigins admits a browser page of another origin, compared exactly", async () => {
    const other = await serveHttp(testServer(), {
      port: 0,
      allowedOrigins: ["https://app.example.com"],
    });
    try {
      const post = (origin: string) =>
        raw(other.url, {
          headers: { ...discoverHeaders, origin },
          body: discover,
        });
      expect((await post("https://app.example.com")).status).toBe(200);
      expect((await post("https://APP.example.com")).status).toBe(200);
      expect((await post("http://app.example.com")).status).toBe(403);
      // Once origins are listed, the allowed hosts' own origins are no longer implied.
      expect((await post("http://localhost:5173")).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe("HTTP: the content type of a POST", () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await serveHttp(testServer(), { port: 0 });
  });
  afterAll(() => server.close());

  it.each([
    ["text/plain", 415],
    ["application/x-www-form-urlencoded", 415],
    ["multipart/form-data; boundary=x", 415],
    ["application/jsonx", 415],
    ["application/json; charset=utf-8", 200],
    ["Application/JSON", 200],
  ])("%s gets %i", async (contentType, status) => {
    const reply = await raw(server.url, {
      headers: { ...discoverHeaders, "content-type": contentType },
      body: discover,
    });
    expect(reply.status).toBe(status);
    if (status === 415)
      expect(JSON.parse(reply.text)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("no content type gets 415", async () => {
    const { "content-type": _dropped, ...headers } = discoverHeaders;
    const reply = await raw(server.url, { headers, body: discover });
    expect(reply.status).toBe(415);
  });
});

describe("HTTP: settings from the environment", () => {
  it("reads HOST, PORT, ALLOWED_HOSTS, ALLOWED_ORIGINS and the limits", () => {
    expect(
      httpSettingsFromEnvironment({
        HOST: "0.0.0.0",
        PORT: "8080",
        ALLOWED_HOSTS: "mcp.example.com, localhost ,::1",
        ALLOWED_ORIGINS: "https://app.example.com",
        MCP_HEADERS_TIMEOUT_MS: "2000",
        MCP_MAX_CONNECTIONS: "50",
      }),
    ).toEqual({
      host: "0.0.0.0",
      port: 8080,
      allowedHosts: ["mcp.example.com", "localhost", "::1"],
      allowedOrigins: ["https://app.example.com"],
      headersTimeoutMs: 2000,
      maxConnections: 50,
    });
    expect(httpSettingsFromEnvironment({})).toEqual({});
    expect(httpSettingsFromEnvironment({ ALLOWED_HOSTS: "any" })).toEqual({ allowedHosts: "any" });
  });

  it.each([
    ["PORT", "http", /PORT must be a whole number from 0 to 65535, not "http"/],
    ["PORT", "70000", /PORT must be a whole number/],
    ["MCP_IDLE_TIMEOUT_MS", "-1", /MCP_IDLE_TIMEOUT_MS must be a whole number/],
    [
      "ALLOWED_HOSTS",
      "localhost:3000",
      /ALLOWED_HOSTS has "localhost:3000", which is not a host name/,
    ],
    ["ALLOWED_HOSTS", " , ", /ALLOWED_HOSTS must be a comma-separated list/],
    [
      "ALLOWED_ORIGINS",
      "app.example.com",
      /ALLOWED_ORIGINS has "app.example.com", which is not an origin/,
    ],
  ])("refuses %s=%s, naming the variable", (variable, value, message) => {
    let error: unknown;
    try {
      httpSettingsFromEnvironment({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingError);
    expect((error as SettingError).variable).toBe(variable);
    expect((error as Error).message).toMatch(message);
  });

  it("warns when the address is reachable from other machines, naming the Host check", async () => {
    expect(bindWarning("127.0.0.1", ["localhost"])).toBeUndefined();
    expect(bindWarning("::1", ["localhost"])).toBeUndefined();
    expect(bindWarning("localhost", ["localhost"])).toBeUndefined();
    expect(bindWarning("0.0.0.0", ["localhost", "127.0.0.1"])).toMatch(
      /listening on 0.0.0.0, which other machines can reach; the Host check accepts only localhost, 127.0.0.1; set ALLOWED_HOSTS/,
    );
    expect(bindWarning("::", "any")).toMatch(/the Host check is off \(ALLOWED_HOSTS=any\)/);
    const warnings: string[] = [];
    const quiet = await serveHttp(
      testServer({
        requestState: new RequestStateCodec(randomBytes(32)),
        lists: { cursors: new CursorCodec(randomBytes(32)) },
      }),
      {
        port: 0,
        warn: (m) => warnings.push(m),
      },
    );
    await quiet.close();
    expect(warnings).toEqual([]);
  });
});

describe("HTTP: slow, idle and numerous clients", () => {
  let server: RunningHttpServer;
  let port: string;
  beforeAll(async () => {
    server = await serveHttp(testServer(), {
      port: 0,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 1500,
      idleTimeoutMs: 500,
      maxConnections: 30,
    });
    port = new URL(server.url).port;
  });
  afterAll(() => server.close());

  it("closes a connection that sends nothing, one that stops within its headers, and a slow body, within seconds", async () => {
    const silent = await open(port);
    const halfHeaders = await open(port);
    halfHeaders.write("POST /mcp HTTP/1.1\r\nHost: localhost\r\n");
    const slowBody = await open(port);
    slowBody.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${discover.length}\r\n\r\n`,
    );
    let sent = 0;
    const drip = setInterval(() => {
      if (!slowBody.destroyed && sent < discover.length) slowBody.write(discover[sent++]!);
    }, 200);
    const started = Date.now();
    const closedAfter = await Promise.all([silent, halfHeaders, slowBody].map(closed));
    clearInterval(drip);
    // Without the timeouts these connections would stay open until the test times out; the bound
    // is ten times the longest timeout, so a loaded machine does not fail it.
    for (const ms of closedAfter) expect(ms - started).toBeLessThan(10 * 1500);
  });

  it("closes a keep-alive connection idle after its response", async () => {
    const socket = await open(port);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\n` +
        Object.entries(discoverHeaders)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("") +
        `content-length: ${Buffer.byteLength(discover)}\r\n\r\n${discover}`,
    );
    const started = Date.now();
    // Without the idle timeout it would stay open; ten times the timeout leaves a loaded machine room.
    expect((await closed(socket)) - started).toBeLessThan(10 * 500);
  });

  it("leaves an event stream open past the request timeout", async () => {
    const stream = await openStream(
      server.url,
      request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
    );
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await stream.next();
    await sleep(2500);
    expect(ended).toBe(false);
    stream.close();
  });

  it("serves new clients while an attacker holds every connection the cap allows", async () => {
    const held = await Promise.all(Array.from({ length: 30 }, () => open(port)));
    for (const socket of held) socket.write("POST /mcp HTTP/1.1\r\n");
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        raw(server.url, { headers: discoverHeaders, body: discover }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const evicted = held.map(closed);
    await until(() => held.filter((s) => s.closed).length >= 5);
    void evicted;
    for (const socket of held) socket.destroy();
  });
});

function open(port: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Resolves with the time the server closed the socket. */
function closed(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    socket.on("error", () => {});
    socket.resume();
    socket.once("close", () => resolve(Date.now()));
  });
}

/** Sends raw text, resolves with everything the server answered. */
function rawExchange(port: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}
