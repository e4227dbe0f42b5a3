/**
 * The text form of a tool diff, for people: changes grouped by whom they
 * break (both, clients, servers, possibly, nobody), a line per change with
 * its tool, and the reasons under each breaking one.
 */
import type { ToolChange } from "./compare.js";
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
    test: (c) => c.breaking.length === 0 && c.possiblyBreaking.length > 0,
    reasons: true,
  },
  {
    heading: "Not breaking",
    test: (c) => c.breaking.length === 0 && c.possiblyBreaking.length === 0,
    reasons: false,
  },
];

/** The diff as text, ending with a newline. */
export function formatToolDiff(diff: ToolDiff): string {
  const { summary } = diff;
  const lines = [
    `${diff.from.source} (${tools(diff.from.tools)}) -> ${diff.to.source} (${tools(diff.to.tools)}): ` +
      `${summary.changes} changes, ${summary.breakingClients} breaking for clients, ` +
      `${summary.breakingServers} breaking for servers, ${summary.possiblyBreaking} possibly breaking`,
    "",
  ];
  for (const group of GROUPS) {
    const changes = diff.changes.filter(group.test);
    if (changes.length === 0) continue;
    lines.push(`${group.heading} (${changes.length})`);
    for (const change of changes) {
      const also =
        change.breaking.length > 0 && change.possiblyBreaking.length > 0
          ? `  [possibly also ${change.possiblyBreaking.join(", ")}]`
          : change.breaking.length === 0 && change.possiblyBreaking.length > 0
            ? `  [${change.possiblyBreaking.join(", ")}]`
            : "";
      lines.push(`  ${change.tool}: ${change.summary}${also}`);
      if (group.reasons) for (const reason of change.reasons) lines.push(`      ${reason}`);
    }
    lines.push("");
  }
  if (diff.changes.length === 0) lines.push("No differences.", "");
  return `${lines.join("\n")}\n`;
}

function tools(count: number): string {
  return `${count} tool${count === 1 ? "" : "s"}`;
}
