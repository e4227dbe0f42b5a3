/**
 * Classifies a schema change: the parties it breaks or may break, judged
 * by subsumption both ways (the sender needs every old value to stay
 * valid, the receiver no new value it did not expect), its kind and its
 * summary.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { findCounterexample } from "./counterexample.js";
import { type Rooted, subsumes, type Verdict } from "./subsume.js";
import {
  type Counterexample,
  order,
  type Party,
  show,
  showExample,
  type ToolChange,
  type ToolChangeKind,
} from "./tool-change.js";

/** Where a schema comparison is, and where its changes go. */
export interface SchemaPlace {
  readonly tool: string;
  readonly schema: "input" | "output";
  readonly path: string;
  readonly out: ToolChange[];
  /** Whether to search for counterexamples (counterexample.ts); off only to measure what it adds. */
  readonly search: boolean;
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

/**
 * One change judged both ways. Senders need every old value to stay
 * valid; receivers need no new value they did not expect. Each way, a
 * counterexample found by search decides "breaking" (it is checked on
 * both schemas, so it is a proof, whatever subsumption said); without one,
 * subsumption's "no" is breaking and its "unknown" possibly breaking.
 */
export function judged(
  place: SchemaPlace,
  old: Rooted,
  now: Rooted,
  kind: ToolChangeKind,
  what: string,
  within?: { readonly old: Rooted; readonly now: Rooted; readonly as: string },
): ToolChange {
  const { sender, receiver } = partiesOf(place.schema);
  // Schemas of a part of a value (`as` says which) are searched in the schemas of the whole value.
  const part = (v: Verdict) => (within && v.result !== "yes" ? suffixed(v, ` (${within.as})`) : v);
  const verdicts = new Map<Party, Verdict>([
    [sender, part(subsumes(now, old))],
    [receiver, part(subsumes(old, now))],
  ]);
  const searchIn = within ?? { old, now };
  return {
    ...placed(place, place.path),
    kind,
    from: old.schema,
    to: now.schema,
    ...weighed(place, searchIn.old, searchIn.now, verdicts),
    summary: `${what}${where(place)}`,
  };
}

/**
 * A change a rule of the diff classified (a property now required, an
 * enum value gone), with a counterexample for each party it breaks or
 * may break where the search finds one in `old` and `now`; a party it
 * may break becomes one it breaks when one is found.
 */
export function exemplified(
  place: SchemaPlace,
  old: Rooted,
  now: Rooted,
  change: ToolChange,
): ToolChange {
  if (!place.search) return change;
  const { sender } = partiesOf(place.schema);
  const counterexamples: Counterexample[] = [];
  const reasons = [...change.reasons];
  for (const party of order([...change.breaking, ...change.possiblyBreaking])) {
    const acceptedBy = party === sender ? "old" : "new";
    const [accepting, refusing] = acceptedBy === "old" ? [old, now] : [now, old];
    const value = findCounterexample(accepting, refusing);
    if (value === undefined) continue;
    counterexamples.push({ party, acceptedBy, value });
    reasons.push(`for example, ${exampleReason(party, acceptedBy, value, { result: "yes" })}`);
  }
  if (counterexamples.length === 0) return change;
  const proven = counterexamples.map((c) => c.party);
  return {
    ...change,
    breaking: order([...change.breaking, ...proven]),
    possiblyBreaking: change.possiblyBreaking.filter((p) => !proven.includes(p)),
    reasons,
    counterexamples,
  };
}

/**
 * The parties a change breaks or may break, with reasons and
 * counterexamples: `verdicts` holds, per party, whether the schemas keep
 * it safe (subsumption's answer, or "no" with the reason when a rule of
 * the diff decided it); `old` and `now` are the schemas a counterexample
 * is searched in.
 */
export function weighed(
  place: SchemaPlace,
  old: Rooted,
  now: Rooted,
  verdicts: ReadonlyMap<Party, Verdict>,
): Pick<ToolChange, "breaking" | "possiblyBreaking" | "reasons" | "counterexamples"> {
  const { sender } = partiesOf(place.schema);
  const breaking: Party[] = [];
  const possibly: Party[] = [];
  const reasons: string[] = [];
  const counterexamples: Counterexample[] = [];
  for (const party of order([...verdicts.keys()])) {
    const verdict = verdicts.get(party)!;
    const acceptedBy = party === sender ? "old" : "new";
    const [accepting, refusing] = acceptedBy === "old" ? [old, now] : [now, old];
    const value = place.search ? findCounterexample(accepting, refusing) : undefined;
    if (value === undefined && verdict.result === "yes") continue;
    if (value !== undefined) {
      breaking.push(party);
      counterexamples.push({ party, acceptedBy, value });
      reasons.push(exampleReason(party, acceptedBy, value, verdict));
    } else if (verdict.result === "no") {
      breaking.push(party);
      reasons.push(
        acceptedBy === "old"
          ? `${party} may send ${verdict.reason}, which the new schema refuses`
          : `${party} may now get ${verdict.reason}, which the old schema refused`,
      );
    } else if (verdict.result === "unknown") {
      possibly.push(party);
      reasons.push(
        `${acceptedBy === "old" ? `not decided whether the new schema accepts all ${party} sent` : `not decided whether ${party} may now get what the old schema refused`}: ${verdict.reason}${place.search ? "; no value was found that one schema accepts and the other refuses" : ""}`,
      );
    }
  }
  return {
    breaking: order(breaking),
    possiblyBreaking: order(possibly),
    reasons,
    ...(counterexamples.length > 0 ? { counterexamples } : {}),
  };
}

/** `clients may send "", which the new schema refuses (strings of fewer than 1 characters)`. */
function exampleReason(
  party: Party,
  acceptedBy: "old" | "new",
  value: JsonValue,
  verdict: Verdict,
): string {
  const shown = showExample(value);
  const head =
    acceptedBy === "old"
      ? `${party} may send ${shown}, which the new schema refuses`
      : `${party} may now get ${shown}, which the old schema refused`;
  if (verdict.result === "no") return `${head} (${verdict.reason})`;
  if (verdict.result === "unknown")
    return `${head} (found by trying values; the keywords alone did not decide: ${verdict.reason})`;
  return head;
}

function suffixed(v: Verdict & { reason: string }, text: string): Verdict {
  return { result: v.result, reason: `${v.reason}${text}` };
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
export function where(place: Pick<SchemaPlace, "schema" | "path">): string {
  const segments = place.path.split("/").filter((s) => s !== "" && s !== "properties");
  const shown = segments.map((s) => (s === "items" ? "[]" : s)).join(".");
  return shown === "" ? ` in the ${label(place.schema)}s` : ` in ${label(place.schema)} ${shown}`;
}

export function label(schema: "input" | "output"): string {
  return schema === "input" ? "argument" : "output";
}
