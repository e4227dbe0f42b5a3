/**
 * compileValidators: ajv standalone code for the schemas emit-validators.ts
 * shapes and for a project's tool schemas (emit-tools.ts), compiled with
 * mcp-gen's one ajv set-up (check/ajv.ts, keywords in ajv-setup.ts). The
 * code is not edited afterwards.
 *
 * The draft-07 engine validates both dialects when a schema uses no
 * 2020-12-only keyword; it is much faster than Ajv2020, which tracks
 * evaluated properties through every anyOf branch.
 */
import type { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { isJsonObject, type JsonObject } from "../load/json.js";
import { forEachSchema } from "../load/schema-walk.js";
import { createAjv, type AjvChoices } from "../check/ajv.js";
import { addMcpKeywords, addProblemLimitKeywords } from "./ajv-setup.js";

// ajv/dist/standalone is CommonJS with `module.exports = fn` and `exports.default = fn`; TypeScript sees the namespace.
const standaloneCode = standalone as unknown as typeof standalone.default;

const ONLY_2020 = new Set([
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "dependentRequired",
  "$dynamicRef",
  "$dynamicAnchor",
  "$anchor",
  "minContains",
  "maxContains",
]);

/** What ajv compiles: one schema per declaration (`$id` = its name), and the export name of each validator. */
export interface ValidatorSources {
  readonly schemas: readonly JsonObject[];
  /** Export name → schema `$id`. */
  readonly exports: Readonly<Record<string, string>>;
}

/**
 * Compiles every validator to standalone code: ajv's output as ajv writes
 * it, one statement per line. The module around it is emit-validators.ts's.
 */
export function compileValidators(
  { schemas, exports }: ValidatorSources,
  choices: AjvChoices = {},
): string {
  const ajv = compilerFor(schemas, choices);
  for (const schema of schemas) ajv.addSchema(schema);
  return standaloneCode(ajv, { ...exports });
}

/**
 * ajv's standalone code loads its runtime helpers with `require()`
 * (`require("ajv/dist/runtime/ucs2length").default`, for minLength and
 * maxLength; `…/equal` for const, enum and uniqueItems over objects). In
 * a generated ES module, `require` is this function, which hands out the
 * copies bound to `ucs2length` and `deepEqual` (imported by the module).
 * mcp-gen's options use no other helper; one would fail on import, naming
 * itself.
 */
export const AJV_RUNTIME_REQUIRE = `// ajv's standalone code loads its runtime helpers with require(); here they are the imported copies.
const AJV_RUNTIME = {
  "ajv/dist/runtime/ucs2length": { default: ucs2length },
  "ajv/dist/runtime/equal": { default: deepEqual },
};
function require(id) {
  const helper = AJV_RUNTIME[id];
  if (helper === undefined) throw new Error(\`mcp-gen's generated validators do not provide \${id}\`);
  return helper;
}`;

/** The names {@link AJV_RUNTIME_REQUIRE} needs in scope. */
export const AJV_RUNTIME_HELPERS = ["deepEqual", "ucs2length"] as const;

/**
 * The ajv that compiles these schemas: `createAjv` (check/ajv.ts) with
 * `choices`, in the dialect they are written in when the choices name
 * none (Ajv2020 only when a schema needs a 2020-12-only keyword, see the
 * top of this file), counting own properties only where a schema names
 * an inherited one, and with mcp-gen's keywords on schemas it shaped.
 */
export function compilerFor(schemas: readonly JsonObject[], choices: AjvChoices = {}): Ajv {
  const ajv = createAjv({
    dialect: schemas.some(uses2020Keywords) ? "2020-12" : "draft-07",
    ownProperties: schemas.some(namesInheritedProperty),
    ...choices,
  });
  if (choices.userSchemas) return ajv;
  addMcpKeywords(ajv);
  return choices.limitProblems ? addProblemLimitKeywords(ajv) : ajv;
}

/** What every plain object inherits from `Object.prototype`: `constructor`, `toString`, `__proto__`, … */
const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether a schema names, as a property it checks or requires, one that
 * plain objects inherit. Only then can a value parsed from JSON have a
 * property present by inheritance (`required: ["constructor"]` met by `{}`,
 * an optional `toString` taken for `Object.prototype`'s function): such
 * schemas are compiled with ajv's `ownProperties`. That option guards
 * every property read with `hasOwnProperty` and made validation of the
 * upstream schemas, which name no such property, 2.5 to 3 times slower
 * (docs/benchmarks.md).
 */
export function namesInheritedProperty(schema: JsonObject): boolean {
  let found = false;
  const check = (names: Iterable<unknown>) => {
    for (const name of names)
      if (typeof name === "string" && INHERITED_NAMES.has(name)) found = true;
  };
  forEachSchema(schema, "", (node) => {
    for (const keyword of ["properties", "dependentRequired", "dependentSchemas", "dependencies"])
      if (isJsonObject(node[keyword])) check(Object.keys(node[keyword]));
    if (Array.isArray(node.required)) check(node.required);
    for (const keyword of ["dependentRequired", "dependencies"]) {
      const dependencies = node[keyword];
      if (isJsonObject(dependencies))
        for (const names of Object.values(dependencies)) if (Array.isArray(names)) check(names);
    }
    if (isJsonObject(node.discriminator)) check([node.discriminator.propertyName]);
  });
  return found;
}

export function uses2020Keywords(schema: JsonObject): boolean {
  let found = false;
  forEachSchema(schema, "", (node) => {
    if (Object.keys(node).some((k) => ONLY_2020.has(k))) found = true;
  });
  return found;
}
