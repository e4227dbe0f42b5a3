/**
 * What the stdio start-up benchmarks send a freshly spawned server, and the
 * time until it answers: spawn to the first tools/list answer.
 */
import { spawn } from "node:child_process";
import { now } from "../shared/common.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
};
/** A 2026-07-28 client's opening: discover the server, then list its tools (id 2). */
export const MODERN = [
  { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } },
];
/** A 2025-11-25 client's opening: the handshake, then list the tools (id 2). */
export const LEGACY = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1.0.0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
];

/**
 * Milliseconds from spawn to the line that answers `tools/list` (id 2) with
 * at least one tool, the opening written at once; then the server is stopped.
 */
export function firstToolList(
  args: readonly string[],
  cwd: string,
  opening: object[],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(process.execPath, args, { cwd, stdio: ["pipe", "pipe", "ignore"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} did not answer within 30 s`));
    }, 30_000);
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const line = buffered.split("\n").find((l) => l.includes('"id":2'));
      if (line === undefined) return;
      const elapsed = (now() - started) / 1e6;
      clearTimeout(timer);
      const answer = JSON.parse(line) as { result?: { tools?: unknown[] } };
      child.once("exit", () =>
        (answer.result?.tools?.length ?? 0) > 0
          ? resolve(elapsed)
          : reject(new Error(`${args.join(" ")}: ${line}`)),
      );
      child.stdin.end();
    });
    child.stdin.write(opening.map((m) => `${JSON.stringify(m)}\n`).join(""));
  });
}
