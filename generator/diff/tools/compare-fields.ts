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

export function compareAnnotations(
  tool: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): ToolChange[] {
  const a = isJsonObject(before) ? before : {};
  const b = isJsonObject(after) ? after : {};
  const out: ToolChange[] = [];
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (jsonEqual(a[key], b[key])) continue;
    const hint = RISKY_HINTS[key];
    const effective = (v: JsonValue | undefined) => (typeof v === "boolean" ? v : hint?.default);
    const riskier =
      hint !== undefined &&
      effective(a[key]) !== effective(b[key]) &&
      effective(b[key]) === hint.risky;
    out.push({
      tool,
      kind: "annotation-changed",
      detail: key,
      ...fromTo(a[key], b[key]),
      breaking: riskier ? ["clients"] : [],
      possiblyBreaking: [],
      reasons: riskier
        ? [
            `the tool is riskier to call now; clients that chose how to call it from ${key} are misled`,
          ]
        : [],
      summary: `annotation ${key} ${show(a[key])} -> ${show(b[key])}`,
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
  const a = isJsonObject(before) ? before : {};
  const b = isJsonObject(after) ? after : {};
  const out: ToolChange[] = [];
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (jsonEqual(a[key], b[key])) continue;
    const base = {
      tool,
      kind: "execution-changed" as const,
      detail: key,
      ...fromTo(a[key], b[key]),
    };
    const summary = `execution.${key} ${show(a[key])} -> ${show(b[key])}`;
    const modesA = CALL_MODES[typeof a[key] === "string" ? a[key] : "forbidden"];
    const modesB = CALL_MODES[typeof b[key] === "string" ? b[key] : "forbidden"];
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
