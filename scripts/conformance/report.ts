/** The text report of a scored run; its last line is `conformance: N passed, M failed`. */
import { join } from "node:path";
import type { ScenarioRow, Summary } from "./results.js";
import { SUITE_PACKAGE } from "./suite.js";

/** A summary with the facts of the run it came from (what --json prints and summary.json holds). */
export interface Report extends Summary {
  suite: string;
  /** The server's URL, or the client's command. */
  target: string;
  node: string;
  out: string;
  scenario?: string;
  runnerExit: number | string;
  elapsedMs: number;
}

/** The report's lines: scored, deferred and unscored scenarios, totals, the conformance line. */
export function formatReport(report: Report): string[] {
  const width = Math.max(...report.scenarios.map((r) => r.name.length));
  const rows = (standing: ScenarioRow["standing"]) =>
    report.scenarios.filter((r) => r.standing === standing);
  const scored = rows("scored");
  const deferred = rows("deferred");
  const unscored = rows("unscored");
  const details = report.scenario !== undefined; // one scenario asked for: show its failures even if unscored
  const what = report.leg === "server" ? "url" : "command";
  const lines = [
    `MCP ${report.leg} conformance: ${SUITE_PACKAGE}@${report.suite}, requirements ${report.requirements}${report.scenario ? `, scenario ${report.scenario}` : ""}`,
    `${what}: ${report.target}   node: ${report.node}   results: ${report.out}`,
    "",
    `Scored (required by ${report.requirements}):`,
    ...scored.flatMap((r) => formatRow(r, width, true)),
  ];
  if (scored.length === 0) lines.push("  (none)");
  if (deferred.length > 0)
    lines.push(
      "",
      "Deferred (required, counted apart, not failing this run):",
      ...deferred.flatMap((r) => formatRow(r, width, false)),
    );
  if (unscored.length > 0)
    lines.push(
      "",
      "Not scored (run and shown only):",
      ...unscored.flatMap((r) => formatRow(r, width, details)),
    );
  const scoredFailed = scored.filter((r) => r.failed > 0).length;
  lines.push(
    "",
    `scenarios: ${scored.length - scoredFailed}/${scored.length} scored passed; not scored: ${unscored.filter((r) => r.ran).length} run, ${unscored.filter((r) => r.failed > 0).length} failing`,
  );
  if (deferred.length > 0) {
    const passing = deferred.filter((r) => r.failed === 0).length;
    lines.push(
      `deferred: ${passing}/${deferred.length} scenarios passed, ${report.deferred.passed} checks passed, ${report.deferred.failed} failed`,
    );
  }
  lines.push(
    `warnings in scored scenarios: ${report.warnings}; suite exit: ${report.runnerExit}; ${(report.elapsedMs / 1000).toFixed(1)} s`,
  );
  if (report.runnerExit !== 0 && report.failed === 0 && !details && deferred.length === 0) {
    lines.push(
      `note: the suite exited with ${report.runnerExit} although no scored check failed; see ${join(report.out, "runner.log")}`,
    );
  }
  lines.push(`conformance: ${report.passed} passed, ${report.failed} failed`);
  return lines;
}

/** `  PASS name  n passed, m failed` and, when asked, one line per failing check. */
function formatRow(row: ScenarioRow, width: number, withFailures: boolean): string[] {
  const failing = row.failed > 0 || (row.standing === "unscored" && !row.ran);
  const label =
    row.standing === "unscored" ? (failing ? "fail" : "pass") : failing ? "FAIL" : "PASS";
  const counts = row.ran
    ? `${row.passed} passed, ${row.failed} failed${row.warnings ? `, ${row.warnings} warning${row.warnings === 1 ? "" : "s"}` : ""}`
    : `no results${row.standing === "unscored" ? "" : " (1 failed)"}`;
  const lines = [
    `  ${label} ${row.name.padEnd(width)}  ${counts}${row.reason ? `  [${row.reason}]` : ""}`,
  ];
  if (withFailures)
    lines.push(...row.failures.map((f) => `       - ${f.id}: ${oneLine(f.message)}`));
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
