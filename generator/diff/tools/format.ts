/**
 * The text form of a tool diff, for people: changes grouped by whom they
 * break (both, clients, servers, possibly, nobody) with documentation
 * changes apart, a line per change with its tool, the reasons under each
 * breaking one, any value too long for its line shown whole below it, and
 * the suggested version bump last.
 */
import { isJsonObject, jsonEqual } from "../../load/json.js";
import type { ToolChange } from "./compare.js";
import { jsonLineDiff } from "./json-diff.js";
import { fitsALine } from "./tool-change.js";
import type { ToolDiff } from "./tool-diff.js";

interface Group {
  readonly heading: string;
  readonly test: (c: ToolChange) => boolean;
  readonly reasons: boolean;
}

const has = (list: readonly string[], party: string) => list.includes(party);
const GROUPS: readonly Group[] = [
  {
    heading: "Breaking for clients and servers",
    test: (c) => has(c.breaking, "clients") && has(c.breaking, "servers"),
    reasons: true,
  },
  {
    heading: "Breaking for clients",
    test: (c) => has(c.breaking, "clients") && !has(c.breaking, "servers"),
    reasons: true,
  },
  {
    heading: "Breaking for servers",
    test: (c) => has(c.breaking, "servers") && !has(c.breaking, "clients"),
    reasons: true,
  },
  {
    heading: "Possibly breaking (not decided; treated as breaking by --fail-on)",
    test: (c) => c.class === "possibly-breaking",
    reasons: true,
  },
  {
    heading: "Documentation (titles and descriptions a model reads; --fail-on documentation)",
    test: (c) => c.class === "documentation",
    reasons: false,
  },
  {
    heading: "Not breaking",
    test: (c) => c.class === "compatible",
    reasons: false,
  },
];

/** The diff as text, ending with a newline. */
export function formatToolDiff(diff: ToolDiff): string {
  const { summary } = diff;
  const lines = [
    `${diff.from.source} (${tools(diff.from.tools)}) -> ${diff.to.source} (${tools(diff.to.tools)}): ` +
      `${summary.changes} change${summary.changes === 1 ? "" : "s"}, ${summary.breakingClients} breaking for clients, ` +
      `${summary.breakingServers} breaking for servers, ${summary.possiblyBreaking} possibly breaking, ` +
      `${summary.documentation} documentation`,
    "",
  ];
  for (const group of GROUPS) {
    const changes = diff.changes.filter(group.test);
    if (changes.length === 0) continue;
    lines.push(`${group.heading} (${changes.length})`);
    for (const change of changes) {
      lines.push(`  ${change.tool}: ${change.summary}${partiesNote(change)}`);
      if (group.reasons) for (const reason of change.reasons) lines.push(`      ${reason}`);
      lines.push(...valuesBelow(change).map((l) => `      ${l}`));
    }
    lines.push("");
  }
  if (diff.changes.length === 0) lines.push("No differences.", "");
  const bump = diff.suggestedBump;
  lines.push(`Suggested version bump: ${bump.level} (${bump.reason})`);
  return `${lines.join("\n")}\n`;
}

/** `  [possibly also servers]` or `  [clients, servers]`: who a change may break, beside whom it does. */
function partiesNote(change: ToolChange): string {
  if (change.possiblyBreaking.length === 0) return "";
  return change.breaking.length > 0
    ? `  [possibly also ${change.possiblyBreaking.join(", ")}]`
    : `  [${change.possiblyBreaking.join(", ")}]`;
}

/** Changes whose summary says what changed without quoting the values. */
const NAMED_ONLY = new Set([
  "tool-renamed",
  "property-added",
  "property-removed",
  "output-schema-added",
  "output-schema-removed",
]);
/** Changes whose summary quotes the keywords that differ, each as {@link show} gives it. */
const BY_KEYWORD = new Set(["schema-changed", "type-changed"]);

/**
 * The old and new values of a change whose summary could not hold them
 * (show() put "(shown below)" there): a line diff of the two, whole.
 */
function valuesBelow(change: ToolChange): string[] {
  if (NAMED_ONLY.has(change.kind)) return [];
  const { from, to } = change;
  const long =
    BY_KEYWORD.has(change.kind) && isJsonObject(from) && isJsonObject(to)
      ? [...new Set([...Object.keys(from), ...Object.keys(to)])].some(
          (k) => !jsonEqual(from[k], to[k]) && (!fitsALine(from[k]) || !fitsALine(to[k])),
        )
      : !fitsALine(from) || !fitsALine(to);
  if (!long) return [];
  return [
    `${change.from === undefined ? "" : "- old"}${change.from !== undefined && change.to !== undefined ? ", " : ""}${change.to === undefined ? "" : "+ new"}:`,
    ...jsonLineDiff(change.from, change.to),
  ];
}

function tools(count: number): string {
  return `${count} tool${count === 1 ? "" : "s"}`;
}
