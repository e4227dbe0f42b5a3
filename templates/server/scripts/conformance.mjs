/**
 * `npm run conformance`: the official MCP conformance suite
 * (@modelcontextprotocol/conformance, at the version below) against this
 * server. The suite is installed on first use into
 * MCP_GEN_CONFORMANCE_CACHE (default <tmpdir>/mcp-gen-conformance), the
 * cache mcp-gen's own conformance run uses, so that a project does not
 * carry it (and its Node >= 22 dependencies) in node_modules. It builds the project, starts `node dist/index.js`
 * on a free port of 127.0.0.1, runs the suite's server scenarios for each
 * requirement set (2026-07-28 and 2025-11-25, or those given with
 * --requirements), prints the suite's summary line for each, and stops the
 * server. Exit code: 0 when every set passed, 1 when one failed, 2 when the
 * suite could not run. Each set's full report is kept in .conformance/<set>/.
 *
 * The suite needs Node >= 22: CONFORMANCE_NODE when set, else `node` on
 * PATH when it is recent enough, else the npm package
 * node-<platform>-<arch>@22.23.3 installed once into
 * MCP_GEN_CONFORMANCE_CACHE (default <tmpdir>/mcp-gen-conformance), the
 * cache mcp-gen's own conformance run uses.
 *
 * The scenarios call the tools, resources and prompts of the suite's
 * fixture server: a project made with `--example everything` (and
 * `--extension tasks` for the tasks-* scenarios) passes them; a project of
 * your own fails those it does not implement.
 *
 *   npm run conformance [-- --requirements 2026-07-28]
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const NODE_VERSION = "22.23.3";
const SUITE_PACKAGE = "@modelcontextprotocol/conformance";
const SUITE_VERSION = "0.2.0-alpha.12";
const CACHE = process.env.MCP_GEN_CONFORMANCE_CACHE || join(tmpdir(), "mcp-gen-conformance");

const { values } = parseArgs({ options: { requirements: { type: "string", multiple: true } } });
const SETS = values.requirements ?? ["2026-07-28", "2025-11-25"];

/** Stops with exit code 2 (the suite could not run) and says why. */
function cannot(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

/** The path of a Node >= 22 that runs, or undefined. */
function probe(command) {
  const result = spawnSync(command, ["-p", "process.execPath + ' ' + process.versions.node"], {
    encoding: "utf8",
    timeout: 15_000,
  });
  if (result.status !== 0) return undefined;
  const [path, version] = result.stdout.trim().split(" ");
  return Number(version?.split(".")[0]) >= 22 ? path : undefined;
}

/**
 * Installs `spec` into `target` of the cache once, unless `file` is there
 * already. Installed beside the target and renamed into place, so a cut
 * install never looks finished.
 */
function installOnce(spec, target, file) {
  if (existsSync(file)) return;
  process.stderr.write(`conformance: installing ${spec} into ${target} (once)\n`);
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(join(CACHE, ".install-"));
  writeFileSync(join(scratch, "package.json"), '{ "private": true }\n');
  const npm = spawnSync(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", spec],
    { cwd: scratch, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (npm.status === 0 && !existsSync(target)) renameSync(scratch, target);
  rmSync(scratch, { recursive: true, force: true });
}

/** The suite's entry, installed on first use (see the file's comment). */
function suiteEntry() {
  const target = join(CACHE, `conformance-${SUITE_VERSION}`);
  const entry = join(target, "node_modules", ...SUITE_PACKAGE.split("/"), "dist", "index.js");
  installOnce(`${SUITE_PACKAGE}@${SUITE_VERSION}`, target, entry);
  return existsSync(entry) ? entry : cannot(`${SUITE_PACKAGE}@${SUITE_VERSION} did not install`);
}

/** A Node >= 22 for the suite (see the file's comment). */
function nodeForSuite() {
  for (const command of [process.env.CONFORMANCE_NODE, "node"]) {
    const found = command ? probe(command) : undefined;
    if (found) return found;
  }
  const pkg = `node-${process.platform}-${process.arch}`;
  const target = join(CACHE, `node-${NODE_VERSION}`);
  const binary = join(target, "node_modules", pkg, "bin", "node");
  if (!probe(binary)) installOnce(`${pkg}@${NODE_VERSION}`, target, binary);
  return probe(binary) ?? cannot(`no Node >= 22 found; set CONFORMANCE_NODE to one`);
}

/** A port of 127.0.0.1 that nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` accepts connections; rejects after `ms`. */
async function listening(port, ms, exited) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (exited()) throw new Error("the server exited before it listened");
    const open = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.end(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not listen on port ${port} within ${ms} ms`);
}

/** Runs the suite against the server started for `set`; true when it passed. */
async function runSet(node, entry, set) {
  const port = await freePort();
  const server = spawn(process.execPath, ["dist/index.js"], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  server.stderr.on("data", (chunk) => (log += chunk));
  try {
    await listening(port, 30_000, () => server.exitCode !== null);
  } catch (error) {
    server.kill();
    cannot(`${error.message}\n${log}`);
  }
  // The suite's report of the last run, replaced each time.
  const out = join(".conformance", set);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const suite = await new Promise((resolve) => {
    const child = spawn(
      node,
      [entry, "server", "--url", `http://127.0.0.1:${port}/mcp`, "-o", out, "--requirements", set],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.on("close", (code) => resolve({ code, text }));
  });
  server.kill("SIGTERM");
  writeFileSync(join(out, "report.txt"), suite.text);
  const summary = /^Total: .*$/m.exec(suite.text)?.[0];
  if (!summary) cannot(`the suite printed no summary (exit ${suite.code}):\n${suite.text}`);
  process.stdout.write(`conformance ${set}: ${summary} (report: ${join(out, "report.txt")})\n`);
  return suite.code === 0;
}

const built = spawnSync("npm", ["run", "-s", "build"], { stdio: ["ignore", "inherit", "inherit"] });
if (built.status !== 0) cannot("npm run build failed");
const entry = suiteEntry();
const node = nodeForSuite();
let passed = true;
for (const set of SETS) passed = (await runSet(node, entry, set)) && passed;
process.exit(passed ? 0 : 1);
