/**
 * `npm run bench:first-hour`: what a newcomer's first hour costs, on a
 * fresh scaffold of `--example everything` made as a user makes it.
 *
 * 0. This checkout is packed (`npm pack`, as published) and installed into
 *    an empty folder, as `npx mcp-gen` would fetch it (timed apart: a
 *    registry download of mcp-gen is not measured here).
 * 1. `mcp-gen server app --example everything` run from that install: its
 *    time, and the files and bytes it wrote (src/ and the vendored mcp-gen
 *    tarball on their own lines).
 * 2. `npm install` from the registry with an empty npm cache (the
 *    newcomer's case; `--warm` keeps one cache for every run instead): its
 *    time, the size of node_modules, and every warning npm printed.
 * 3. `npm start` until the server answers `tools/list` over HTTP on
 *    127.0.0.1 (it compiles first): its time, and every line the server
 *    printed on stderr before answering.
 * 4. `npm run dev` (mcp-gen dev) from a stopped server until its first
 *    answer.
 *
 * Targets: scaffold to first answer (1 + 2 + 3) under 30 s; dev's first
 * answer under 5 s. Prints the numbers; the exit code says only whether a
 * step failed to run.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../shared/free-port.js";
import { ensureBuilt, machine, printMachine, ROOT } from "../shared/common.js";
import { sleep } from "../../test/helpers/wait.js";

const TARGET_FIRST_ANSWER_S = 30;
const TARGET_DEV_S = 5;
const warm = process.argv.includes("--warm");

/** Files and bytes under `dir` (node_modules left out unless it is `dir`). */
function sizeOf(dir: string, skipNodeModules = true): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (skipNodeModules && entry.name === "node_modules") continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        files += 1;
        bytes += statSync(full).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Runs a command to its end; throws with its output when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60_000,
  });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(" ")} exited with ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  return { ms: performance.now() - started, stdout: result.stdout, stderr: result.stderr };
}

/** Whether the server at `url` answers tools/list. */
async function answers(url: string): Promise<boolean> {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "first-hour", version: "1" },
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
        "mcp-method": "tools/list",
      },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await response.json()) as { result?: { tools?: unknown[] } };
    return Array.isArray(body.result?.tools);
  } catch {
    return false;
  }
}

/** Starts `npm run <script>` in its own process group, and times it to its first answer. */
async function firstAnswer(
  project: string,
  script: string,
): Promise<{ ms: number; stderr: string[] }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["run", "--silent", script], {
    cwd: project,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  let exited = false;
  child.on("exit", () => (exited = true));
  try {
    for (;;) {
      if (await answers(url)) break;
      if (exited) throw new Error(`npm run ${script} exited before answering:\n${stderr}`);
      if (performance.now() - started > 5 * 60_000)
        throw new Error(`npm run ${script} did not answer within 5 minutes:\n${stderr}`);
      await sleep(50);
    }
    return { ms: performance.now() - started, stderr: stderr.split("\n").filter(Boolean) };
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([gone, sleep(5_000)]);
      if (!exited) process.kill(-child.pid!, "SIGKILL");
    }
  }
}

/**
 * Packs this checkout as `npm pack` does for a release (prepack builds and
 * strips the manifest) and installs the tarball into `work/tool`.
 */
function packAndInstall(work: string, env: NodeJS.ProcessEnv): { bin: string; ms: number } {
  const started = performance.now();
  const packed = run("npm", ["pack", "--silent", "--pack-destination", work], ROOT);
  const tarball = join(work, packed.stdout.trim().split("\n").pop()!);
  const tool = join(work, "tool");
  mkdirSync(tool);
  run("npm", ["install", "--no-audit", "--no-fund", tarball], tool, env);
  return { bin: join(tool, "node_modules", ".bin", "mcp-gen"), ms: performance.now() - started };
}

const warnings = (text: string) => text.split("\n").filter((line) => /warn/i.test(line));

ensureBuilt();
printMachine(machine());
console.log(`npm cache: ${warm ? "this user's (warm)" : "a new, empty one (cold)"}\n`);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-first-hour-"));
try {
  const npmEnv = warm ? process.env : { ...process.env, npm_config_cache: join(work, "npm-cache") };
  const tool = packAndInstall(work, npmEnv);
  const project = join(work, "app");
  const scaffold = run(tool.bin, ["server", "app", "--example", "everything"], work, {
    ...process.env,
    MCP_GEN_OFFLINE: "1",
  });
  const written = sizeOf(project);
  const src = sizeOf(join(project, "src"));
  const vendor = sizeOf(join(project, "vendor"));

  const install = run("npm", ["install", "--no-audit", "--no-fund"], project, npmEnv);
  const modules = sizeOf(join(project, "node_modules"), false);
  const installWarnings = warnings(install.stdout + install.stderr);

  const start = await firstAnswer(project, "start");
  const dev = await firstAnswer(project, "dev");
  const toFirstAnswer = scaffold.ms + install.ms + start.ms;

  console.log(`mcp-gen itself (npm pack, npm install of the tarball): ${seconds(tool.ms)}`);
  console.log("Scaffold (mcp-gen server app --example everything)");
  console.log(`  time:            ${seconds(scaffold.ms)}`);
  console.log(`  written:         ${written.files} files, ${mb(written.bytes)}`);
  console.log(`    src/:          ${src.files} files, ${mb(src.bytes)}`);
  console.log(`    vendor/:       ${vendor.files} file, ${mb(vendor.bytes)} (the mcp-gen tarball)`);
  console.log("npm install");
  console.log(`  time:            ${seconds(install.ms)}`);
  console.log(`  node_modules:    ${modules.files} files, ${mb(modules.bytes)}`);
  console.log(`  warnings:        ${installWarnings.length}`);
  for (const line of installWarnings) console.log(`    ${line}`);
  console.log("npm start (compile, start, answer tools/list)");
  console.log(`  time:            ${seconds(start.ms)}`);
  console.log(`  stderr lines:    ${start.stderr.length}`);
  for (const line of start.stderr) console.log(`    ${line}`);
  console.log("npm run dev (mcp-gen dev, to its first answer)");
  console.log(`  time:            ${seconds(dev.ms)}`);
  console.log("");
  console.log(
    `scaffold to first answer: ${seconds(toFirstAnswer)} (target under ${TARGET_FIRST_ANSWER_S} s: ${toFirstAnswer < TARGET_FIRST_ANSWER_S * 1000 ? "met" : "not met"})`,
  );
  console.log(
    `dev to first answer:      ${seconds(dev.ms)} (target under ${TARGET_DEV_S} s: ${dev.ms < TARGET_DEV_S * 1000 ? "met" : "not met"})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
