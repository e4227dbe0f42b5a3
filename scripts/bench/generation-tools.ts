/**
 * `npm run bench:tools`: how generation scales with the number of tools.
 * For each size, writes a tools.json of that many tools (arguments with a
 * string format, an enum, a nested object and an array; every third with an
 * outputSchema) and times building a server project and a client project
 * from it (in memory, as `mcp-gen server --tools` and `mcp-gen client
 * --tools` do before writing), then writing the server project to disk.
 * Each of the two starts with an empty cache folder; the server is then
 * built a second time with the cache its first build filled ("again"),
 * which is what a regenerate costs when the tools did not change.
 * Prints wall-clock and CPU time per step and the CPU time per thousand
 * tools (on a busy machine the CPU time is what to compare), so that growth
 * that is not linear shows. It passes or fails nothing.
 *
 * Usage: npm run bench:tools [-- 500 1000 2000 4000 10000]
 * Schemas: MCP_GEN_SCHEMA_DIR, else ../shared/mcp-schema next to the repo.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { benchTools } from "./bench-tool.js";
import { schemaDir } from "../shared/common.js";

const sizes = process.argv.slice(2).map(Number);
for (const size of sizes)
  if (!Number.isInteger(size) || size < 1) {
    console.error(`bench:tools: sizes are positive whole numbers, got ${String(size)}`);
    process.exit(2);
  }

const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-tools-"));
/** Schema sources with a cache folder of their own (compiled validators are kept there). */
const sources = (cache: string) => ({
  schemaDir: schemaDir(),
  cacheDir: join(work, cache),
  allowDownload: false,
});
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Runs `work`, and how long it took: wall clock and this process's CPU time, in seconds. */
async function timed<T>(
  work: () => T | Promise<T>,
): Promise<{ value: T; wall: number; cpu: number }> {
  const [wallFrom, cpuFrom] = [performance.now(), cpuSeconds()];
  const value = await work();
  return { value, wall: (performance.now() - wallFrom) / 1000, cpu: cpuSeconds() - cpuFrom };
}

const columns = (cells: ReadonlyArray<string | number>) =>
  cells
    .map((c, i) => (typeof c === "number" ? c.toFixed(2) : c).padStart(i === 0 ? 6 : 12))
    .join(" ");

try {
  console.log(
    columns([
      "tools",
      "server wall",
      "server CPU",
      "again wall",
      "again CPU",
      "client wall",
      "client CPU",
      "write wall",
      "CPU/1,000",
    ]),
  );
  for (const size of sizes.length > 0 ? sizes : [500, 1000, 2000, 4000, 10000]) {
    const toolsFile = join(work, `tools-${size}.json`);
    writeFileSync(toolsFile, benchTools(size));
    const dir = join(work, `server-${size}`);
    const common = { tools: toolsFile, mcpGenDependency: "0.0.0" };
    const serverSources = sources(`cache-server-${size}`);
    const server = await timed(() => scaffoldServer({ dir, ...common, sources: serverSources }));
    const again = await timed(() => scaffoldServer({ dir, ...common, sources: serverSources }));
    const client = await timed(() =>
      scaffoldClient({
        dir: join(work, `client-${size}`),
        ...common,
        sources: sources(`cache-client-${size}`),
      }),
    );
    const write = await timed(() => writeProject(dir, server.value.files));
    rmSync(dir, { recursive: true, force: true });
    const cpu = server.cpu + client.cpu + write.cpu;
    console.log(
      columns([
        String(size),
        server.wall,
        server.cpu,
        again.wall,
        again.cpu,
        client.wall,
        client.cpu,
        write.wall,
        (cpu / size) * 1000,
      ]),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
