/**
 * The client transports against servers that send too much
 * (templates/runtime/transport: http-client.ts, sse-reader.ts,
 * bounded-read.ts, stdio-client.ts), over real HTTP on 127.0.0.1 and real
 * child processes: replies past the message size, nesting past the depth,
 * event-stream lines and events past their limits, a reply for another
 * id, a listen stream gone silent, and a stdio server writing a line past
 * its limit. Each fails its request with an error naming the limit, and
 * the connection is closed.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChannelError,
  connectHttp,
  fetchWire,
  spawnStdio,
  type HttpClientOptions,
  type JsonRpcMessage,
} from "../../templates/runtime/client.js";
import { readEvents } from "../../templates/runtime/transport/sse-reader.js";
import { sleep, until } from "../helpers/wait.js";
import { json, result, scripted, type Scripted } from "./fixtures/scripted.js";

let server: Scripted | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PING: JsonRpcMessage = { jsonrpc: "2.0", id: 7, method: "ping", params: {} };

/** Resolves when the server side of the exchange is closed (the client hung up). */
function closedBy(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once("close", () => resolve()));
}

/** Writes `chunk` again and again until the client goes away. */
function flood(res: ServerResponse, chunk: string): void {
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", write);
  };
  write();
}

/** A server answering every request with `answer`, and the promise of the first answer's closing. */
async function serve(answer: (res: ServerResponse) => void) {
  let closed!: Promise<void>;
  server = await scripted((_r, res) => {
    closed ??= closedBy(res);
    answer(res);
  });
  return { closed: () => closed };
}

const request = (options: HttpClientOptions = {}, message: JsonRpcMessage = PING) =>
  connectHttp(server!.url, options).request(message);

describe("a JSON reply", () => {
  it("past maxMessageBytes fails the request and closes the connection, announced or not", async () => {
    for (const announced of [true, false]) {
      const answered = await serve((res) => {
        res.writeHead(200, {
          "content-type": "application/json",
          ...(announced ? { "content-length": String(10_000_000) } : {}),
        });
        flood(res, "x".repeat(16_384));
      });
      const failure = request({ maxMessageBytes: 65_536 });
      await expect(failure).rejects.toBeInstanceOf(ChannelError);
      await expect(failure).rejects.toThrow(
        "the reply to ping is larger than 65536 bytes (maxMessageBytes)",
      );
      await answered.closed();
      await server!.close();
    }
  });

  it("past the default limit (4 MiB) fails, and one at the limit is read", async () => {
    const atLimit = JSON.stringify(result(7, { pad: "" }));
    const pad = 4 * 1024 * 1024 - atLimit.length;
    let extra = 0;
    server = await scripted((_r, res) => {
      json(res, result(7, { pad: "x".repeat(pad + extra) }));
    });
    const read = await request();
    expect(JSON.stringify(read).length).toBe(4 * 1024 * 1024);
    extra = 1;
    await expect(request()).rejects.toThrow("larger than 4194304 bytes (maxMessageBytes)");
  });

  it("nesting past maxDepth fails the request, 100,000 deep", async () => {
    const deep = `{"jsonrpc":"2.0","id":7,"result":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    server = await scripted((_r, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(deep);
    });
    await expect(request({ maxMessageBytes: 1_000_000 })).rejects.toThrow(
      "the reply to ping nests deeper than 64 levels (maxDepth)",
    );
    // The depth is configurable.
    const shallow = `{"jsonrpc":"2.0","id":7,"result":{"a":[[[1]]]}}`;
    await server.close();
    server = await scripted((_r, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(shallow);
    });
    // The response object, result, a and three arrays: five levels.
    await expect(request({ maxDepth: 4 })).rejects.toThrow("nests deeper than 4 levels");
    await expect(request({ maxDepth: 5 })).resolves.toEqual(JSON.parse(shallow));
  });

  it("answering another id is refused; an error without id still arrives", async () => {
    let body: unknown = result(8, {});
    server = await scripted((_r, res) => json(res, body));
    await expect(request()).rejects.toThrow("the reply to ping answers id 8, not the request's 7");
    body = { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Unauthorized" } };
    await expect(request()).resolves.toEqual(body);
  });

  it("is bounded over the fetch wire too", async () => {
    await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      flood(res, "x".repeat(16_384));
    });
    await expect(request({ maxMessageBytes: 65_536, wire: fetchWire() })).rejects.toThrow(
      "larger than 65536 bytes",
    );
  });
});

describe("an event stream", () => {
  const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });

  it("whose line never ends fails at maxEventLineBytes and is closed", async () => {
    const answered = await serve((res) => {
      sse(res);
      res.write("data: ");
      flood(res, "x".repeat(16_384));
    });
    await expect(request({ maxEventLineBytes: 100_000 })).rejects.toThrow(
      "a line of the event stream is longer than 100000 bytes (maxEventLineBytes)",
    );
    await answered.closed();
  });

  it("whose event never ends fails at maxEventBytes and is closed", async () => {
    const answered = await serve((res) => {
      sse(res);
      flood(res, "data: x\n".repeat(2048));
    });
    await expect(request({ maxEventBytes: 100_000 })).rejects.toThrow(
      "an event of the event stream is larger than 100000 bytes (maxEventBytes)",
    );
    await answered.closed();
  });

  it("with an event past maxMessageBytes or maxDepth fails the request", async () => {
    await serve((res) => {
      sse(res);
      res.end(`data: ${JSON.stringify(result(7, { pad: "x".repeat(5000) }))}\n\n`);
    });
    const roomy = { maxEventLineBytes: 100_000, maxEventBytes: 100_000 };
    await expect(request({ maxMessageBytes: 1000, ...roomy })).rejects.toThrow(
      "holds a message larger than 1000 bytes (maxMessageBytes)",
    );
    await server!.close();
    await serve((res) => {
      sse(res);
      res.end(`data: {"jsonrpc":"2.0","id":7,"result":${"[".repeat(1000)}${"]".repeat(1000)}}\n\n`);
    });
    await expect(request()).rejects.toThrow("holds a message that nests deeper than 64 levels");
  });

  it("answering another id fails the request, as a JSON reply does", async () => {
    await serve((res) => {
      sse(res);
      res.end(`data: ${JSON.stringify(result(8, {}))}\n\n`);
    });
    await expect(request()).rejects.toThrow("the event stream ended before the response to ping");
  });

  it("is read in time linear in its size, however finely it is cut", async () => {
    // 2 MiB of one line in 64-byte chunks: rescanning what is held per chunk would take minutes.
    const line = `data: ${"x".repeat(2 * 1024 * 1024)}\n\n`;
    const bytes = new TextEncoder().encode(line);
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 64)
        yield await Promise.resolve(bytes.subarray(at, at + 64));
    }
    const started = performance.now();
    const read = [];
    for await (const event of readEvents(chunks())) read.push(event.data.length);
    expect(read).toEqual([2 * 1024 * 1024]);
    expect(performance.now() - started).toBeLessThan(3000);
  }, 20_000);

  describe("of a listen request", () => {
    const LISTEN: JsonRpcMessage = {
      jsonrpc: "2.0",
      id: 9,
      method: "subscriptions/listen",
      params: {},
    };

    it("is closed when it sends nothing for streamIdleMs", async () => {
      const answered = await serve((res) => {
        sse(res);
        res.write(": open\n\n");
      });
      const started = Date.now();
      await expect(request({ streamIdleMs: 300 }, LISTEN)).rejects.toThrow(
        "sent nothing for 300 ms (streamIdleMs); it is closed",
      );
      expect(Date.now() - started).toBeLessThan(2000);
      await answered.closed();
    });

    it("stays open while keep-alives arrive", async () => {
      await serve((res) => {
        sse(res);
        let beats = 0;
        const timer = setInterval(() => {
          if (++beats < 25) return void res.write(": keep-alive\n\n");
          clearInterval(timer);
          res.end(`data: ${JSON.stringify(result(9, { done: true }))}\n\n`);
        }, 100);
      });
      // 2.5 s of keep-alives 100 ms apart, under an idle limit of 1 s.
      await expect(request({ streamIdleMs: 1000 }, LISTEN)).resolves.toEqual(
        result(9, { done: true }),
      );
    });
  });
});

describe("a legacy session's standalone stream", () => {
  it("is closed when it sends nothing for streamIdleMs, and reopened a bounded number of times", async () => {
    const closed: Array<Promise<void>> = [];
    server = await scripted((r, res) => {
      if (r.method !== "GET") return void res.writeHead(202).end();
      closed.push(closedBy(res));
      res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n");
    });
    const warnings: string[] = [];
    const channel = connectHttp(server.url, {
      streamIdleMs: 200,
      reconnectDelayMs: 50,
      onWarning: (message) => warnings.push(message),
    });
    await channel.beginSession("2025-11-25");
    await until(() => warnings.length === 3, { timeoutMs: 5000 });
    expect(warnings[0]).toMatch(/sent nothing for 200 ms \(streamIdleMs\); it is closed/);
    // Each silent stream was closed by the client; after three in a row it stops asking.
    await Promise.all(closed);
    await sleep(400);
    expect(server.received.filter((r) => r.method === "GET")).toHaveLength(3);
    await channel.close();
  });
});

describe("a stdio server", () => {
  /** A child that answers its first line with a line of `size` bytes. */
  const writer = (size: number) =>
    `process.stdin.once("data", () => process.stdout.write("x".repeat(${size}) + "\\n")); setInterval(() => {}, 1000);`;

  it.each([
    ["a configured limit", 10_000, 10_001, "10000"],
    ["the default limit (4 MiB)", undefined, 4 * 1024 * 1024 + 1, "4194304"],
  ])(
    "writing a line past %s fails the request and is shut down",
    async (_what, maxLineBytes, size, named) => {
      const channel = await spawnStdio({
        command: process.execPath,
        args: ["-e", writer(size)],
        stderr: "ignore",
        shutdownGraceMs: 500,
        ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
      });
      const started = Date.now();
      await expect(channel.request(PING)).rejects.toThrow(
        `wrote a line longer than ${named} bytes (maxLineBytes); the connection is closed`,
      );
      expect(Date.now() - started).toBeLessThan(5000);
      await channel.close();
    },
  );
});
