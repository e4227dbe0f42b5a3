/**
 * One change between two tool lists: its kind, the parties it may break,
 * and the small helpers that keep its summary and order stable.
 */
import type { JsonObject, JsonValue } from "../../load/json.js";

/** `: "old" -> "new"` for a summary when both values fit a line; else nothing (the report shows them below). */
export function fromToText(from: JsonValue | undefined, to: JsonValue | undefined): string {
  return fitsALine(from) && fitsALine(to) ? `: ${show(from)} -> ${show(to)}` : "";
}

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

/**
 * A value that shows a change breaks someone: the schema of one side
 * accepts it, the other's refuses it (both checked by ajv).
 */
export interface Counterexample {
  /** Who it breaks: for arguments, clients when the old schema accepts it, servers when the new one does. */
  readonly party: Party;
  /** The side whose schema accepts the value; the other side's refuses it. */
  readonly acceptedBy: "old" | "new";
  /** The value, at the change's `path` within its schema. */
  readonly value: JsonValue;
}

/**
 * What a change is, for a gate and a reader: it breaks someone; it may
 * (not decided); it changes only what a model reads (titles and
 * descriptions of the tool, its arguments and output); or it is
 * compatible.
 */
export type ChangeClass = "breaking" | "possibly-breaking" | "documentation" | "compatible";

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
  /** Values that show the breakage, one per party at most, where the search found one. */
  readonly counterexamples?: readonly Counterexample[];
  /** One line for people, without the tool's name. */
  readonly summary: string;
  /** Its class: set on every change of a diff (compareTools). */
  readonly class?: ChangeClass;
}

/** The class of a change, from whom it breaks and what it concerns. */
export function classOf(change: ToolChange): ChangeClass {
  if (change.breaking.length > 0) return "breaking";
  if (change.possiblyBreaking.length > 0) return "possibly-breaking";
  const documents =
    change.kind === "title-changed" ||
    change.kind === "description-changed" ||
    (change.kind === "annotation-changed" && change.detail === "title");
  return documents ? "documentation" : "compatible";
}

/**
 * A counterexample as a reason shows it: whole when short; otherwise with
 * each long string cut (the JSON form keeps the value whole).
 */
export function showExample(value: JsonValue): string {
  const text = JSON.stringify(value);
  if (text.length <= 120) return text;
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "string" && v.length > 40 ? `${v.slice(0, 16)}... (${v.length} characters)` : v,
  );
}

/** The longest value a summary line holds; a longer one is shown whole below the line. */
const MAX_INLINE = 60;

/** Whether a value is short enough for a summary line (an absent value is). */
export function fitsALine(value: JsonValue | undefined): boolean {
  return value === undefined || JSON.stringify(value).length <= MAX_INLINE;
}

/**
 * A value for a summary line: its JSON when short; otherwise a note that
 * the text report shows it whole below the line (never a cut JSON text).
 */
export function show(value: JsonValue | undefined): string {
  if (value === undefined) return "(absent)";
  return fitsALine(value) ? JSON.stringify(value) : "(shown below)";
}

export function names(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function withoutKeys(schema: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k)));
}

export function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Parties in a fixed order, so the same inputs give the same bytes. */
export function order(parties: readonly Party[]): Party[] {
  return (["clients", "servers"] as const).filter((p) => parties.includes(p));
}

/** `from` and `to` of a change, each only when present. */
export function fromTo(
  from: JsonValue | undefined,
  to: JsonValue | undefined,
): { from?: JsonValue; to?: JsonValue } {
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}
