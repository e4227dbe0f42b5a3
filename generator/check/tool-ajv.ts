/**
 * How tool schemas are compiled, whether to check them (check-tools.ts) or
 * to emit their validators (emit/emit-tools.ts): ajv with ajv-formats'
 * formats, in the tool schema's dialect.
 */
import { Ajv, Name, type Options } from "ajv";
import formatsPlugin from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020.js";

// ajv-formats is CommonJS with `exports.default`; imported from an ES module, the default import is the exports object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

/**
 * ajv's options for tool schemas: lenient about unknown keywords
 * (annotations such as x-mcp-header); every problem reported, not just the
 * first, so a model can fix all its arguments at once; only own properties
 * count as present, so `constructor` or `toString` are names like any other.
 */
export const TOOL_AJV_OPTIONS: Options = {
  strict: false,
  allowUnionTypes: true,
  // An unknown format is an annotation (JSON Schema 2020-12), not an error; known ones are checked.
  logger: false,
  allErrors: true,
  ownProperties: true,
  messages: false,
  inlineRefs: false,
};

/** Where the generated validators take ajv-formats' format checks from (a dependency of every server project). */
export const FORMATS_MODULE = "ajv-formats/dist/formats.js";
export const FORMATS_NAME = "fullFormats";

/**
 * An ajv for tool schemas, with ajv-formats' formats (date, email, uri, ...).
 * Its standalone code refers to a format check as `fullFormats.<name>`
 * (regular-expression formats are written inline), which the validator
 * module imports from {@link FORMATS_MODULE}.
 */
export function createToolAjv(dialect: "2020-12" | "draft-07", options: Options): Ajv {
  const ajv = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv, { mode: "full" });
  if (ajv.opts.code.source) ajv.opts.code.formats = new Name(FORMATS_NAME);
  return ajv;
}
