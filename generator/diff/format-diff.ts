/**
 * The text form of a {@link ModelDiff}, for people: one section per
 * category, a line per change, definition changes that read the same
 * grouped into one line, and the sides each change breaks.
 */
import type { Change, ChangeCategory, ModelDiff, Side } from "./diff.js";

const HEADINGS: Record<ChangeCategory, string> = {
  method: "Methods",
  notification: "Notifications",
  "result-type": "Result types",
  "error-code": "Error codes",
  capability: "Capabilities",
  definition: "Definitions",
};
const MARK: Record<Change["change"], string> = { added: "+", removed: "-", changed: "~" };
/** How many names a grouped line lists before it says how many more there are. */
const GROUP_NAMES = 12;

/** The diff as text, ending with a newline. */
export function formatDiff(diff: ModelDiff): string {
  const lines = [header(diff), ""];
  for (const category of Object.keys(HEADINGS) as ChangeCategory[]) {
    const changes = diff.changes.filter((c) => c.category === category);
    if (changes.length === 0) continue;
    lines.push(`${HEADINGS[category]} (${changes.length})`);
    lines.push(...(category === "definition" ? groupedLines(changes) : changes.map(changeLine)));
    lines.push("");
  }
  if (diff.changes.length === 0) lines.push("No differences.", "");
  lines.push(legend());
  return `${lines.join("\n")}\n`;
}

function header(diff: ModelDiff): string {
  const name = (side: ModelDiff["from"]) =>
    `${side.spec}${side.spec !== side.revision ? ` (${side.revision})` : ""}`;
  const extensions = diff.from.extensions.length ? ` with ${diff.from.extensions.join(", ")}` : "";
  const { changes, breakingServers, breakingClients } = diff.summary;
  return (
    `${name(diff.from)} -> ${name(diff.to)}${extensions}: ${changes} changes, ` +
    `${breakingServers} breaking for servers, ${breakingClients} breaking for clients`
  );
}

/** `+`, `-` or `~`; a property that becomes required or optional is changed, not added or removed. */
function mark(change: Change): string {
  return change.aspect === "required" ? MARK.changed : MARK[change.change];
}

function changeLine(change: Change): string {
  return `  ${mark(change)} ${change.subject}: ${change.summary}${breaks(change.breaking)}`;
}

/** Definition changes with the same wording and the same breaking sides share a line. */
function groupedLines(changes: readonly Change[]): string[] {
  const groups = new Map<string, { change: Change; subjects: string[] }>();
  for (const change of changes) {
    const key = `${change.change}|${change.summary}|${change.breaking.join(",")}`;
    const group = groups.get(key);
    if (group) group.subjects.push(change.subject);
    else groups.set(key, { change, subjects: [change.subject] });
  }
  return [...groups.values()].map(({ change, subjects }) => {
    if (subjects.length === 1) return changeLine(change);
    const shown = subjects.slice(0, GROUP_NAMES).join(", ");
    const more = subjects.length > GROUP_NAMES ? `, and ${subjects.length - GROUP_NAMES} more` : "";
    return `  ${mark(change)} ${change.summary} in ${subjects.length} definitions: ${shown}${more}${breaks(change.breaking)}`;
  });
}

function breaks(sides: readonly Side[]): string {
  return sides.length === 0 ? "" : `  [breaks ${sides.join(" and ")}]`;
}

function legend(): string {
  return (
    "+ added, - removed, ~ changed. [breaks servers] marks a change a server written for the old " +
    "side must adapt to (likewise clients); --json lists every change with its details."
  );
}
