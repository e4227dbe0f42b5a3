// Preloaded into a benchmarked node process (NODE_OPTIONS=--import): on
// exit, writes the process's peak resident set size (KiB) to the file named
// by MCP_GEN_BENCH_RSS_FILE. Node does not report a child's resource usage
// to its parent, so the child reports its own.
import { writeFileSync } from "node:fs";
import process from "node:process";

const file = process.env.MCP_GEN_BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
