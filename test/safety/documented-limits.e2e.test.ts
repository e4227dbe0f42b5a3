/**
 * The HTTP server's timeouts at their documented defaults (docs/server.md:
 * headersTimeoutMs 10 s, requestTimeoutMs 30 s, idleTimeoutMs 5 s), each
 * met just inside (served) and passed (closed, not before its time and
 * within seconds of it), all at once: about half a minute. The fast suite
 * pins the numbers in the docs (documented-limits.test.ts) and exercises
 * the same mechanism with small values (http-edge.test.ts).
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HTTP_DEFAULTS } from "../../templates/runtime/transport/node.js";
import { serveHttp, type RunningHttpServer } from "../../templates/runtime/index.js";
import { headersFor, request, testServer } from "../helpers/mcp-client.js";
import { sleep } from "../helpers/wait.js";

/** How late past its timeout a connection may close: node checks the timeouts once a second; a loaded machine adds some. */
const SLACK_MS = 5_000;
/** How far inside a timeout the "inside" case finishes. */
const INSIDE_MS = 2_000;

let mcp: RunningHttpServer;
let port: number;

beforeAll(async () => {
  const server = testServer();
  server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "echo" }],
  }));
  mcp = await serveHttp(server, { port: 0 });
  port = Number(new URL(mcp.url).port);
});
afterAll(() => mcp.close());

const message = request("tools/list");
const body = JSON.stringify(message);
const head =
  "POST /mcp HTTP/1.1\r\nHost: localhost\r\n" +
  Object.entries(headersFor(message))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("") +
  `content-length: ${Buffer.byteLength(body)}\r\n`;

/** A raw connection that records what it reads and when the server closed it. */
interface Connection {
  readonly socket: Socket;
  readonly text: () => string;
  readonly closedAt: Promise<number>;
}

async function open(): Promise<Connection> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect(port, "127.0.0.1", () => resolve(opened));
    opened.once("error", reject);
  });
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
  socket.on("error", () => {});
  const closedAt = new Promise<number>((resolve) =>
    socket.once("close", () => resolve(Date.now())),
  );
  return { socket, text: () => text, closedAt };
}

/** The number of complete `200 OK` responses read so far. */
const served = (connection: Connection) => connection.text().split("HTTP/1.1 200 OK").length - 1;

it(
  `headers (${HTTP_DEFAULTS.headersTimeoutMs} ms), a request (${HTTP_DEFAULTS.requestTimeoutMs} ms) and an idle connection (${HTTP_DEFAULTS.idleTimeoutMs} ms): served just inside each, closed past it`,
  { timeout: 120_000 },
  async () => {
    expect([
      HTTP_DEFAULTS.headersTimeoutMs,
      HTTP_DEFAULTS.requestTimeoutMs,
      HTTP_DEFAULTS.idleTimeoutMs,
    ]).toEqual([10_000, 30_000, 5_000]);
    const started = Date.now();
    const [headersInside, headersPast, requestInside, requestPast, idleInside, idlePast] =
      await Promise.all([open(), open(), open(), open(), open(), open()]);

    const cases = [
      // Headers begun at once; finished 2 s before the headers timeout, or never.
      (async () => {
        headersInside.socket.write("POST /mcp HTTP/1.1\r\n");
        headersPast.socket.write("POST /mcp HTTP/1.1\r\n");
        await sleep(HTTP_DEFAULTS.headersTimeoutMs - INSIDE_MS);
        headersInside.socket.write(`${head.slice("POST /mcp HTTP/1.1\r\n".length)}\r\n${body}`);
      })(),
      // Headers at once, the body a byte at a time: the last byte 2 s before the request timeout, or never.
      (async () => {
        requestInside.socket.write(`${head}\r\n`);
        requestPast.socket.write(`${head}\r\n${body.slice(0, -1)}`);
        const dripEvery = (HTTP_DEFAULTS.requestTimeoutMs - INSIDE_MS) / body.length;
        // Each byte at its own time from the start, so late wake-ups on a busy machine do not add up.
        for (const [index, character] of [...body].entries()) {
          await sleep(Math.max(0, started + (index + 1) * dripEvery - Date.now()));
          requestInside.socket.write(character);
        }
      })(),
      // A request each; then a second one 2 s before the idle timeout, or none.
      (async () => {
        idleInside.socket.write(`${head}\r\n${body}`);
        idlePast.socket.write(`${head}\r\n${body}`);
        while (served(idleInside) < 1 || served(idlePast) < 1) await sleep(10);
        const answered = Date.now();
        await sleep(HTTP_DEFAULTS.idleTimeoutMs - INSIDE_MS);
        idleInside.socket.write(`${head}\r\n${body}`);
        const idleClosed = await idlePast.closedAt;
        expect(idleClosed - answered).toBeGreaterThanOrEqual(HTTP_DEFAULTS.idleTimeoutMs - 100);
        expect(idleClosed - answered).toBeLessThan(HTTP_DEFAULTS.idleTimeoutMs + SLACK_MS);
      })(),
    ];
    await Promise.all(cases);
    const headersClosed = await headersPast.closedAt;
    expect(headersClosed - started).toBeGreaterThanOrEqual(HTTP_DEFAULTS.headersTimeoutMs - 100);
    expect(headersClosed - started).toBeLessThan(HTTP_DEFAULTS.headersTimeoutMs + SLACK_MS);
    const requestClosed = await requestPast.closedAt;
    expect(requestClosed - started).toBeGreaterThanOrEqual(HTTP_DEFAULTS.requestTimeoutMs - 100);
    expect(requestClosed - started).toBeLessThan(HTTP_DEFAULTS.requestTimeoutMs + SLACK_MS);
    expect(requestPast.text()).toMatch(/^HTTP\/1\.1 408/);

    // Each "inside" connection got its answer.
    for (const [connection, answers] of [
      [headersInside, 1],
      [requestInside, 1],
      [idleInside, 2],
    ] as const) {
      const deadline = Date.now() + 10_000;
      while (served(connection) < answers && Date.now() < deadline) await sleep(20);
      expect(served(connection), connection.text().slice(0, 300)).toBe(answers);
    }
    for (const connection of [headersInside, requestInside, idleInside])
      connection.socket.destroy();
  },
);
