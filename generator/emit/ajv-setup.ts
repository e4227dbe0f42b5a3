/**
 * How mcp-gen sets up ajv for the validators it compiles: the options and
 * the one keyword of its own. Kept apart from emit-validators.ts so that
 * compiling the same schemas at run time (the cold-start benchmark) uses
 * exactly this set-up without loading the emitter.
 */
import { _, type Ajv, type Options } from "ajv";
import { JSON_VALUE_KEYWORD } from "./names.js";
import { SUPPORT_MODULE } from "./paths.js";
import { isJsonValue } from "./static/support.js";

/**
 * ajv's options for the generated code. `inlineRefs` inlines small
 * referenced definitions into their callers; `discriminator` lets unions
 * tagged by a constant property check only the branch the tag names.
 */
export const AJV_OPTIONS: Readonly<Options> = {
  code: { source: true, esm: true, lines: true },
  inlineRefs: true,
  messages: false,
  strict: false,
  allowUnionTypes: true,
  validateFormats: false,
  allErrors: false,
  discriminator: true,
};

/**
 * Adds mcp-gen's keywords to an ajv instance. The JSON-value keyword calls
 * `isJsonValue` from the support module; in standalone code that call is
 * `require(<support module>).isJsonValue`, which the emitter turns into an
 * import.
 */
export function addMcpKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: JSON_VALUE_KEYWORD,
    schemaType: "boolean",
    code(cxt) {
      const check = cxt.gen.scopeValue("func", {
        ref: isJsonValue,
        code: _`require(${SUPPORT_MODULE}).isJsonValue`,
      });
      cxt.fail(_`!${check}(${cxt.data})`);
    },
  });
  return ajv;
}
