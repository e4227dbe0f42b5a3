/** The catalog's diagnostics of one stage: Writing output (5xx). */
import { entry } from "./entry.js";

export const WRITE_DIAGNOSTICS = {
  MCPG501: entry<{ dir: string; foreign: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `refusing to write into ${p.dir}: it holds files mcp-gen did not write (${p.foreign.slice(0, 5).join(", ")}${p.foreign.length > 5 ? ", ..." : ""})`,
    fix: () => "choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it",
  }),
  MCPG502: entry<{ path: string }>({
    severity: "error",
    message: (p) => `output path ${p.path} escapes the output folder`,
    fix: () => "emitted paths must be relative and stay inside --out",
  }),
  MCPG503: entry<{ file: string; state: "stale" | "missing" | "extra" }>({
    severity: "error",
    message: (p) => `${p.file} is ${p.state}`,
    fix: () =>
      "run the regenerate command in the file banner (npm run generate in this repository)",
  }),
  MCPG504: entry<{ dir: string; reason: string }>({
    severity: "error",
    message: (p) => `cannot write ${p.dir}: ${p.reason}`,
    fix: () => "choose an --out folder inside a folder you can write to",
  }),
  MCPG505: entry<{ dir: string; paths: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `refusing to write ${p.dir}: read-only: ${p.paths.slice(0, 5).join(", ")}${p.paths.length > 5 ? ", ..." : ""} (nothing was written)`,
    fix: () => "make them writable (chmod u+w), or choose another --out",
  }),
  MCPG506: entry<{ dir: string; pid: number }>({
    severity: "error",
    message: (p) => `another mcp-gen (process ${p.pid}) is writing ${p.dir} right now`,
    fix: (p) =>
      `wait until it is done; if no process ${p.pid} runs any more, delete ${p.dir}.mcp-gen-lock`,
  }),
  MCPG507: entry<{ path: string }>({
    severity: "note",
    message: (p) => `removed ${p.path}, left by an interrupted run`,
  }),
} as const;
