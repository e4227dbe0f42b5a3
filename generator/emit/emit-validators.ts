/**
 * emitValidators: ajv standalone code for every declaration, compiled at
 * generation time so nothing compiles schemas at run time.
 *
 * Each declaration becomes its own ajv schema with `$id` = its name and
 * `$ref: "#/$defs/X"` rewritten to `$ref: "X"`, so ajv compiles every
 * definition exactly once and references call it (instead of compiling a
 * copy per use site). Annotations are stripped: they change nothing a
 * validator does and would otherwise be embedded in the code.
 *
 * The draft-07 engine validates both dialects when a schema uses no
 * 2020-12-only keyword; it is much faster than Ajv2020, which tracks
 * evaluated properties through every anyOf branch.
 */
import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { McpGenError, diagnostic } from "../diagnostics.js";
import { type JsonObject, type JsonValue } from "../load/json.js";
import { forEachSchema, mapSchema } from "../load/schema-walk.js";
import { refName } from "../model/build-declarations.js";
import type { Declaration, McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { validatorName } from "./names.js";
import { SUPPORT_MODULE } from "./emit-support.js";

// ajv/dist/standalone is CommonJS with `module.exports = fn` and `exports.default = fn`; TypeScript sees the namespace.
const standaloneCode = standalone as unknown as typeof standalone.default;

/** The compiled validators module. */
export const COMPILED_VALIDATORS_FILE = "ajv-validators.gen.ts";

const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "default", "$schema", "format"]);
const ONLY_2020 = new Set(["prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentSchemas", "dependentRequired", "$dynamicRef", "$dynamicAnchor", "$anchor", "minContains", "maxContains"]);

/** ajv's runtime helpers that standalone code `require()`s, mapped to support exports. */
const RUNTIME_HELPERS: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/ucs2length").default': "ucs2length",
  'require("ajv/dist/runtime/equal").default': "deepEqual",
};

/** Emits `ajv-validators.gen.ts`. */
export function emitValidators(model: McpModel, bannerText: string): EmittedFile {
  const schemas = model.declarations.map(validatorSchema);
  const ajv = createAjv(schemas.some(uses2020Keywords));
  for (const schema of schemas) ajv.addSchema(schema);
  const exports = Object.fromEntries(model.declarations.map((d) => [validatorName(d.name), d.name]));
  const { code, helpers } = replaceRuntimeRequires(standaloneCode(ajv, exports));
  const file = new TsFileBuilder(COMPILED_VALIDATORS_FILE)
    .header("// @ts-nocheck -- ajv standalone output; the typed API over it is in validators.gen.ts")
    .add(layOut(code.replace(/^"use strict";/, "")));
  if (helpers.length > 0) file.importValues(`./${SUPPORT_MODULE}`, ...helpers);
  return file.build(bannerText);
}

function createAjv(need2020: boolean): Ajv {
  const options: Options = {
    code: { source: true, esm: true, lines: true },
    inlineRefs: false,
    messages: false,
    strict: false,
    allowUnionTypes: true,
    validateFormats: false,
    allErrors: false,
  };
  return need2020 ? new Ajv2020(options) : new Ajv(options);
}

/** The schema ajv compiles for a declaration. */
export function validatorSchema(decl: Declaration): JsonObject {
  const root = typeof decl.validatorSchema === "object" ? decl.validatorSchema : decl.validatorSchema ? {} : { not: {} };
  const stripped = mapSchema(root, stripAnnotations) as JsonObject;
  return { $id: decl.name, ...stripped };
}

function stripAnnotations(node: JsonObject): JsonValue {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    out[key] = key === "$ref" && typeof value === "string" && refName(value) !== undefined ? refName(value)! : value;
  }
  return out;
}

function uses2020Keywords(schema: JsonObject): boolean {
  let found = false;
  forEachSchema(schema, "", (node) => {
    if (Object.keys(node).some((k) => ONLY_2020.has(k))) found = true;
  });
  return found;
}

/**
 * Indents ajv's one-statement-per-line output by brace depth and marks each
 * top-level statement `// prettier-ignore`. The module is machine code:
 * reprinting its ~400 KB with prettier would take longer than the rest of
 * generation together and make it no easier to read, while this layout
 * stays diffable line by line and passes `prettier --check` as it is.
 */
export function layOut(code: string): string {
  const out: string[] = [];
  let depth = 0;
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("}")) depth = Math.max(0, depth - 1);
    if (depth === 0 && !line.startsWith("}")) out.push("", "// prettier-ignore");
    out.push("  ".repeat(depth) + line);
    if (line.endsWith("{")) depth++;
  }
  return out.join("\n").trim();
}

function replaceRuntimeRequires(code: string): { code: string; helpers: string[] } {
  const helpers: string[] = [];
  let out = code;
  for (const [call, helper] of Object.entries(RUNTIME_HELPERS)) {
    if (out.includes(call)) {
      out = out.split(call).join(helper);
      helpers.push(helper);
    }
  }
  const leftover = /require\("[^"]+"\)/.exec(out);
  if (leftover) throw new McpGenError([diagnostic("MCPG901", { reason: `ajv standalone code needs ${leftover[0]}, which mcp-gen cannot inline` })]);
  return { code: out, helpers: helpers.sort() };
}
