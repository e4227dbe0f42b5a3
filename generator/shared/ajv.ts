/**
 * mcp-gen's one ajv set-up: the options every ajv it creates starts from,
 * and `createAjv`, which takes what differs between its uses as explicit
 * choices. The validators of the protocol (emit/compile-validators.ts,
 * which adds mcp-gen's keywords), the validators of a project's tools
 * (emit/emit-tools.ts, through compile-validators.ts) and the check that
 * a tool's schema compiles (check/check-tools.ts) all create theirs here.
 * It lives in shared/, which every stage may import, because both the check
 * stage and the emit stage use it.
 */
import { Ajv, Name, type Options } from "ajv";
import formatsPlugin from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020.js";
import { linearRegExp } from "./linear-patterns.js";

// ajv-formats is CommonJS with `exports.default`; imported from an ES module, the default import is the exports object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

/**
 * ajv's options for the generated code. `inlineRefs` inlines small
 * referenced definitions into their callers; `discriminator` lets unions
 * tagged by a constant property check only the branch the tag names.
 * `code.es5` makes each validator take its context as one plain parameter
 * (`function validate12(data, valCxt)`) instead of destructuring it with
 * defaults, which costs an object on every call made without one (as the
 * `$ref` keyword of ajv-setup.ts makes them). Unknown keywords (annotations
 * such as x-mcp-header) are allowed, and nothing is logged: an unknown
 * format is an annotation (JSON Schema 2020-12), not an error.
 * `allErrors`, `ownProperties` and formats are choices ({@link AjvChoices}).
 */
export const AJV_OPTIONS: Readonly<Options> = {
  code: { source: true, esm: true, lines: true, es5: true },
  inlineRefs: true,
  messages: false,
  strict: false,
  allowUnionTypes: true,
  logger: false,
  validateFormats: false,
  allErrors: false,
  discriminator: true,
  ownProperties: false,
};

/** Where the generated validators take ajv-formats' format checks from (a dependency of every server project). */
export const FORMATS_MODULE = "ajv-formats/dist/formats.js";
export const FORMATS_NAME = "fullFormats";

/** What differs between the ajvs mcp-gen creates. */
export interface AjvChoices {
  /** The schemas' dialect (default draft-07, whose engine is much faster; see compile-validators.ts). */
  readonly dialect?: "2020-12" | "draft-07";
  /**
   * Collect every problem rather than stop at the first (default false):
   * tool arguments, so a model can fix all of them at once, and the
   * protocol's problem-listing validators (with `limitProblems`).
   */
  readonly allErrors?: boolean;
  /** With allErrors: add the keywords that bound how many errors are kept (ajv-setup.ts). */
  readonly limitProblems?: boolean;
  /**
   * Check `format` with ajv-formats' formats (date, email, uri, ...; default
   * false, formats are annotations). Standalone code refers to a format
   * check as `fullFormats.<name>` (regular-expression formats are written
   * inline), which the module imports from {@link FORMATS_MODULE}.
   */
  readonly formats?: boolean;
  /** Count only a value's own properties as present (default false; see `namesInheritedProperty`). */
  readonly ownProperties?: boolean;
  /**
   * Schemas a user wrote (tool schemas) rather than ones mcp-gen shaped:
   * `discriminator` is OpenAPI's annotation there, not ajv's keyword;
   * references are not inlined (a tools file of thousands of schemas would
   * repeat them); mcp-gen's keywords are not added; and the code keeps
   * ajv's own calling convention (no `es5`).
   */
  readonly userSchemas?: boolean;
  /** Keep no code, only compile (checking that a schema compiles): faster, unoptimized, with ajv's messages. */
  readonly compileOnly?: boolean;
  /** Run `pattern` and `patternProperties` with re2js, in linear time (linear-patterns.ts). */
  readonly linearPatterns?: boolean;
}

/**
 * How tool schemas are compiled, to check them (check-tools.ts) or to emit
 * their validators (emit-tools.ts): in their own dialect, as the user
 * wrote them; every problem reported, not just the first, so a model can
 * fix all its arguments at once; formats checked; only own properties
 * count as present, so `constructor` or `toString` are names like any other.
 */
export function toolAjvChoices(dialect: "2020-12" | "draft-07"): AjvChoices {
  return { dialect, allErrors: true, formats: true, ownProperties: true, userSchemas: true };
}

/** The ajv options for `choices`: {@link AJV_OPTIONS} with what they change. */
export function ajvOptions(choices: AjvChoices = {}): Options {
  const code = choices.compileOnly
    ? { optimize: false }
    : { ...AJV_OPTIONS.code, ...(choices.userSchemas ? { es5: false } : {}) };
  if (choices.linearPatterns) Object.assign(code, { regExp: linearRegExp });
  return {
    ...AJV_OPTIONS,
    allErrors: choices.allErrors ?? false,
    ownProperties: choices.ownProperties ?? false,
    validateFormats: choices.formats ?? false,
    ...(choices.userSchemas ? { discriminator: false, inlineRefs: false } : {}),
    // Checking quotes ajv's own words on an invalid schema in its diagnostic (MCPG706).
    ...(choices.compileOnly ? { messages: true } : {}),
    code,
  };
}

/**
 * An ajv with mcp-gen's options and `choices`, and ajv-formats' formats
 * when they are checked. Adding keywords is the caller's (ajv-setup.ts).
 */
export function createAjv(choices: AjvChoices = {}): Ajv {
  const options = ajvOptions(choices);
  const ajv = choices.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  if (choices.formats) {
    addFormats(ajv, { mode: "full" });
    if (ajv.opts.code.source) ajv.opts.code.formats = new Name(FORMATS_NAME);
  }
  return ajv;
}
