/**
 * Compares two tool lists and classifies every change.
 *
 * A change is breaking for clients when a client written against the old
 * list may fail against the new one, and breaking for servers when a server
 * that implements the old list no longer implements the new one. Arguments
 * (inputSchema) are sent by clients and received by servers; structured
 * results (outputSchema) the other way round. So for a schema change the
 * sender is safe when the new schema accepts everything the old one did,
 * and the receiver is safe when the old schema accepts everything the new
 * one does; both questions are answered by subsumption (subsume.ts), and an
 * undecided answer makes the change "possibly breaking", never safe.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { stripAnnotations } from "../compare-schemas.js";
import { compareDocumentation } from "./compare-docs.js";
import { compareAnnotations, compareExecution } from "./compare-fields.js";
import { compareSchema } from "./compare-schema.js";
import type { ToolSide } from "./load.js";
import { classOf, fromTo, fromToText, type ToolChange } from "./tool-change.js";

export type {
  ChangeClass,
  Counterexample,
  Party,
  ToolChange,
  ToolChangeKind,
} from "./tool-change.js";

/** How a comparison runs. */
export interface CompareOptions {
  /**
   * Search for counterexamples (default true): a value one schema accepts
   * and the other refuses, shown with the change, and deciding a change
   * subsumption could not. Off only to measure what the search adds.
   */
  readonly counterexamples?: boolean;
}

/** Everything that changed between two tool lists, each change with its class. */
export function compareTools(
  before: ToolSide,
  after: ToolSide,
  options: CompareOptions = {},
): ToolChange[] {
  const out: ToolChange[] = [];
  const removed = [...before.tools.keys()].filter((n) => !after.tools.has(n));
  const added = [...after.tools.keys()].filter((n) => !before.tools.has(n));
  const renames = findRenames(removed, added, before, after);
  for (const [oldName, newName] of renames) {
    out.push({
      tool: newName,
      kind: "tool-renamed",
      from: oldName,
      to: newName,
      breaking: ["clients", "servers"],
      possiblyBreaking: [],
      reasons: [
        `clients call it as ${oldName}, which is gone`,
        `a server of the old list does not answer to ${newName}`,
      ],
      summary: `renamed from ${oldName} (same arguments and result)`,
    });
    out.push(
      ...compareTool(newName, before.tools.get(oldName)!, after.tools.get(newName)!, options),
    );
  }
  const renamedOld = new Set(renames.keys());
  const renamedNew = new Set(renames.values());
  for (const name of removed.filter((n) => !renamedOld.has(n)))
    out.push({
      tool: name,
      kind: "tool-removed",
      breaking: ["clients"],
      possiblyBreaking: [],
      reasons: ["clients that call it get an unknown-tool error"],
      summary: "removed",
    });
  for (const name of added.filter((n) => !renamedNew.has(n)))
    out.push({
      tool: name,
      kind: "tool-added",
      breaking: ["servers"],
      possiblyBreaking: [],
      reasons: ["a server of the old list does not implement it"],
      summary: "added",
    });
  for (const [name, tool] of before.tools)
    if (after.tools.has(name))
      out.push(...compareTool(name, tool, after.tools.get(name)!, options));
  return out.sort(byPosition).map((change) => ({ ...change, class: classOf(change) }));
}

/**
 * A removed tool and an added one with the same arguments and result are a
 * rename, when neither could pair with another: shape, not name, decides.
 */
function findRenames(
  removed: readonly string[],
  added: readonly string[],
  before: ToolSide,
  after: ToolSide,
): Map<string, string> {
  // An empty argument list and no result is no evidence: two such tools are not called a rename.
  const distinctive = (tool: JsonObject) =>
    tool.outputSchema !== undefined ||
    (isJsonObject(tool.inputSchema) &&
      isJsonObject(tool.inputSchema.properties) &&
      Object.keys(tool.inputSchema.properties).length > 0);
  const shape = (tool: JsonObject) =>
    JSON.stringify([
      stripAnnotations(tool.inputSchema ?? null),
      stripAnnotations(tool.outputSchema ?? null),
    ]);
  // Each tool's shape once, and the tools of a side by shape: finding a tool's counterparts is a
  // lookup, so thousands of removed and added tools cost linear time, not a shape per pair.
  const byShape = (names: readonly string[], side: ToolSide) => {
    const groups = new Map<string, string[]>();
    const shapes = new Map<string, string>();
    for (const name of names) {
      const key = shape(side.tools.get(name)!);
      shapes.set(name, key);
      const group = groups.get(key);
      if (group) group.push(name);
      else groups.set(key, [name]);
    }
    return { groups, shapes };
  };
  const gone = byShape(removed, before);
  const come = byShape(added, after);
  const renames = new Map<string, string>();
  for (const oldName of removed) {
    if (!distinctive(before.tools.get(oldName)!)) continue;
    const key = gone.shapes.get(oldName)!;
    const matches = come.groups.get(key) ?? [];
    // A rename only when each side has exactly one tool of this shape.
    if (matches.length === 1 && gone.groups.get(key)!.length === 1)
      renames.set(oldName, matches[0]!);
  }
  return renames;
}

/** The order of changes: by tool, then where in it, then kind and detail. */
function byPosition(a: ToolChange, b: ToolChange): number {
  const key = (c: ToolChange) => [
    c.tool,
    c.schema === undefined ? "0" : c.schema === "input" ? "1" : "2",
    c.path ?? "",
    c.kind,
    c.detail ?? "",
  ];
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/** Fields of a tool that only describe it. */
const DESCRIPTIVE = new Set(["title", "description", "icons", "_meta"]);
/** Fields compared on their own. */
const STRUCTURED = new Set([
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "execution",
]);

/** The changes of one tool present on both sides. */
export function compareTool(
  name: string,
  before: JsonObject,
  after: JsonObject,
  options: CompareOptions = {},
): ToolChange[] {
  const search = options.counterexamples ?? true;
  const out: ToolChange[] = [];
  for (const field of ["title", "description"] as const)
    if (!jsonEqual(before[field], after[field]))
      out.push({
        tool: name,
        kind: field === "title" ? "title-changed" : "description-changed",
        ...fromTo(before[field], after[field]),
        breaking: [],
        possiblyBreaking: [],
        reasons: [],
        summary: `${field} changed${fromToText(before[field], after[field])}`,
      });
  const inputBefore = before.inputSchema ?? { type: "object" };
  const inputAfter = after.inputSchema ?? { type: "object" };
  compareSchema(
    { schema: inputBefore, root: inputBefore },
    { schema: inputAfter, root: inputAfter },
    { tool: name, schema: "input", path: "", out, search },
  );
  out.push(...compareDocumentation(name, "input", before.inputSchema, after.inputSchema));
  out.push(...compareOutput(name, before.outputSchema, after.outputSchema, search));
  out.push(...compareDocumentation(name, "output", before.outputSchema, after.outputSchema));
  out.push(...compareAnnotations(name, before.annotations, after.annotations));
  out.push(...compareExecution(name, before.execution, after.execution));
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (!STRUCTURED.has(field) && !jsonEqual(before[field], after[field]))
      out.push(otherField(name, field, before[field], after[field]));
  return out;
}

/** A field the diff has no rule for: descriptive ones break nobody, others might. */
function otherField(
  tool: string,
  field: string,
  from: JsonValue | undefined,
  to: JsonValue | undefined,
): ToolChange {
  const descriptive = DESCRIPTIVE.has(field);
  return {
    tool,
    kind: "other-changed",
    detail: field,
    ...fromTo(from, to),
    breaking: [],
    possiblyBreaking: descriptive ? [] : ["clients", "servers"],
    reasons: descriptive ? [] : [`the field ${field} has no rule in the diff`],
    summary: `${field} ${from === undefined ? "added" : to === undefined ? "removed" : "changed"}`,
  };
}

function compareOutput(
  tool: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  search: boolean,
): ToolChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined)
    return [
      {
        tool,
        kind: "output-schema-added",
        schema: "output",
        path: "",
        to: after!,
        breaking: ["servers"],
        possiblyBreaking: [],
        reasons: ["a server must now return structuredContent that matches it"],
        summary: "outputSchema added: results now carry structuredContent",
      },
    ];
  if (after === undefined)
    return [
      {
        tool,
        kind: "output-schema-removed",
        schema: "output",
        path: "",
        from: before,
        breaking: ["clients"],
        possiblyBreaking: [],
        reasons: ["clients that read structuredContent may no longer get it"],
        summary: "outputSchema removed: results need not carry structuredContent",
      },
    ];
  const out: ToolChange[] = [];
  compareSchema(
    { schema: before, root: before },
    { schema: after, root: after },
    { tool, schema: "output", path: "", out, search },
  );
  return out;
}
