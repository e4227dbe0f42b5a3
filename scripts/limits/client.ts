/**
 * `npm run limits:client`: the client's HTTP transport against a hostile
 * MCP server, measured. A child process (this script with `--serve`) runs
 * a node:http server on 127.0.0.1 that answers each request as its path
 * says: a 100 MB reply (announced or not), a 100 MB event, an event stream
 * that never ends (data, or keep-alives only), a result 100,000 levels
 * deep (as JSON and as an event), a reply for another id, a listen stream
 * gone silent. This process sends one request to each with the runtime's
 * client transport and default limits, and prints what came back, how
 * long it took and the peak resident memory while it ran.
 *
 * Every case must end in an error within its timeout, and the peak RSS
 * stay under 300 MB: exit 0 when they do, 1 otherwise.
 */
import { spawn } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { connectHttp, type JsonRpcMessage } from "../../templates/runtime/client.js";

const MB = 1024 * 1024;
const RSS_LIMIT_MB = 300;
const TIMEOUT_MS = 5000;

/** Writes `chunk` until `total` bytes went out (endless when Infinity), as fast as the client reads. */
function pour(res: ServerResponse, chunk: string, total: number, end = ""): void {
  let sent = 0;
  const write = () => {
    while (!res.destroyed && sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", write);
    }
    if (!res.destroyed) res.end(end);
  };
  write();
}

/** The hostile server: each path one way of sending too much. */
function serve(): void {
  const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });
  const json = (res: ServerResponse, headers: Record<string, string> = {}) =>
    res.writeHead(200, { "content-type": "application/json", ...headers });
  const deep = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"result":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  const block = "x".repeat(64 * 1024);
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const id = (JSON.parse(body || "{}") as { id?: number }).id ?? 0;
      switch (req.url) {
        case "/huge-json":
          json(res);
          return pour(res, block, 100 * MB);
        case "/huge-json-announced":
          json(res, { "content-length": String(100 * MB) });
          return pour(res, block, 100 * MB);
        case "/huge-event":
          sse(res);
          res.write("data: ");
          return pour(res, block, 100 * MB, "\n\n");
        case "/endless-events":
          sse(res);
          return pour(
            res,
            `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${"x".repeat(1000)}"}}\n\n`,
            Infinity,
          );
        case "/endless-keepalives":
          sse(res);
          return pour(res, ": keep-alive\n\n", Infinity);
        case "/deep-json":
          json(res);
          return void res.end(deep(id));
        case "/deep-event":
          sse(res);
          return void res.end(`data: ${deep(id)}\n\n`);
        case "/wrong-id":
          json(res);
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: id + 1, result: {} }));
        case "/silent-listen":
          sse(res);
          return void res.write(": open\n\n");
        default:
          res.writeHead(404).end();
      }
    });
  });
  server.listen(0, "127.0.0.1", () =>
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`),
  );
}

/** One case: where, what is sent, and the options of the client transport. */
interface Case {
  readonly path: string;
  readonly what: string;
  readonly method?: string;
  readonly streamIdleMs?: number;
}

const CASES: readonly Case[] = [
  { path: "/huge-json", what: "a 100 MB JSON reply, not announced" },
  { path: "/huge-json-announced", what: "a 100 MB JSON reply, announced" },
  { path: "/huge-event", what: "a 100 MB event" },
  { path: "/endless-events", what: "an endless stream of events" },
  { path: "/endless-keepalives", what: "an endless stream of keep-alives" },
  { path: "/deep-json", what: "a result 100,000 deep (JSON)" },
  { path: "/deep-event", what: "a result 100,000 deep (event)" },
  { path: "/wrong-id", what: "a reply for another id" },
  {
    path: "/silent-listen",
    what: "a listen stream gone silent",
    method: "subscriptions/listen",
    streamIdleMs: 2000,
  },
];

/** The peak RSS, sampled every 5 ms while `work` runs, in MB. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    return { value, peakMb: Math.max(peak, process.memoryUsage.rss()) / MB };
  } finally {
    clearInterval(timer);
  }
}

async function measure(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once("line", resolve),
    );
    console.log(
      `client transport, default limits; each case ${TIMEOUT_MS} ms at most; RSS at start ${(process.memoryUsage.rss() / MB).toFixed(0)} MB`,
    );
    let failures = 0;
    for (const [index, test] of CASES.entries()) {
      const channel = connectHttp(`http://127.0.0.1:${port}${test.path}`, {
        ...(test.streamIdleMs !== undefined ? { streamIdleMs: test.streamIdleMs } : {}),
      });
      const message: JsonRpcMessage = {
        jsonrpc: "2.0",
        id: index + 1,
        method: test.method ?? "tools/list",
        params: {},
      };
      const started = performance.now();
      const { value: outcome, peakMb } = await peakRss(() =>
        channel.request(message, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
          () => "answered (not refused)",
          (error: unknown) =>
            error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        ),
      );
      const ms = performance.now() - started;
      await channel.close();
      const refused = !outcome.startsWith("answered");
      const ok = refused && ms < TIMEOUT_MS + 1000 && peakMb < RSS_LIMIT_MB;
      if (!ok) failures++;
      console.log(
        `${ok ? "ok  " : "FAIL"} ${test.what.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms  peak RSS ${peakMb.toFixed(0).padStart(4)} MB  ${outcome.slice(0, 140)}`,
      );
    }
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(
      `peak RSS of the whole run: ${maxRssMb.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB); ${failures} case(s) failed`,
    );
    return failures === 0 && maxRssMb < RSS_LIMIT_MB ? 0 : 1;
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) serve();
else process.exitCode = await measure();
