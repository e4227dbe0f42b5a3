/**
 * `npm run bench:dev`: how long `mcp-gen dev` takes from saving a handler
 * to serving it. A server project is scaffolded into a temporary folder
 * (this repository's node_modules linked in, as the tests do), the dev loop
 * started, and the echo handler edited ROUNDS times; each round is timed
 * from the write to the first answer carrying the new text, polled every
 * 20 ms over HTTP on 127.0.0.1. Prints every round, the median and the
 * slowest; exits 1 when the median is over 2 s.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDev } from "../../generator/dev/dev.js";
import { linkedProject } from "../shared/project.js";
import { freePort } from "../shared/free-port.js";
import { sleep } from "../../test/helpers/wait.js";

const ROUNDS = 7;

async function echo(url: string, text: string): Promise<string | undefined> {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      },
    },
  };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      },
      body: JSON.stringify(message),
    });
    const body = (await response.json()) as { result?: { content?: Array<{ text?: string }> } };
    return body.result?.content?.[0]?.text;
  } catch {
    return undefined;
  }
}

async function served(url: string, expected: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await echo(url, "x")) !== expected) {
    if (Date.now() > deadline)
      throw new Error(`"${expected}" was not served within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const work = mkdtempSync(join(tmpdir(), "mcp-gen-dev-bench-"));
try {
  const project = await linkedProject("server", { dir: join(work, "srv"), name: "srv" });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const dev = startDev({
    dir: project,
    env: { PORT: String(port), MCP_REQUEST_STATE_KEY: randomBytes(32).toString("hex") },
    log: () => undefined,
  });
  const firstStart = performance.now();
  await served(url, "x", 180_000);
  console.log(`first compile and start: ${Math.round(performance.now() - firstStart)} ms`);
  const tools = join(project, "src", "tools.ts");
  const original = readFileSync(tools, "utf8");
  const rounds: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const started = performance.now();
    writeFileSync(
      tools,
      original.replace(
        'content: [{ type: "text", text }]',
        `content: [{ type: "text", text: \`${round}:\${text}\` }]`,
      ),
    );
    await served(url, `${round}:x`);
    rounds.push(performance.now() - started);
    console.log(`edit ${round}: served after ${Math.round(rounds.at(-1)!)} ms`);
  }
  await dev.close();
  const sorted = [...rounds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `edit to served: median ${Math.round(median)} ms, slowest ${Math.round(sorted.at(-1)!)} ms (${ROUNDS} edits)`,
  );
  process.exitCode = median <= 2000 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
