/**
 * Pass: discriminate each method's results on resultType.
 *
 * After pin-result-types has pinned `resultType` on every result definition
 * (`CallToolResult` → "complete", `InputRequiredResult` → "input_required"),
 * this pass records the pinned value on each result branch, marks requests
 * that may answer with an InputRequiredResult as MRTR, and completes the
 * resultType set.
 *
 *   before: tools/call → [InputRequiredResult, CallToolResult]
 *   after:  tools/call → [InputRequiredResult ("input_required"), CallToolResult ("complete")], mrtr
 *
 * Revisions before 2026-07-28 have no resultType; the spec says a missing
 * one means "complete", so their set is just that.
 */
import { propertyOf } from "../build-methods.js";
import type { McpModel, Pass, RequestNode, ResultTypeNode } from "../types.js";
import { COMPLETE } from "./pin-result-types.js";

/** The resultType value that marks an MRTR answer. */
export const INPUT_REQUIRED = "input_required";
/** The rule that makes a method MRTR. */
export const RULE_MRTR = `a method that may answer with the "${INPUT_REQUIRED}" result is MRTR (Multi Round-Trip Requests)`;
/** The rule for revisions whose results carry no resultType. */
export const RULE_IMPLICIT_COMPLETE = `results without a resultType are "${COMPLETE}"`;

export { COMPLETE };

/** The pass. */
export const discriminateResults: Pass = {
  name: "discriminate each method's results on resultType",
  run(model) {
    const validatorView = new Map(
      model.declarations.map((d) => [d.name, { ...d, schema: d.validatorSchema }]),
    );
    const pinned = (definition: string): string | undefined => {
      const property = propertyOf(
        validatorView.get(definition)?.schema,
        "resultType",
        validatorView,
      );
      return property && typeof property.const === "string" ? property.const : undefined;
    };
    const requests: RequestNode[] = model.requests.map((r) => {
      const results = r.results.map((b) => {
        const resultType = pinned(b.definition);
        return resultType === undefined
          ? { definition: b.definition }
          : { definition: b.definition, resultType };
      });
      return { ...r, results, mrtr: results.some((b) => b.resultType === INPUT_REQUIRED) };
    });
    const declared = resultTypeSet(model, requests, pinned);
    const resultTypes = declared.length > 0 ? declared : [implicitComplete(model, requests)];
    const rules = [
      ...(requests.some((r) => r.mrtr) ? [RULE_MRTR] : []),
      ...(declared.length === 0 ? [RULE_IMPLICIT_COMPLETE] : []),
    ];
    return { ...model, requests, resultTypes, appliedRules: [...model.appliedRules, ...rules] };
  },
};

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
function implicitComplete(model: McpModel, requests: readonly RequestNode[]): ResultTypeNode {
  const definitions = [...new Set(requests.flatMap((r) => r.results.map((b) => b.definition)))];
  return {
    kind: "result-type",
    value: COMPLETE,
    doc: "Implicit: results of this revision carry no resultType, which means complete.",
    definitions: definitions.sort(),
    origin: { file: model.sources[0]?.name ?? "schema.json" },
  };
}
