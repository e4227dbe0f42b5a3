/**
 * Classifies a schema change: the parties it breaks or may break, judged
 * by subsumption both ways (the sender needs every old value to stay
 * valid, the receiver no new value it did not expect), its kind and its
 * summary.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { type Rooted, subsumes, type Verdict } from "./subsume.js";
import { order, type Party, show, type ToolChange, type ToolChangeKind } from "./tool-change.js";

/** Where a schema comparison is, and where its changes go. */
export interface SchemaPlace {
  readonly tool: string;
  readonly schema: "input" | "output";
  readonly path: string;
  readonly out: ToolChange[];
}

/** Who sends the values of a schema, and who receives them. */
export function partiesOf(schema: "input" | "output"): { sender: Party; receiver: Party } {
  return schema === "input"
    ? { sender: "clients", receiver: "servers" }
    : { sender: "servers", receiver: "clients" };
}

export function onlyDiffersIn(a: JsonObject, b: JsonObject, keys: readonly string[]): boolean {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every(
    (k) => keys.includes(k) || jsonEqual(a[k], b[k]),
  );
}

/** One change judged by subsumption in both directions. */
export function judged(
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

export function genericKind(a: JsonValue, b: JsonValue): ToolChangeKind {
  return isJsonObject(a) && isJsonObject(b) && onlyDiffersIn(a, b, ["type"])
    ? "type-changed"
    : "schema-changed";
}

/** The keywords that differ, for the summary: `type "string" -> "integer"`, `maximum 100 -> 10`. */
export function describeDifference(a: JsonValue, b: JsonValue): string {
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

export function placed(
  place: SchemaPlace,
  path: string,
): Pick<ToolChange, "tool" | "schema" | "path"> {
  return { tool: place.tool, schema: place.schema, path };
}

/** " in argument mode" / " in output count": where inside the schema a change is. */
export function where(place: SchemaPlace): string {
  const segments = place.path.split("/").filter((s) => s !== "" && s !== "properties");
  const shown = segments.map((s) => (s === "items" ? "[]" : s)).join(".");
  return shown === "" ? ` in the ${label(place.schema)}s` : ` in ${label(place.schema)} ${shown}`;
}

export function label(schema: "input" | "output"): string {
  return schema === "input" ? "argument" : "output";
}
