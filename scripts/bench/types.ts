/**
 * `npm run bench:types`: what `mcp-gen types` costs. For the fixture of
 * 124 tools (test/fixtures/types/platform-tools.json) and the official
 * reference servers (server-everything, server-memory, server-filesystem,
 * listed over stdio), writes the module and its code-mode API into a
 * temporary folder and compiles both under --strict (the TypeScript
 * compiler in this process, the SDK's declarations skipped as a project
 * with skipLibCheck does). Prints per source: the tools, the size of the
 * two files, the time to list and emit (wall clock, and the CPU time of
 * this process: a server's own time is not in it), and the CPU time of the
 * compile.
 * On a busy machine compare CPU times. It passes or fails nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import ts from "typescript";
import { planToolTypes, writeToolTypes } from "../../generator/types/tool-types.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "node_modules", ".bin");
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-types-"));
const files = join(work, "files");
mkdirSync(files);
writeFileSync(join(files, "notes.txt"), "hello\n");
process.env.MEMORY_FILE_PATH = join(work, "memory.jsonl");

const sources: ReadonlyArray<readonly [label: string, source: string, as: "file" | "server"]> = [
  ["fixture, 124 tools", join(ROOT, "test", "fixtures", "types", "platform-tools.json"), "file"],
  ["server-everything", `${BIN}/mcp-server-everything stdio`, "server"],
  ["server-memory", `${BIN}/mcp-server-memory`, "server"],
  ["server-filesystem", `${BIN}/mcp-server-filesystem ${files}`, "server"],
];

const options: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: [],
};

/** CPU time (user and system) as milliseconds. */
function ms(usage: NodeJS.CpuUsage): string {
  return `${((usage.user + usage.system) / 1000).toFixed(0)} ms`;
}

try {
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
  console.log(
    "source                tools  module  api.d.ts  list+emit (wall, CPU here)  compile (CPU)",
  );
  for (const [label, source, as] of sources) {
    const out = join(work, `${label.split(/[ ,]/)[0]}.ts`);
    const start = performance.now();
    const planCpu = process.cpuUsage();
    const plan = await planToolTypes({ source, as, out });
    const emitted = performance.now() - start;
    const planUsed = process.cpuUsage(planCpu);
    writeToolTypes(plan);
    const cpu = process.cpuUsage();
    const program = ts.createProgram(
      plan.files.map((f) => f.path),
      options,
    );
    const errors = ts.getPreEmitDiagnostics(program).length;
    const used = process.cpuUsage(cpu);
    const [module, api] = plan.files.map((f) => `${Math.round(f.contents.length / 1024)} KiB`);
    console.log(
      `${label.padEnd(21)} ${String(plan.tools.length).padStart(5)}  ${module!.padStart(6)}  ${api!.padStart(8)}  ${`${emitted.toFixed(0)} ms, ${ms(planUsed)}`.padStart(27)}  ${ms(used).padStart(13)}${errors > 0 ? `  ${errors} errors` : ""}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
