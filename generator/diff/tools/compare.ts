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
import { followRef, propertySchema, subsumes, type Rooted, type Verdict } from "./subsume.js";
import type { ToolSide } from "./load.js";

/** Who a change may break. */
export type Party = "clients" | "servers";

/** What kind of change it is (stable names, listed in schema/tool-diff.schema.json). */
export type ToolChangeKind =
  | "tool-added"
  | "tool-removed"
  | "tool-renamed"
  | "title-changed"
  | "description-changed"
  | "property-added"
  | "property-removed"
  | "property-required"
  | "property-optional"
  | "enum-value-added"
  | "enum-value-removed"
  | "type-changed"
  | "schema-changed"
  | "additional-properties-changed"
  | "output-schema-added"
  | "output-schema-removed"
  | "annotation-changed"
  | "execution-changed"
  | "other-changed";

/** One change of one tool. */
export interface ToolChange {
  readonly tool: string;
  readonly kind: ToolChangeKind;
  /** For a change inside a schema: which one. */
  readonly schema?: "input" | "output";
  /** For a change inside a schema: the JSON pointer of the schema that changed ("" for the whole). */
  readonly path?: string;
  /** The property, enum value (as JSON), annotation or field the change concerns. */
  readonly detail?: string;
  readonly from?: JsonValue;
  readonly to?: JsonValue;
  readonly breaking: readonly Party[];
  /** Sides subsumption could not clear: treat as breaking unless a person says otherwise. */
  readonly possiblyBreaking: readonly Party[];
  /** Why it breaks, or why it could not be decided. */
  readonly reasons: readonly string[];
  /** One line for people, without the tool's name. */
  readonly summary: string;
}

/** Everything that changed between two tool lists. */
export function compareTools(before: ToolSide, after: ToolSide): ToolChange[] {
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
    out.push(...compareTool(newName, before.tools.get(oldName)!, after.tools.get(newName)!));
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
    if (after.tools.has(name)) out.push(...compareTool(name, tool, after.tools.get(name)!));
  return out.sort(byPosition);
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
  const candidates = (name: string, side: ToolSide, others: readonly string[], from: ToolSide) =>
    others.filter((o) => shape(from.tools.get(o)!) === shape(side.tools.get(name)!));
  const renames = new Map<string, string>();
  for (const oldName of removed) {
    if (!distinctive(before.tools.get(oldName)!)) continue;
    const matches = candidates(oldName, before, added, after);
    if (matches.length !== 1) continue;
    if (candidates(matches[0]!, after, removed, before).length === 1)
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
export function compareTool(name: string, before: JsonObject, after: JsonObject): ToolChange[] {
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
        summary: `${field} changed`,
      });
  const inputBefore = before.inputSchema ?? { type: "object" };
  const inputAfter = after.inputSchema ?? { type: "object" };
  compareSchema(
    { schema: inputBefore, root: inputBefore },
    { schema: inputAfter, root: inputAfter },
    { tool: name, schema: "input", path: "", out },
  );
  out.push(...compareOutput(name, before.outputSchema, after.outputSchema));
  out.push(...compareAnnotations(name, before.annotations, after.annotations));
  out.push(...compareExecution(name, before.execution, after.execution));
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (!STRUCTURED.has(field) && !jsonEqual(before[field], after[field]))
      out.push(otherField(name, field, before[field], after[field]));
  return out;
}

function fromTo(
  from: JsonValue | undefined,
  to: JsonValue | undefined,
): { from?: JsonValue; to?: JsonValue } {
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
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
    { tool, schema: "output", path: "", out },
  );
  return out;
}

/** Where a schema comparison is, and where its changes go. */
interface SchemaPlace {
  readonly tool: string;
  readonly schema: "input" | "output";
  readonly path: string;
  readonly out: ToolChange[];
}

/** Who sends the values of a schema, and who receives them. */
function partiesOf(schema: "input" | "output"): { sender: Party; receiver: Party } {
  return schema === "input"
    ? { sender: "clients", receiver: "servers" }
    : { sender: "servers", receiver: "clients" };
}

/**
 * Walks two schemas side by side: object properties and array items are
 * followed, enum values are compared one by one, and anything else that
 * differs is one change judged by subsumption.
 */
function compareSchema(before: Rooted, after: Rooted, place: SchemaPlace): void {
  const old = followRef(before);
  const now = followRef(after);
  const a = stripAnnotations(old.schema);
  const b = stripAnnotations(now.schema);
  if (jsonEqual(a, b) && (onlyLocal(a) || jsonEqual(old.root, now.root))) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    if (isPlainObjectSchema(a) && isPlainObjectSchema(b))
      return compareObjectSchemas({ ...old, schema: a }, { ...now, schema: b }, place);
    if (Array.isArray(a.enum) && Array.isArray(b.enum) && onlyDiffersIn(a, b, ["enum"]))
      return compareEnums(a.enum, b.enum, place);
    if (isJsonObject(a.items) && isJsonObject(b.items) && onlyDiffersIn(a, b, ["items"]))
      return compareSchema(
        { schema: a.items, root: old.root },
        { schema: b.items, root: now.root },
        { ...place, path: `${place.path}/items` },
      );
  }
  place.out.push(judged(place, old, now, genericKind(a, b), describeDifference(a, b)));
}

/** A schema without `$ref`s compares the same in any document. */
function onlyLocal(schema: JsonValue): boolean {
  return !JSON.stringify(schema).includes('"$ref"');
}

/** An object schema the walker can follow property by property (no unions, no refs beside it). */
function isPlainObjectSchema(s: JsonObject): boolean {
  const objectTyped = s.type === "object" || (s.type === undefined && isJsonObject(s.properties));
  return (
    objectTyped &&
    ["anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not", "if"].every((k) => !(k in s))
  );
}

function onlyDiffersIn(a: JsonObject, b: JsonObject, keys: readonly string[]): boolean {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every(
    (k) => keys.includes(k) || jsonEqual(a[k], b[k]),
  );
}

/** Properties, required-ness and additionalProperties, each its own change; the rest judged as a whole. */
function compareObjectSchemas(old: Rooted, now: Rooted, place: SchemaPlace): void {
  const a = old.schema as JsonObject;
  const b = now.schema as JsonObject;
  const propsA = isJsonObject(a.properties) ? a.properties : {};
  const propsB = isJsonObject(b.properties) ? b.properties : {};
  const reqA = names(a.required);
  const reqB = names(b.required);
  const { sender, receiver } = partiesOf(place.schema);
  const at = (name: string) => `${place.path}/properties/${pointerSegment(name)}`;
  for (const name of Object.keys(propsB).filter((n) => !Object.hasOwn(propsA, n))) {
    const required = reqB.includes(name);
    place.out.push({
      ...placed(place, at(name)),
      kind: "property-added",
      detail: name,
      to: propsB[name]!,
      breaking: required ? [sender] : [],
      possiblyBreaking: [],
      reasons: required ? [`${sender} must now send ${name}`] : [],
      summary: `${required ? "required" : "optional"} ${label(place.schema)} ${name} added`,
    });
  }
  for (const name of Object.keys(propsA).filter((n) => !Object.hasOwn(propsB, n)))
    place.out.push(removedProperty(place, at(name), name, old, now, reqA.includes(name)));
  for (const name of Object.keys(propsA).filter((n) => Object.hasOwn(propsB, n))) {
    if (!reqA.includes(name) && reqB.includes(name))
      place.out.push(requiredness(place, at(name), name, "property-required", sender));
    if (reqA.includes(name) && !reqB.includes(name))
      place.out.push(requiredness(place, at(name), name, "property-optional", receiver));
    compareSchema(
      { schema: propsA[name]!, root: old.root },
      { schema: propsB[name]!, root: now.root },
      { ...place, path: at(name) },
    );
  }
  for (const name of reqB.filter((n) => !reqA.includes(n) && !Object.hasOwn(propsB, n)))
    place.out.push(requiredness(place, place.path, name, "property-required", sender));
  if (!jsonEqual(a.additionalProperties, b.additionalProperties))
    place.out.push(
      judged(
        place,
        { schema: a.additionalProperties ?? true, root: old.root },
        { schema: b.additionalProperties ?? true, root: now.root },
        "additional-properties-changed",
        `additionalProperties ${show(a.additionalProperties)} -> ${show(b.additionalProperties)}`,
      ),
    );
  const restA = withoutKeys(a, OBJECT_WALKED);
  const restB = withoutKeys(b, OBJECT_WALKED);
  if (!jsonEqual(restA, restB))
    place.out.push(
      judged(
        place,
        { ...old, schema: restA },
        { ...now, schema: restB },
        "schema-changed",
        describeDifference(restA, restB),
      ),
    );
}

/** Keywords the object walk follows itself; `$defs` are compared where a `$ref` reaches them. */
const OBJECT_WALKED = ["properties", "required", "additionalProperties", "$defs", "definitions"];

/** A property gone: its receivers break when it was required; senders when it is now refused. */
function removedProperty(
  place: SchemaPlace,
  path: string,
  name: string,
  old: Rooted,
  now: Rooted,
  wasRequired: boolean,
): ToolChange {
  const { sender, receiver } = partiesOf(place.schema);
  const stillAccepted = subsumes(
    { schema: propertySchema(now.schema as JsonObject, name), root: now.root },
    { schema: propertySchema(old.schema as JsonObject, name), root: old.root },
  );
  const breaking: Party[] = wasRequired ? [receiver] : [];
  const possibly: Party[] = [];
  const reasons = wasRequired ? [`${receiver} may rely on ${name}, which was required`] : [];
  if (stillAccepted.result === "no") {
    breaking.push(sender);
    reasons.push(`${sender} that still send ${name} are refused: ${stillAccepted.reason}`);
  } else if (stillAccepted.result === "unknown") {
    possibly.push(sender);
    reasons.push(`whether ${name} is still accepted is not decided: ${stillAccepted.reason}`);
  }
  return {
    ...placed(place, path),
    kind: "property-removed",
    detail: name,
    from: propertySchema(old.schema as JsonObject, name),
    breaking: order(breaking),
    possiblyBreaking: possibly,
    reasons,
    summary: `${wasRequired ? "required" : "optional"} ${label(place.schema)} ${name} removed`,
  };
}

function requiredness(
  place: SchemaPlace,
  path: string,
  name: string,
  kind: "property-required" | "property-optional",
  broken: Party,
): ToolChange {
  const required = kind === "property-required";
  return {
    ...placed(place, path),
    kind,
    detail: name,
    breaking: [broken],
    possiblyBreaking: [],
    reasons: [
      required
        ? `${broken} must now send ${name}`
        : `${broken} may no longer get ${name}, which was required`,
    ],
    summary: `${label(place.schema)} ${name} is now ${required ? "required" : "optional"}`,
  };
}

/** Enum values one by one: a value removed breaks senders, a value added breaks receivers. */
function compareEnums(before: JsonValue[], after: JsonValue[], place: SchemaPlace): void {
  const { sender, receiver } = partiesOf(place.schema);
  const has = (list: JsonValue[], v: JsonValue) => list.some((w) => jsonEqual(v, w));
  for (const value of before.filter((v) => !has(after, v)))
    place.out.push({
      ...placed(place, place.path),
      kind: "enum-value-removed",
      detail: JSON.stringify(value),
      from: value,
      breaking: [sender],
      possiblyBreaking: [],
      reasons: [`${sender} that send ${JSON.stringify(value)} are refused`],
      summary: `enum value ${JSON.stringify(value)} removed${where(place)}`,
    });
  for (const value of after.filter((v) => !has(before, v)))
    place.out.push({
      ...placed(place, place.path),
      kind: "enum-value-added",
      detail: JSON.stringify(value),
      to: value,
      breaking: [receiver],
      possiblyBreaking: [],
      reasons: [`${receiver} may now get ${JSON.stringify(value)}, which they do not know`],
      summary: `enum value ${JSON.stringify(value)} added${where(place)}`,
    });
}

/** One change judged by subsumption in both directions. */
function judged(
  place: SchemaPlace,
  old: Rooted,
  now: Rooted,
  kind: ToolChangeKind,
  what: string,
): ToolChange {
  const { sender, receiver } = partiesOf(place.schema);
  const breaking: Party[] = [];
  const possibly: Party[] = [];
  const reasons: string[] = [];
  const weigh = (party: Party, verdict: Verdict, refused: string, undecided: string) => {
    if (verdict.result === "no") {
      breaking.push(party);
      reasons.push(refused.replace("%", verdict.reason));
    } else if (verdict.result === "unknown") {
      possibly.push(party);
      reasons.push(`${undecided}: ${verdict.reason}`);
    }
  };
  // Senders need every old value to stay valid; receivers need no new value they did not expect.
  weigh(
    sender,
    subsumes(now, old),
    `${sender} may send %, which the new schema refuses`,
    `not decided whether the new schema accepts all ${sender} sent`,
  );
  weigh(
    receiver,
    subsumes(old, now),
    `${receiver} may now get %, which the old schema refused`,
    `not decided whether ${receiver} may now get what the old schema refused`,
  );
  return {
    ...placed(place, place.path),
    kind,
    from: old.schema,
    to: now.schema,
    breaking: order(breaking),
    possiblyBreaking: order(possibly),
    reasons,
    summary: `${what}${where(place)}`,
  };
}

function genericKind(a: JsonValue, b: JsonValue): ToolChangeKind {
  return isJsonObject(a) && isJsonObject(b) && onlyDiffersIn(a, b, ["type"])
    ? "type-changed"
    : "schema-changed";
}

/** The keywords that differ, for the summary: `type "string" -> "integer"`, `maximum 100 -> 10`. */
function describeDifference(a: JsonValue, b: JsonValue): string {
  if (!isJsonObject(a) || !isJsonObject(b)) return `schema ${show(a)} -> ${show(b)}`;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => !jsonEqual(a[k], b[k]),
  );
  return keys
    .map((k) => {
      if (!(k in a)) return `${k} ${show(b[k])} added`;
      if (!(k in b)) return `${k} ${show(a[k])} removed`;
      return `${k} ${show(a[k])} -> ${show(b[k])}`;
    })
    .join(", ");
}

/** A value for a summary line, cut short when long. */
function show(value: JsonValue | undefined): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function placed(place: SchemaPlace, path: string): Pick<ToolChange, "tool" | "schema" | "path"> {
  return { tool: place.tool, schema: place.schema, path };
}

/** " in argument mode" / " in output count": where inside the schema a change is. */
function where(place: SchemaPlace): string {
  const segments = place.path.split("/").filter((s) => s !== "" && s !== "properties");
  const shown = segments.map((s) => (s === "items" ? "[]" : s)).join(".");
  return shown === "" ? ` in the ${label(place.schema)}s` : ` in ${label(place.schema)} ${shown}`;
}

function label(schema: "input" | "output"): string {
  return schema === "input" ? "argument" : "output";
}

function names(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function withoutKeys(schema: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k)));
}

function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Parties in a fixed order, so the same inputs give the same bytes. */
function order(parties: readonly Party[]): Party[] {
  return (["clients", "servers"] as const).filter((p) => parties.includes(p));
}

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

function compareAnnotations(
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

function compareExecution(
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
