/**
 * Pass: pin each result's resultType by the rules of the schema.
 *
 * schema.json types `resultType` as a plain string on every result; the
 * values that tell results apart live in schema.ts, in the ResultType
 * union and the doc line of each of its literals:
 *
 *   export type ResultType = "complete" | "input_required" | string;
 *   // complete - the request completed successfully …
 *   // input_required - … the result contains an {@link InputRequiredResult} …
 *
 * Each result definition of a request gets a `const` on its validator's
 * resultType, by the first rule that decides it:
 *
 * 1. the schema already pins one (an extension's CreateTaskResult: "task");
 * 2. a literal's doc links the result: that literal
 *    (InputRequiredResult → "input_required");
 * 3. any other result that has a resultType property carries "complete",
 *    when the revision's ResultType has that literal.
 *
 *   before: CallToolResult.properties.resultType = {type: "string"}
 *   after:  CallToolResult.properties.resultType = {type: "string", const: "complete"}
 *
 * Only validators change: the TypeScript types keep schema.ts's shape, and
 * the result unions add the discriminant themselves. A revision without
 * resultType (before 2026-07-28) is left as it is.
 */
import { cloneJson, isJsonObject, type JsonObject } from "../../load/json.js";
import { propertyOf } from "../build-methods.js";
import type { Declaration, McpModel, Pass } from "../types.js";

/** The resultType a result without one is read as (the spec: "treat the absent field as complete"). */
export const COMPLETE = "complete";

/** The rule that pins a result its resultType literal's doc links. */
export const RULE_LINKED_RESULT =
  "a resultType literal whose doc in schema.ts links a result ({@link X}) is that result's resultType";
/** The rule that pins every other result "complete". */
export const RULE_COMPLETE_RESULT = `every other result with a resultType carries "${COMPLETE}"`;

/** The pass. */
export const pinResultTypes: Pass = {
  name: "pin each result's resultType by the rules of the schema",
  run(model) {
    const validatorView = new Map(
      model.declarations.map((d) => [d.name, { ...d, schema: d.validatorSchema }]),
    );
    const results = [...new Set(model.requests.flatMap((r) => r.results.map((b) => b.definition)))];
    const linked = linkedResults(model, new Set(results));
    const hasComplete = model.resultTypes.some((t) => t.value === COMPLETE);
    const pins = new Map<string, string>();
    const rules = new Set<string>();
    for (const name of results) {
      const property = propertyOf(validatorView.get(name)?.schema, "resultType", validatorView);
      if (!property || typeof property.const === "string") continue;
      const value = linked.get(name) ?? (hasComplete ? COMPLETE : undefined);
      if (value === undefined) continue;
      pins.set(name, value);
      rules.add(linked.has(name) ? RULE_LINKED_RESULT : RULE_COMPLETE_RESULT);
    }
    if (pins.size === 0) return model;
    return {
      ...model,
      declarations: model.declarations.map((d) =>
        pins.has(d.name) ? pinned(d, pins.get(d.name)!) : d,
      ),
      appliedRules: [
        ...model.appliedRules,
        ...[RULE_LINKED_RESULT, RULE_COMPLETE_RESULT].filter((r) => rules.has(r)),
      ],
    };
  },
};

/**
 * Result definitions that a resultType literal's doc links with
 * `{@link Name}` (or `{@link Name | text}`), by name, with the literal.
 */
export function linkedResults(model: McpModel, results: ReadonlySet<string>): Map<string, string> {
  const linked = new Map<string, string>();
  for (const type of model.resultTypes) {
    for (const [, name] of (type.doc ?? "").matchAll(/\{@link\s+([A-Za-z_$][\w$]*)/g)) {
      if (results.has(name!) && !linked.has(name!)) linked.set(name!, type.value);
    }
  }
  return linked;
}

/**
 * The declaration with `const: value` on its validator's own resultType
 * property, or, when the property comes from elsewhere (a `$ref` or an
 * `allOf` member), with an `allOf` member that pins it.
 */
function pinned(decl: Declaration, value: string): Declaration {
  if (!isJsonObject(decl.validatorSchema)) return decl;
  const schema = cloneJson(decl.validatorSchema);
  const own = isJsonObject(schema.properties) ? schema.properties.resultType : undefined;
  if (isJsonObject(own)) own.const = value;
  else {
    const pin: JsonObject = { properties: { resultType: { const: value } } };
    schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), pin];
  }
  return { ...decl, validatorSchema: schema };
}
