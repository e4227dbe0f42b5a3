/**
 * `npm run fuzz:server`: scaffolds `mcp-gen server --example everything`,
 * builds it, and sends it mutated messages over HTTP (raw sockets: JSON,
 * bytes, headers and framing broken, both eras) and over stdio (a child
 * process fed mutated lines). Prints what came back and every finding: a
 * 5xx, a request left unanswered or answered late, an answer that is not a
 * JSON-RPC message or echoes an id that is neither a string nor an integer,
 * a crash reported on stderr, a server that died or stopped answering, and
 * the server's memory before and after.
 *
 * Options: --http=N (22000) --stdio=N (21000) --seed=N (1) --concurrency=N
 * (32) --keep. Deterministic for a seed. Exit 0 with no finding, 1 with
 * findings, 2 when the setup failed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ensureBuilt, ROOT } from "../shared/common.js";
import { Children, waitForPort } from "../shared/processes.js";
import { freePort } from "../shared/free-port.js";
import { installAndBuild, SetupError, setupStep } from "../shared/project.js";
import { exchange, judgeHttp, judgeJsonRpc, mutateHttp, type HttpMessage } from "./http.js";
import { mutateBytes, mutateJson, Random } from "./mutate.js";
import {
  INITIALIZE,
  legacyBody,
  legacyMessage,
  methodNames,
  modernBody,
  modernMessage,
  seedBodies,
  type Body,
  type Listed,
} from "./seeds.js";
import { sleep } from "../../test/helpers/wait.js";

const option = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = found ? Number(found.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
};
const HTTP_MESSAGES = option("http", 22_000);
const STDIO_LINES = option("stdio", 21_000);
const SEED = option("seed", 1);
const CONCURRENCY = Math.max(1, option("concurrency", 32));
const KEEP = process.argv.includes("--keep");
const DEADLINE_MS = 15_000;

/** Findings, grouped by kind, with one example each. */
class Findings {
  private readonly byKind = new Map<string, { count: number; example: string }>();

  add(kind: string, example: string): void {
    const entry = this.byKind.get(kind);
    if (entry) entry.count++;
    else this.byKind.set(kind, { count: 1, example: example.slice(0, 400) });
  }

  get total(): number {
    return [...this.byKind.values()].reduce((n, e) => n + e.count, 0);
  }

  print(): void {
    for (const [kind, { count, example }] of this.byKind)
      console.log(`  FINDING ${kind}: ${count}x, e.g. ${example}`);
  }
}

function setup(tmp: string): string {
  const project = join(tmp, "everything");
  setupStep(
    "mcp-gen server everything --example everything",
    process.execPath,
    [
      join(ROOT, "dist", "generator", "cli", "main.js"),
      "server",
      project,
      "--example",
      "everything",
      "--quiet",
    ],
    tmp,
  );
  installAndBuild(project);
  return project;
}

/** The server's resident memory in MiB, from /proc. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function resultOf(port: number, body: Body): Promise<Record<string, unknown>> {
  const outcome = await exchange(port, modernMessage(port, body), DEADLINE_MS);
  const parsed = JSON.parse(outcome.body) as { result?: Record<string, unknown> };
  if (!parsed.result) throw new SetupError(`${body.method} failed: ${outcome.body}`);
  return parsed.result;
}

async function listed(port: number): Promise<Listed> {
  return {
    tools: (await resultOf(port, modernBody("tools/list"))).tools as Listed["tools"],
    resources: (await resultOf(port, modernBody("resources/list")))
      .resources as Listed["resources"],
    templates: (await resultOf(port, modernBody("resources/templates/list")))
      .resourceTemplates as Listed["templates"],
    prompts: (await resultOf(port, modernBody("prompts/list"))).prompts as Listed["prompts"],
  };
}

async function legacySession(port: number): Promise<string> {
  const outcome = await exchange(port, legacyMessage(port, INITIALIZE), DEADLINE_MS);
  const session = /\r\nmcp-session-id:\s*([^\r]+)/i.exec(outcome.head)?.[1];
  if (!session) throw new SetupError(`initialize gave no session:\n${outcome.head}${outcome.body}`);
  return session;
}

async function fuzzHttp(port: number, seeds: HttpMessage[], methods: string[], findings: Findings) {
  const random = new Random(SEED);
  const statuses = new Map<string, number>();
  let sent = 0;
  const worker = async () => {
    while (sent < HTTP_MESSAGES) {
      sent++;
      const message = mutateHttp(random.pick(seeds), random, methods);
      const outcome = await exchange(port, message, DEADLINE_MS);
      const key = outcome.status ? String(outcome.status) : outcome.timedOut ? "timeout" : "closed";
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const problem = judgeHttp(message, outcome);
      if (problem)
        findings.add(
          `http: ${problem}`,
          `${message.method} ${message.path} ${JSON.stringify(message.headers)} ${message.body.toString("utf8").slice(0, 200)} -> ${outcome.status} ${outcome.body.slice(0, 200)}`,
        );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return [...statuses.entries()]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}

async function fuzzStdio(project: string, seeds: Body[], methods: string[], findings: Findings) {
  const random = new Random(SEED + 1);
  const child = spawn(process.execPath, ["dist/index.js", "--stdio"], {
    cwd: project,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-65_536)));
  let answers = 0;
  let finalAnswered = false;
  createInterface({ input: child.stdout }).on("line", (line) => {
    answers++;
    const problem = judgeJsonRpc(line);
    if (problem) findings.add(`stdio: ${problem}`, line);
    if (line.includes('"id":"final"')) finalAnswered = true;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const write = (text: Buffer | string) =>
    child.stdin.write(text)
      ? Promise.resolve()
      : new Promise<void>((r) => child.stdin.once("drain", () => r()));
  const legacyInit = JSON.stringify(INITIALIZE);
  await write(`${legacyInit}\n`);
  for (let i = 0; i < STDIO_LINES; i++) {
    const seed = random.chance(0.2) ? legacyBody(random.pick(seeds)) : random.pick(seeds);
    const line = random.chance(0.7)
      ? Buffer.from(JSON.stringify(mutateJson(seed as never, random, methods)))
      : mutateBytes(Buffer.from(JSON.stringify(seed)), random);
    await write(Buffer.concat([line, Buffer.from("\n")]));
  }
  await write(
    `${JSON.stringify({ ...modernBody("tools/call", { name: "test_simple_text", arguments: {} }), id: "final" })}\n`,
  );
  const answeredBy = Date.now() + DEADLINE_MS * 4;
  while (!finalAnswered && Date.now() < answeredBy && child.exitCode === null) await sleep(50);
  if (!finalAnswered)
    findings.add("stdio: a valid request after the fuzz was not answered", stderr.slice(-400));
  const rss = rssMiB(child.pid!);
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), DEADLINE_MS);
  const code = await exited;
  clearTimeout(timer);
  if (code !== 0)
    findings.add("stdio: exit at end of input", `exit code ${code}; ${stderr.slice(-400)}`);
  const crashes = stderr.split("\n").filter((l) => l.startsWith("mcp server:"));
  for (const c of crashes) findings.add("stdio: crash reported on stderr", c);
  return { answers, rss };
}

async function main(): Promise<number> {
  ensureBuilt();
  console.log(
    `mcp-gen server fuzz: ${HTTP_MESSAGES} HTTP messages, ${STDIO_LINES} stdio lines, seed ${SEED}, ${CONCURRENCY} connections at once`,
  );
  tmp = mkdtempSync(join(tmpdir(), "mcp-gen-fuzz-"));
  const project = setup(tmp);
  const port = await freePort();
  const server = children.spawn("the server", process.execPath, ["dist/index.js"], {
    cwd: project,
    env: { ...process.env, PORT: String(port) },
  });
  await waitForPort(port, 15_000, () => !server.exited);
  const found = await listed(port);
  const bodies = seedBodies(found);
  const methods = methodNames(bodies);
  const session = await legacySession(port);
  const seeds = [
    ...bodies.map((b) => modernMessage(port, b)),
    legacyMessage(port, INITIALIZE),
    ...bodies.slice(1).map((b) => legacyMessage(port, legacyBody(b), session)),
  ];
  console.log(
    `[seeds] ${seeds.length} valid messages: ${found.tools.length} tools, ${found.resources.length} resources, ${found.templates.length} templates, ${found.prompts.length} prompts, both eras`,
  );

  const findings = new Findings();
  const rssBefore = rssMiB(server.pid);
  const started = Date.now();
  const statuses = await fuzzHttp(port, seeds, methods, findings);
  const seconds = (Date.now() - started) / 1000;
  console.log(`[http] ${HTTP_MESSAGES} messages in ${seconds.toFixed(1)} s; statuses ${statuses}`);
  if (server.exited) findings.add("http: the server exited", server.output().slice(-400));
  else {
    const after = await exchange(
      port,
      modernMessage(port, modernBody("tools/call", { name: "test_simple_text", arguments: {} })),
      DEADLINE_MS,
    );
    if (after.status !== 200 || !after.body.includes('"content"'))
      findings.add("http: a valid request after the fuzz failed", `${after.status} ${after.body}`);
    console.log(
      `[http] server RSS ${rssBefore.toFixed(0)} MiB before, ${rssMiB(server.pid).toFixed(0)} MiB after`,
    );
  }
  for (const line of server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("mcp server:")))
    findings.add("http: crash reported on stderr", line);

  const stdio = await fuzzStdio(project, bodies, methods, findings);
  console.log(
    `[stdio] ${STDIO_LINES} lines, ${stdio.answers} answer lines, RSS ${stdio.rss.toFixed(0)} MiB at the end`,
  );

  console.log(findings.total === 0 ? "\nfuzz: no findings" : `\nfuzz: ${findings.total} findings`);
  findings.print();
  return findings.total === 0 ? 0 : 1;
}

let tmp: string | undefined;
const removeTmp = () => {
  if (tmp && !KEEP) rmSync(tmp, { recursive: true, force: true });
};
const children = new Children(removeTmp);

let code: number;
try {
  code = await main();
} catch (error) {
  console.error(
    `\nfuzz:server: ${error instanceof SetupError ? "setup failed" : "failed"}: ${(error as Error).stack ?? String(error)}`,
  );
  code = error instanceof SetupError ? 2 : 1;
}
await children.stopAll();
if (KEEP && tmp) console.log(`kept ${tmp}`);
removeTmp();
process.exit(code);
