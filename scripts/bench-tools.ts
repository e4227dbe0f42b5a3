/**
 * `npm run bench:tools`: how generation scales with the number of tools.
 * For each size, writes a tools.json of that many tools (arguments with a
 * string format, an enum, a nested object and an array; every third with an
 * outputSchema) and times building a server project and a client project
 * from it (in memory, as `mcp-gen server --tools` and `mcp-gen client
 * --tools` do before writing), then writing the server project to disk.
 * Prints the time per size and per thousand tools, wall clock and CPU (the
 * CPU time is what to compare on a busy machine), so that growth that is
 * not linear shows. It passes or fails nothing.
 *
 * Usage: npm run bench:tools [-- 500 1000 2000 4000 10000]
 * Schemas: MCP_GEN_SCHEMA_DIR, else ../shared/mcp-schema next to the repo.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { scaffoldClient } from "../generator/scaffold/client.js";
import { scaffoldServer, writeProject } from "../generator/scaffold/scaffold.js";
import { schemaDir } from "./bench/common.js";

const sizes = process.argv.slice(2).map(Number);
for (const size of sizes)
  if (!Number.isInteger(size) || size < 1) {
    console.error(`bench:tools: sizes are positive whole numbers, got ${String(size)}`);
    process.exit(2);
  }

/** One tool of the benchmark, its schemas of the shapes real servers list. */
function tool(index: number): Record<string, unknown> {
  return {
    name: `tool_${index}`,
    description: `Tool number ${index}`,
    inputSchema: {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        mode: { type: "string", enum: ["fast", "slow"] },
        where: {
          type: "object",
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
        },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["mode"],
    },
    ...(index % 3 === 0
      ? {
          outputSchema: {
            type: "object",
            properties: { total: { type: "integer" } },
            required: ["total"],
          },
        }
      : {}),
  };
}

const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-tools-"));
const sources = { schemaDir: schemaDir(), cacheDir: join(work, "cache"), allowDownload: false };
const seconds = (from: number) => (performance.now() - from) / 1000;
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
try {
  console.log(
    "tools   server (s)  client (s)  write (s)  total (s)  per 1,000 tools (s)  CPU (s)  CPU per 1,000 tools (s)",
  );
  for (const size of sizes.length > 0 ? sizes : [500, 1000, 2000, 4000, 10000]) {
    const toolsFile = join(work, `tools-${size}.json`);
    writeFileSync(toolsFile, JSON.stringify(Array.from({ length: size }, (_, i) => tool(i))));
    const dir = join(work, `server-${size}`);
    const cpuFrom = cpuSeconds();
    let from = performance.now();
    const server = await scaffoldServer({
      dir,
      tools: toolsFile,
      sources,
      mcpGenDependency: "0.0.0",
    });
    const serverSeconds = seconds(from);
    from = performance.now();
    await scaffoldClient({
      dir: join(work, `client-${size}`),
      tools: toolsFile,
      sources,
      mcpGenDependency: "0.0.0",
    });
    const clientSeconds = seconds(from);
    from = performance.now();
    writeProject(dir, server.files);
    const writeSeconds = seconds(from);
    const cpu = cpuSeconds() - cpuFrom;
    rmSync(dir, { recursive: true, force: true });
    const total = serverSeconds + clientSeconds + writeSeconds;
    console.log(
      [
        String(size).padStart(5),
        serverSeconds.toFixed(2).padStart(11),
        clientSeconds.toFixed(2).padStart(11),
        writeSeconds.toFixed(2).padStart(10),
        total.toFixed(2).padStart(10),
        ((total / size) * 1000).toFixed(2).padStart(20),
        cpu.toFixed(2).padStart(8),
        ((cpu / size) * 1000).toFixed(2).padStart(24),
      ].join(" "),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
