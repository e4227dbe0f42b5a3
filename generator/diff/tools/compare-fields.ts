/**
 * The fields of a tool besides its schemas whose change matters to a
 * caller: annotations (hints that make a tool riskier to call) and
 * execution (how a tool may be called: as a task or not).
 */
import { isJsonObject, jsonEqual, type JsonValue } from "../../load/json.js";
import { fromTo, order, show, type ToolChange } from "./tool-change.js";

/**
 * Hints that make a tool riskier to call when they turn: a client that
 * decided from the old hints (for example to call without asking) is
 * misled by the new ones. Defaults as the specification gives them.
 */
const RISKY_HINTS: Readonly<Record<string, { default: boolean; risky: boolean }>> = {
  readOnlyHint: { default: false, risky: false },
  destructiveHint: { default: true, risky: true },
  idempotentHint: { default: false, risky: false },
  openWorldHint: { default: true, risky: true },
};

/** Each key of two objects (either may be absent) whose value differs, in order, with both values. */
function changedKeys(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): Array<{ key: string; from: JsonValue | undefined; to: JsonValue | undefined }> {
  const a = isJsonObject(before) ? before : {};
  const b = isJsonObject(after) ? after : {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((key) => !jsonEqual(a[key], b[key]))
    .map((key) => ({ key, from: a[key], to: b[key] }));
}

export function compareAnnotations(
  tool: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): ToolChange[] {
  const out: ToolChange[] = [];
  for (const { key, from, to } of changedKeys(before, after)) {
    const hint = RISKY_HINTS[key];
    const effective = (v: JsonValue | undefined) => (typeof v === "boolean" ? v : hint?.default);
    const riskier =
      hint !== undefined && effective(from) !== effective(to) && effective(to) === hint.risky;
    out.push({
      tool,
      kind: "annotation-changed",
      detail: key,
      ...fromTo(from, to),
      breaking: riskier ? ["clients"] : [],
      possiblyBreaking: [],
      reasons: riskier
        ? [
            `the tool is riskier to call now; clients that chose how to call it from ${key} are misled`,
          ]
        : [],
      summary: `annotation ${key} ${show(from)} -> ${show(to)}`,
    });
  }
  return out;
}

/** The ways a tool may be called under each taskSupport: plainly, as a task, or both. */
const CALL_MODES: Readonly<Record<string, readonly string[]>> = {
  forbidden: ["plain"],
  optional: ["plain", "task"],
  required: ["task"],
};

export function compareExecution(
  tool: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): ToolChange[] {
  const out: ToolChange[] = [];
  for (const { key, from, to } of changedKeys(before, after)) {
    const base = {
      tool,
      kind: "execution-changed" as const,
      detail: key,
      ...fromTo(from, to),
    };
    const summary = `execution.${key} ${show(from)} -> ${show(to)}`;
    const modesA = CALL_MODES[typeof from === "string" ? from : "forbidden"];
    const modesB = CALL_MODES[typeof to === "string" ? to : "forbidden"];
    if (key !== "taskSupport" || !modesA || !modesB) {
      out.push({
        ...base,
        breaking: [],
        possiblyBreaking: ["clients", "servers"],
        reasons: [`execution.${key} has no rule in the diff`],
        summary,
      });
      continue;
    }
    // A mode clients used that is gone breaks them; a mode servers must now serve breaks servers.
    const lost = modesA.filter((m) => !modesB.includes(m));
    const gained = modesB.filter((m) => !modesA.includes(m));
    out.push({
      ...base,
      breaking: order([
        ...(lost.length ? ["clients" as const] : []),
        ...(gained.length ? ["servers" as const] : []),
      ]),
      possiblyBreaking: [],
      reasons: [
        ...lost.map(
          (m) => `clients can no longer call it ${m === "task" ? "as a task" : "without a task"}`,
        ),
        ...gained.map(
          (m) => `servers must now run it ${m === "task" ? "as a task" : "without a task"}`,
        ),
      ],
      summary,
    });
  }
  return out;
}
