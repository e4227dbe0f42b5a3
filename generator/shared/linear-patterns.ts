/**
 * `pattern` and `patternProperties` run in linear time. JavaScript's RegExp
 * backtracks: a tool schema a server sends with `"pattern": "^(a+)+$"` made
 * a scaffolded client's check of 31 characters take more than 100 s, a
 * stall no timeout can stop, since the match is one synchronous call. The
 * tool validators of a project whose `patterns` setting is `linear` (every
 * client by default) run their patterns with re2js instead, through ajv's
 * `code.regExp` option: the JavaScript port of RE2, which matches in time
 * linear in the input, pure JavaScript (no native addon, so it runs where
 * the project does: Node.js, Bun, Deno, workerd), with no dependencies.
 *
 * RE2 has no lookaround and no backreferences, the features that need
 * backtracking. A pattern using them cannot run in linear time: it is left
 * out of the compiled schema, and the project's generation warns, naming
 * the tool, the schema pointer and RE2's reason (check/tool-patterns.ts).
 */
import type { Options } from "ajv";
import { RE2JS } from "re2js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json-value.js";
import { mapSchema } from "./schema-walk.js";

/** ajv's regular-expression engine option. */
type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/** The name the generated validator modules give the engine, which {@link LINEAR_REGEXP_CODE} defines. */
export const LINEAR_REGEXP_NAME = "linearRegExp";

/** The module re2js is imported from, in mcp-gen and in the projects that use it. */
export const LINEAR_REGEXP_MODULE = "re2js";

/** The code that defines the engine in a validator module, after `import { RE2JS } from "re2js"`. */
export const LINEAR_REGEXP_CODE = `const ${LINEAR_REGEXP_NAME} = (pattern) => {
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  return { test: (text) => re.test(text) };
};`;

/** `pattern` (ECMAScript syntax, as JSON Schema writes it) compiled by re2js; throws when RE2 cannot run it. */
function compileLinear(pattern: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/** The engine ajv compiles with (`code.regExp`): the same as {@link LINEAR_REGEXP_CODE} defines. */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const re = compileLinear(pattern);
    // ajv keeps one compiled pattern per toString(): "[object Object]" would make every pattern the first.
    return { test: (text: string) => re.test(text), toString: () => `/${pattern}/${flags}` };
  },
  { code: LINEAR_REGEXP_NAME },
);

/** Why re2js cannot run `pattern` in linear time, or undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    compileLinear(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A pattern left out of a schema: where it was, what it was, and why. */
export interface DroppedPattern {
  readonly pointer: string;
  readonly pattern: string;
  readonly reason: string;
}

/**
 * `schema` without the patterns re2js cannot run: a `pattern` keyword is
 * removed (the string is then not checked against it), a
 * `patternProperties` entry too (a property it would have matched is checked
 * as any other). Returns the schema (the same object when nothing was
 * dropped) and what was dropped.
 */
export function linearSchema(schema: JsonObject): {
  readonly schema: JsonObject;
  readonly dropped: readonly DroppedPattern[];
} {
  const dropped: DroppedPattern[] = [];
  const rebuilt = mapSchema(schema, (node, pointer) => {
    let out: JsonObject = node;
    if (typeof node.pattern === "string") {
      const reason = linearPatternProblem(node.pattern);
      if (reason !== undefined) {
        dropped.push({ pointer: `${pointer}/pattern`, pattern: node.pattern, reason });
        const { pattern: _pattern, ...rest } = out;
        out = rest;
      }
    }
    const patterns = node.patternProperties;
    if (isJsonObject(patterns)) {
      const kept: Array<[string, JsonValue]> = [];
      for (const [key, value] of Object.entries(patterns)) {
        const reason = linearPatternProblem(key);
        if (reason === undefined) kept.push([key, value]);
        else dropped.push({ pointer: `${pointer}/patternProperties`, pattern: key, reason });
      }
      if (kept.length !== Object.keys(patterns).length)
        out = { ...out, patternProperties: Object.fromEntries(kept) };
    }
    return out;
  });
  return { schema: dropped.length === 0 ? schema : (rebuilt as JsonObject), dropped };
}
