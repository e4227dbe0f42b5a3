/**
 * Pass: discriminate each method's results, and mark Multi Round-Trip
 * Requests (MRTR), by the shapes of the results rather than their names.
 *
 * After pin-result-types has pinned `resultType` on every result definition
 * (`CallToolResult` → "complete", `InputRequiredResult` → "input_required"),
 * this pass records the pinned value on each result branch and completes
 * the resultType set. The spec's drafts renamed the MRTR result
 * (`IncompleteResult`, then `InputRequiredResult`) and its literal
 * ("incomplete", then "input_required"), and for a while had no resultType
 * at all, so nothing here is keyed to a name or a literal:
 *
 * - a result with the MRTR shape (it declares `inputRequests` and/or
 *   `requestState`, and requires nothing every result does not) makes its
 *   methods MRTR, and its literal, read from the schema, is the revision's
 *   MRTR resultType;
 * - an envelope that carries the MRTR result for any request (2026-02-23's
 *   `JSONRPCIncompleteResultResponse`) adds it to every client request
 *   whose params accept `inputResponses`;
 * - results that carry no resultType are told apart by a property that one
 *   branch has (required, or for the MRTR result one of its two) and no
 *   other branch declares; the model check refuses a method where two
 *   branches have no such property.
 *
 *   before: tools/call → [InputRequiredResult, CallToolResult]
 *   after:  tools/call → [InputRequiredResult ("input_required"), CallToolResult ("complete")], mrtr
 *
 * Revisions before 2026-07-28 have no resultType; the spec says a missing
 * one means "complete", so their set is just that.
 */
import { refName } from "../build-declarations.js";
import { isRequired, propertyOf } from "../build-methods.js";
import type {
  Declaration,
  McpModel,
  Pass,
  RequestNode,
  ResultBranch,
  ResultTypeNode,
} from "../types.js";
import { isJsonObject } from "../../load/json.js";
import { COMPLETE, linkedResults } from "./pin-result-types.js";

/** The resultType value that marked an MRTR answer in 2026-07-28 (revisions may use their own). */
export const INPUT_REQUIRED = "input_required";
/** The properties that give a result the MRTR shape. */
export const MRTR_PROPERTIES = ["inputRequests", "requestState"] as const;
/** The rule that makes a method MRTR. */
export const RULE_MRTR =
  "a method that may answer with a result of the MRTR shape (inputRequests and/or requestState) is MRTR (Multi Round-Trip Requests)";
/** The rule that adds an MRTR result carried by an envelope of its own to every client request. */
export const RULE_MRTR_ENVELOPE =
  "an envelope that carries the MRTR result for any request adds it to every client request whose params accept inputResponses";
/** The rule for results told apart by shape. */
export const RULE_SHAPE_DISCRIMINATION =
  "results without a resultType are told apart by a property one of them has and the others do not declare";
/** The rule for revisions whose results carry no resultType. */
export const RULE_IMPLICIT_COMPLETE = `results without a resultType are "${COMPLETE}"`;

export { COMPLETE };

type ByName = ReadonlyMap<string, Declaration>;

/** The pass. */
export const discriminateResults: Pass = {
  name: "discriminate each method's results on resultType",
  run(model) {
    const byName: ByName = new Map(
      model.declarations.map((d) => [d.name, { ...d, schema: d.validatorSchema }]),
    );
    const pinned = (definition: string): string | undefined => {
      const property = propertyOf(byName.get(definition)?.schema, "resultType", byName);
      return property && typeof property.const === "string" ? property.const : undefined;
    };
    const inferences: string[] = [];
    const mrtrResults = mrtrShaped(model, byName);
    const envelope = mrtrEnvelope(model, byName, mrtrResults);
    const requests: RequestNode[] = model.requests.map((r) => {
      const listed = r.results.map((b): ResultBranch => {
        const resultType = pinned(b.definition);
        return resultType === undefined
          ? { definition: b.definition }
          : { definition: b.definition, resultType };
      });
      const results =
        envelope &&
        acceptsInputResponses(r, byName) &&
        !listed.some((b) => b.definition === envelope.result)
          ? [...listed, { definition: envelope.result }]
          : listed;
      const told = byShape(results, mrtrResults, byName);
      return { ...r, results: told, mrtr: told.some((b) => mrtrResults.has(b.definition)) };
    });
    const mrtrResultType = literalOf(model, requests, mrtrResults, pinned);
    inferences.push(...mrtrInferences(requests, mrtrResults, mrtrResultType, envelope));
    inferences.push(...shapeInferences(requests));
    const declared = resultTypeSet(model, requests, pinned);
    const resultTypes =
      declared.length > 0 ? declared : [implicitComplete(model, requests, mrtrResults)];
    const rules = [
      ...(requests.some((r) => r.mrtr) ? [RULE_MRTR] : []),
      ...(envelope && requests.some((r) => r.results.some((b) => b.definition === envelope.result))
        ? [RULE_MRTR_ENVELOPE]
        : []),
      ...(requests.some((r) => r.results.some((b) => b.markers))
        ? [RULE_SHAPE_DISCRIMINATION]
        : []),
      ...(declared.length === 0 ? [RULE_IMPLICIT_COMPLETE] : []),
    ];
    return {
      ...model,
      requests,
      resultTypes,
      ...(mrtrResultType === undefined ? {} : { mrtrResultType }),
      mrtrResults: [...mrtrResults]
        .filter((d) => requests.some((r) => r.results.some((b) => b.definition === d)))
        .sort(),
      inferences: [...(model.inferences ?? []), ...inferences],
      appliedRules: [...model.appliedRules, ...rules],
    };
  },
};

/** The names of the properties a schema declares, through `$ref` and `allOf`. */
export function declaredProperties(schema: unknown, byName: ByName, depth = 0): Set<string> {
  const names = new Set<string>();
  if (!isJsonObject(schema) || depth > 8) return names;
  if (isJsonObject(schema.properties))
    for (const key of Object.keys(schema.properties)) names.add(key);
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : [])
    for (const key of declaredProperties(member, byName, depth + 1)) names.add(key);
  const target = refName(schema.$ref);
  if (target)
    for (const key of declaredProperties(byName.get(target)?.schema, byName, depth + 1))
      names.add(key);
  return names;
}

function requiredProperties(schema: unknown, byName: ByName): string[] {
  return [...declaredProperties(schema, byName)].filter((p) => isRequired(schema, p, byName));
}

/**
 * Whether a result has the MRTR shape: it declares inputRequests and/or
 * requestState and requires nothing beyond those and what the base
 * `Result` declares (a task, which also has inputRequests, requires its id
 * and status, so it is not one).
 */
function isMrtrShaped(name: string, byName: ByName): boolean {
  const schema = byName.get(name)?.schema;
  const declared = declaredProperties(schema, byName);
  if (!MRTR_PROPERTIES.some((p) => declared.has(p))) return false;
  const base = declaredProperties(byName.get("Result")?.schema, byName);
  const allowed = new Set<string>([...MRTR_PROPERTIES, ...base]);
  return requiredProperties(schema, byName).every((p) => allowed.has(p));
}

/** The MRTR-shaped results among the methods' results and the envelopes' results. */
function mrtrShaped(model: McpModel, byName: ByName): Set<string> {
  const candidates = new Set([
    ...model.requests.flatMap((r) => r.results.map((b) => b.definition)),
    ...model.declarations.flatMap((d) => {
      const envelope = envelopeResult(d.name, byName);
      return envelope ? [envelope] : [];
    }),
  ]);
  return new Set([...candidates].filter((name) => isMrtrShaped(name, byName)));
}

/** The definition an envelope (`{jsonrpc, id, result}`) names as its result, if it is one. */
function envelopeResult(name: string, byName: ByName): string | undefined {
  const schema = byName.get(name)?.schema;
  const declared = declaredProperties(schema, byName);
  if (!declared.has("jsonrpc") || !declared.has("id")) return undefined;
  return refName(propertyOf(schema, "result", byName)?.$ref);
}

/**
 * An envelope whose result is an MRTR result and that no method names as
 * its own response: the MRTR result can then answer any request.
 */
function mrtrEnvelope(
  model: McpModel,
  byName: ByName,
  mrtrResults: ReadonlySet<string>,
): { envelope: string; result: string } | undefined {
  const ownResponses = new Set(model.requests.map((r) => r.responseDefinition));
  for (const decl of model.declarations) {
    if (ownResponses.has(decl.name)) continue;
    const result = envelopeResult(decl.name, byName);
    if (result && mrtrResults.has(result)) return { envelope: decl.name, result };
  }
  return undefined;
}

/** Whether a client request's params accept inputResponses (the input-response params, by shape). */
function acceptsInputResponses(request: RequestNode, byName: ByName): boolean {
  if (request.direction === "server-to-client" || request.direction === "input-request")
    return false;
  const params = propertyOf(byName.get(request.definition)?.schema, "params", byName);
  return declaredProperties(params, byName).has("inputResponses");
}

/**
 * Markers for the branches that carry no resultType: each branch's required
 * properties (for the MRTR result, inputRequests and requestState) that no
 * other branch declares. The one branch left without markers is the one a
 * result without any marker is read as; when every branch has markers, the
 * first that is not the MRTR result becomes that one.
 */
function byShape(
  results: readonly ResultBranch[],
  mrtrResults: ReadonlySet<string>,
  byName: ByName,
): ResultBranch[] {
  const untyped = results.filter((b) => b.resultType === undefined);
  if (untyped.length < 2) return [...results];
  const declared = new Map(
    untyped.map((b) => [
      b.definition,
      declaredProperties(byName.get(b.definition)?.schema, byName),
    ]),
  );
  const markersOf = new Map<string, string[]>();
  for (const branch of untyped) {
    const schema = byName.get(branch.definition)?.schema;
    const own = mrtrResults.has(branch.definition)
      ? MRTR_PROPERTIES.filter((p) => declared.get(branch.definition)!.has(p))
      : requiredProperties(schema, byName);
    const others = untyped.filter((b) => b.definition !== branch.definition);
    const markers = own.filter((p) => others.every((o) => !declared.get(o.definition)!.has(p)));
    if (markers.length > 0) markersOf.set(branch.definition, markers.sort());
  }
  if (markersOf.size === untyped.length) {
    const fallback = untyped.find((b) => !mrtrResults.has(b.definition)) ?? untyped[0]!;
    markersOf.delete(fallback.definition);
  }
  return results.map((b) =>
    markersOf.has(b.definition) ? { ...b, markers: markersOf.get(b.definition)! } : b,
  );
}

/** The MRTR result's resultType literal: pinned on it, or the literal whose doc links it. */
function literalOf(
  model: McpModel,
  requests: readonly RequestNode[],
  mrtrResults: ReadonlySet<string>,
  pinned: (d: string) => string | undefined,
): string | undefined {
  const used = [...mrtrResults].filter((d) =>
    requests.some((r) => r.results.some((b) => b.definition === d)),
  );
  const linked = linkedResults(model, new Set(used));
  for (const definition of used.sort()) {
    const value = pinned(definition) ?? linked.get(definition);
    if (value !== undefined) return value;
  }
  return undefined;
}

function mrtrInferences(
  requests: readonly RequestNode[],
  mrtrResults: ReadonlySet<string>,
  literal: string | undefined,
  envelope: { envelope: string; result: string } | undefined,
): string[] {
  const used = [...mrtrResults]
    .filter((d) => requests.some((r) => r.results.some((b) => b.definition === d)))
    .sort();
  if (used.length === 0) return [];
  const methods = requests.filter((r) => r.mrtr).map((r) => r.method);
  const carried = envelope ? `, carried by ${envelope.envelope} for any request` : "";
  const value =
    literal === undefined ? "it carries no resultType" : `its resultType is "${literal}"`;
  return [
    `${used.join(", ")} has the MRTR shape (${MRTR_PROPERTIES.join(" and/or ")})${carried}; ${value}; MRTR methods: ${methods.join(", ")}`,
  ];
}

function shapeInferences(requests: readonly RequestNode[]): string[] {
  const told = new Map<string, string>();
  for (const r of requests) {
    for (const b of r.results) {
      if (!b.markers) continue;
      const sentence = `${b.definition} is told apart from the other results of its methods by ${b.markers.join(" or ")}`;
      told.set(b.definition, sentence);
    }
  }
  return [...told.values()].sort();
}

function resultTypeSet(
  model: McpModel,
  requests: readonly RequestNode[],
  pinned: (d: string) => string | undefined,
): ResultTypeNode[] {
  const definitionsOf = new Map<string, string[]>();
  const resultDefinitions = [
    ...new Set(requests.flatMap((r) => r.results.map((b) => b.definition))),
  ];
  for (const definition of resultDefinitions) {
    const value = pinned(definition);
    if (value === undefined) continue;
    definitionsOf.set(value, [...(definitionsOf.get(value) ?? []), definition]);
  }
  const declared = model.resultTypes.map((t) => ({
    ...t,
    definitions: [...(definitionsOf.get(t.value) ?? [])].sort(),
  }));
  const seen = new Set(declared.map((t) => t.value));
  const added: ResultTypeNode[] = [...definitionsOf.keys()]
    .filter((v) => !seen.has(v))
    .sort()
    .map((value) => {
      const definitions = [...definitionsOf.get(value)!].sort();
      const origin = model.declarations.find((d) => d.name === definitions[0])!.origin;
      return { kind: "result-type", value, definitions, origin };
    });
  return [...declared, ...added];
}

/** The one resultType of a revision whose results carry none. */
function implicitComplete(
  model: McpModel,
  requests: readonly RequestNode[],
  mrtrResults: ReadonlySet<string>,
): ResultTypeNode {
  const definitions = [
    ...new Set(requests.flatMap((r) => r.results.map((b) => b.definition))),
  ].filter((d) => !mrtrResults.has(d));
  return {
    kind: "result-type",
    value: COMPLETE,
    doc: "Implicit: results of this revision carry no resultType, which means complete.",
    definitions: definitions.sort(),
    origin: { file: model.sources[0]?.name ?? "schema.json" },
  };
}
