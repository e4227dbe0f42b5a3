/**
 * One change between two tool lists: its kind, the parties it may break,
 * and the small helpers that keep its summary and order stable.
 */
import type { JsonObject, JsonValue } from "../../load/json.js";

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

/** A value for a summary line, cut short when long. */
export function show(value: JsonValue | undefined): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
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
