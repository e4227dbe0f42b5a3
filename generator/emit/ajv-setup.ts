/**
 * mcp-gen's keywords for the validators it compiles (its options and
 * `createAjv` are in shared/ajv.ts): the JSON-value keyword, its own
 * `$ref`, and the keywords that bound the problem-listing validators. Kept apart from emit-validators.ts so that
 * compiling the same schemas at run time (the cold-start benchmark) uses
 * exactly this set-up without loading the emitter.
 *
 * Nothing edits ajv's output afterwards: what mcp-gen changes in the
 * generated code, it changes through ajv's keyword API, so ajv writes it.
 */
import { _, Name, type Ajv, type KeywordCxt } from "ajv";
import { strConcat } from "ajv/dist/compile/codegen/index.js";
import { resolveRef, SchemaEnv } from "ajv/dist/compile/index.js";
import { getValidate } from "ajv/dist/vocabularies/core/ref.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../load/json.js";
import { mapSchema } from "../shared/schema-walk.js";
import { JSON_VALUE_KEYWORD } from "./names.js";
import {
  isJsonValue,
  PROBLEM_LIMIT,
  rebaseErrors,
  TENTATIVE_PROBLEM_LIMIT,
  tooManyProblems,
} from "./static/support.js";

/** The options, for the cold-start benchmark, which compiles at run time with this set-up (scripts/bench/cold-ajv.mjs). */
export { AJV_OPTIONS } from "../shared/ajv.js";

/** The pattern that matches exactly the property name `__proto__`. */
const PROTO_PATTERN = "^__proto__$";

/**
 * The schema with every `properties.__proto__` moved to
 * `patternProperties["^__proto__$"]`, which means the same. ajv leaves a
 * property of that name out of `properties` (it guards its own code
 * against prototype pollution), so it would go unchecked, and under
 * `additionalProperties: false` be refused; a pattern property is checked
 * on the value's own keys, so `__proto__` is a name like any other.
 */
export function protoPropertiesAsPatterns(schema: JsonValue): JsonValue {
  return mapSchema(schema, (node) => {
    const properties = node.properties;
    if (!isJsonObject(properties) || !Object.hasOwn(properties, "__proto__")) return node;
    const moved = properties["__proto__"]!;
    const rest = Object.fromEntries(
      Object.entries(properties).filter(([name]) => name !== "__proto__"),
    );
    const patterns = isJsonObject(node.patternProperties) ? node.patternProperties : {};
    const both: JsonValue = Object.hasOwn(patterns, PROTO_PATTERN)
      ? { allOf: [patterns[PROTO_PATTERN]!, moved] }
      : moved;
    const out: JsonObject = {
      ...node,
      properties: rest,
      patternProperties: { ...patterns, [PROTO_PATTERN]: both },
    };
    return out;
  });
}

/** The support functions the keywords' code calls, by the name the generated module imports them as. */
export const KEYWORD_HELPERS = ["isJsonValue", "rebaseErrors"] as const;

/**
 * Adds mcp-gen's keywords to an ajv instance: the JSON-value keyword, and
 * its own `$ref`. In standalone code both call support functions by name
 * (`isJsonValue`, `rebaseErrors`), which the generated module imports.
 */
export function addMcpKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: JSON_VALUE_KEYWORD,
    schemaType: "boolean",
    code(cxt) {
      const check = cxt.gen.scopeValue("func", { ref: isJsonValue, code: _`isJsonValue` });
      cxt.fail(_`!${check}(${cxt.data})`);
    },
  });
  const ajvRef = ajv.getKeyword("$ref");
  if (typeof ajvRef !== "object" || !("code" in ajvRef))
    throw new Error("ajv has no $ref keyword to extend");
  const ajvRefCode = ajvRef.code;
  ajv.removeKeyword("$ref");
  ajv.addKeyword({
    keyword: "$ref",
    schemaType: "string",
    code: (cxt) => callReference(cxt, () => ajvRefCode(cxt)),
  });
  return ajv;
}

/** The support functions the problem-listing validators call besides {@link KEYWORD_HELPERS}. */
export const PROBLEM_HELPERS = ["tooManyProblems"] as const;

/** On a subschema ajv applies to each item or property: stop collecting errors past the limit. */
export const PROBLEM_LIMIT_KEYWORD = "x-mcp-problem-limit";
/** `additionalProperties: false` as a subschema, so that the limit applies to it too. */
export const DISALLOWED_KEYWORD = "x-mcp-disallowed";

/**
 * Adds the keywords of the problem-listing validators (compiled with
 * `allErrors`). {@link PROBLEM_LIMIT_KEYWORD}, checked after the
 * subschema it is on, ends the validator once it holds more than
 * PROBLEM_LIMIT errors, keeping them:
 *
 *   if (errors > 20) { validate12.errors = vErrors; return false; }
 *
 * Inside a union's branch (ajv's `compositeRule`) errors may still be
 * discarded, so ending there could report a branch that another makes
 * moot; there it throws past TENTATIVE_PROBLEM_LIMIT instead, and the
 * caller falls back to the first problem.
 */
export function addProblemLimitKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: PROBLEM_LIMIT_KEYWORD,
    schemaType: "boolean",
    post: true,
    code(cxt) {
      const { gen, it } = cxt;
      if (it.compositeRule) {
        const stop = gen.scopeValue("func", { ref: tooManyProblems, code: _`tooManyProblems` });
        gen.if(_`${ERRORS} > ${TENTATIVE_PROBLEM_LIMIT}`, () => gen.code(_`${stop}()`));
        return;
      }
      gen.if(_`${ERRORS} > ${PROBLEM_LIMIT}`, () => {
        gen.assign(_`${it.validateName}.errors`, V_ERRORS);
        gen.return(_`false`);
      });
    },
  });
  ajv.addKeyword({
    keyword: DISALLOWED_KEYWORD,
    schemaType: "boolean",
    code: (cxt) => cxt.fail(),
  });
  return ajv;
}

/** Keywords whose subschema ajv applies to every item or property of the data. */
const PER_ITEM = [
  "items",
  "additionalItems",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];

/**
 * The schema with {@link PROBLEM_LIMIT_KEYWORD} on every subschema ajv
 * applies per item or property (where errors can grow with the data), and
 * `additionalProperties: false` as such a subschema:
 *
 *   {items: {$ref: "X"}, additionalProperties: false}
 *   → {items: {$ref: "X", "x-mcp-problem-limit": true},
 *      additionalProperties: {"x-mcp-disallowed": true, "x-mcp-problem-limit": true}}
 */
export function withProblemLimits(schema: JsonValue): JsonValue {
  const limited = (sub: JsonValue | undefined, ofProperties: boolean): JsonValue | undefined => {
    if (sub === false && ofProperties)
      return { [DISALLOWED_KEYWORD]: true, [PROBLEM_LIMIT_KEYWORD]: true };
    return isJsonObject(sub) && Object.keys(sub).length > 0
      ? { ...sub, [PROBLEM_LIMIT_KEYWORD]: true }
      : sub;
  };
  return mapSchema(schema, (node) => {
    const out: JsonObject = { ...node };
    for (const key of PER_ITEM) {
      const sub = limited(node[key], key.endsWith("Properties"));
      if (sub !== undefined) out[key] = sub;
    }
    if (isJsonObject(node.patternProperties))
      out.patternProperties = Object.fromEntries(
        Object.entries(node.patternProperties).map(([p, sub]) => [p, limited(sub, true)!]),
      );
    return out;
  });
}

const INSTANCE_PATH = new Name("instancePath");
const V_ERRORS = new Name("vErrors");
const ERRORS = new Name("errors");

/**
 * `$ref` to a definition compiled on its own: the referenced validator is
 * called with the value alone, and only when it fails are its errors
 * given the path they were found at.
 *
 *   ajv:     if(!(validate12(data.params, {instancePath: instancePath+"/params", parentData: data, parentDataProperty: "params", rootData}))){
 *              vErrors = vErrors === null ? validate12.errors : vErrors.concat(validate12.errors);
 *   mcp-gen: if(!(validate12(data.params))){
 *              vErrors = vErrors === null ? rebaseErrors(validate12.errors, instancePath+"/params") : …
 *
 * ajv builds that context object on every call, failing or not: most of
 * the cost of validating small definitions. Everything ajv's own `$ref`
 * does differently is left to it: references it inlines, references to
 * the root (`#`), async schemas, and the options under which a callee
 * reads its context (`passContext`, `$data`, `dynamicRef`) or reports
 * what it evaluated (`unevaluated`, Ajv2020's default).
 */
function callReference(cxt: KeywordCxt, ajvCode: () => void): void {
  const { gen, it } = cxt;
  const ref = cxt.schema as string;
  const target =
    ref === "#" || ref === "#/"
      ? undefined
      : resolveRef.call(it.self, it.schemaEnv.root, it.baseId, ref);
  const { opts } = it;
  if (
    !(target instanceof SchemaEnv) ||
    target.$async ||
    opts.passContext ||
    opts.$data ||
    opts.dynamicRef ||
    opts.unevaluated
  ) {
    ajvCode();
    return;
  }
  const validate = getValidate(cxt, target);
  const rebase = gen.scopeValue("func", { ref: rebaseErrors, code: _`rebaseErrors` });
  cxt.result(
    _`${validate}(${cxt.data})`,
    () => undefined,
    () => {
      const errors = _`${rebase}(${validate}.errors, ${strConcat(INSTANCE_PATH, it.errorPath)})`;
      gen.assign(V_ERRORS, _`${V_ERRORS} === null ? ${errors} : ${V_ERRORS}.concat(${errors})`);
      gen.assign(ERRORS, _`${V_ERRORS}.length`);
    },
  );
}
