// Preloaded into the CLI (node --import) by test/write/kill.test.ts: counts fs.renameSync calls and,
// at the one KILL_AT_RENAME names, sends the process KILL_SIGNAL (default SIGKILL) just before it
// (KILL_WHEN=before, the default) or just after it. RENAME_LOG, when set, gets one line per rename.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const at = Number(process.env.KILL_AT_RENAME ?? 0);
const signal = process.env.KILL_SIGNAL ?? "SIGKILL";
const when = process.env.KILL_WHEN ?? "before";
const log = process.env.RENAME_LOG;
const rename = fs.renameSync;
let count = 0;

fs.renameSync = function renameSync(from, to) {
  count += 1;
  if (log) fs.appendFileSync(log, `${String(from)}\t${String(to)}\n`);
  if (count === at && when === "before") process.kill(process.pid, signal);
  rename(from, to);
  if (count === at && when === "after") process.kill(process.pid, signal);
};
// ESM importers of node:fs see the wrapper too.
syncBuiltinESMExports();
