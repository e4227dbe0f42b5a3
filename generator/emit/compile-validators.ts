/**
 * compileValidators: ajv standalone code for the schemas emit-validators.ts
 * shapes, post-processed and laid out.
 *
 * The draft-07 engine validates both dialects when a schema uses no
 * 2020-12-only keyword; it is much faster than Ajv2020, which tracks
 * evaluated properties through every anyOf branch.
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { McpGenError, diagnostic } from "../diagnostics.js";
import type { JsonObject } from "../load/json.js";
import { forEachSchema } from "../load/schema-walk.js";
import { SUPPORT_MODULE } from "./paths.js";
import { addMcpKeywords, AJV_OPTIONS } from "./ajv-setup.js";

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

/** ajv's runtime helpers that standalone code `require()`s, mapped to support exports. */
const RUNTIME_HELPERS: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/ucs2length").default': "ucs2length",
  'require("ajv/dist/runtime/equal").default': "deepEqual",
  [`require("${SUPPORT_MODULE}").isJsonValue`]: "isJsonValue",
};

/** What ajv compiles: one schema per declaration (`$id` = its name), and the export name of each validator. */
export interface ValidatorSources {
  readonly schemas: readonly JsonObject[];
  /** Export name → schema `$id`. */
  readonly exports: Readonly<Record<string, string>>;
}

/** The compiled module's code, laid out, and the support exports it uses. */
export interface CompiledValidators {
  readonly code: string;
  readonly imports: readonly string[];
}

/** Compiles every validator to standalone code. */
export function compileValidators({ schemas, exports }: ValidatorSources): CompiledValidators {
  const ajv = createAjv(schemas);
  for (const schema of schemas) ajv.addSchema(schema);
  const { code, helpers } = replaceRuntimeRequires(
    loadPropertiesOnce(callReferencesWithoutPaths(standaloneCode(ajv, { ...exports }))),
  );
  const imports = code.includes("rebaseErrors(") ? [...helpers, "rebaseErrors"] : helpers;
  return {
    code: layOut(code.replace(/^"use strict";/, "")),
    imports: [...new Set(imports)].sort(),
  };
}

/**
 * The ajv engine for these schemas: Ajv2020 only when a schema needs a
 * 2020-12-only keyword (see the top of this file), with mcp-gen's options
 * and keywords.
 */
export function createAjv(schemas: readonly JsonObject[]): Ajv {
  const options = { ...AJV_OPTIONS };
  return addMcpKeywords(schemas.some(uses2020Keywords) ? new Ajv2020(options) : new Ajv(options));
}

export function uses2020Keywords(schema: JsonObject): boolean {
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

/** A call of a referenced validator with the caller's path, as ajv writes it (one line). */
const REFERENCE_CALL =
  /^(\s*)if\(!\(((?:validate\d+|wrapper\d+\.validate))\((.+?), \{instancePath(?::(.+?))?,parentData(?::[^,{}]+)?,parentDataProperty(?::[^,{}]+)?,rootData\}\)\)\)\{$/;

/**
 * ajv passes every referenced validator an object with the path it is
 * called at (`instancePath + "/params"`, the key escaped), built on every
 * call even when nothing fails: most of the cost of small definitions.
 * This calls references with the value alone and puts the path in front
 * of their errors only on failure (`rebaseErrors`). The rewrite applies
 * only where a call is followed by ajv's usual error collection line;
 * anything else is left as ajv wrote it.
 */
export function callReferencesWithoutPaths(code: string): string {
  const lines = code.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const call = REFERENCE_CALL.exec(lines[i]!);
    if (!call) continue;
    const [, indent, fn, arg, path] = call;
    const collect = `vErrors = vErrors === null ? ${fn}.errors : vErrors.concat(${fn}.errors);`;
    if (lines[i + 1]!.trim() !== collect) continue;
    const rebased = `rebaseErrors(${fn}.errors, ${path ?? "instancePath"})`;
    lines[i] = `${indent}if(!(${fn}(${arg}))){`;
    lines[i + 1] = lines[i + 1]!.replace(
      collect,
      `vErrors = vErrors === null ? ${rebased} : vErrors.concat(${rebased});`,
    );
  }
  return withoutContextDestructuring(lines.join("\n"));
}

/** The parameter list ajv gives every validator function. */
const AJV_SIGNATURE =
  /^(function validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{$/gm;

/**
 * Once no call passes a context any more, ajv's destructured parameter
 * (`{instancePath="", parentData, …}={}`, an object and four loads on
 * every call) is reduced to the one field the bodies read. Left alone
 * when any body reads parentData or rootData, or a call still passes them.
 */
function withoutContextDestructuring(code: string): string {
  const body = code.replace(AJV_SIGNATURE, "");
  if (/\b(parentData|parentDataProperty|rootData)\b/.test(body)) return code;
  return code.replace(
    AJV_SIGNATURE,
    '$1(data, context){\nconst instancePath = context === undefined ? "" : context.instancePath ?? "";',
  );
}

/** `if(data.name !== undefined){` or `if(data0["a/b"] !== undefined){`, as ajv writes a present-property test (one line). */
const PROPERTY_TEST =
  /^if\(([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\["[^"\\]*"\])) !== undefined\)\{$/;

/**
 * ajv tests an optional property (`if(data.x !== undefined){`) and then
 * reads it again inside the block. Where objects of many shapes reach one
 * validator (every request's `_meta`, every capability object) each read
 * is a megamorphic property load that V8 cannot merge with the other, so
 * a present property cost two lookups. This reads each tested property
 * once into a constant and uses that constant in the block, outside
 * string literals. ajv's lines are one statement each, a block opening
 * with a line that ends in `{` and closing with one that starts with `}`
 * (layOut relies on the same). A block that assigns to or deletes the
 * property, or where a line that mentions it has a quote that does not
 * close on it, is left as ajv wrote it. Plain string search, not a
 * regular expression per property: hundreds of one-off expressions cost
 * more to compile than the rest of the pass.
 */
export function loadPropertiesOnce(code: string): string {
  const lines = code.split("\n");
  const prefix = unusedPrefix(code, "prop");
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const test = PROPERTY_TEST.exec(lines[i]!);
    if (!test) continue;
    const read = test[1]!;
    // Only the lines that mention the read can use or write it.
    const uses = blockAfter(lines, i).flatMap((k) =>
      lines[k]!.includes(read) ? [{ k, at: readsIn(lines[k]!, read) }] : [],
    );
    if (
      uses.some(
        ({ k, at }) => at === undefined || at.some((a) => isWritten(lines[k]!, a, read.length)),
      )
    )
      continue;
    const name = `${prefix}${next++}`;
    lines[i] = `const ${name} = ${read};\nif(${name} !== undefined){`;
    for (const { k, at } of uses) lines[k] = replaceAt(lines[k]!, at!, read.length, name);
  }
  return lines.join("\n");
}

/** The indexes of the lines inside the block that the line at `open` opens. */
function blockAfter(lines: readonly string[], open: number): number[] {
  const inside: number[] = [];
  for (let k = open + 1, depth = 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.startsWith("}")) depth--;
    if (depth === 0) break;
    inside.push(k);
    if (line.endsWith("{")) depth++;
  }
  return inside;
}

/**
 * Where `read` occurs on `line` as a whole expression (not part of a longer
 * name or member chain on its left, not inside a string literal);
 * undefined when a string literal on the line does not close.
 */
function readsIn(line: string, read: string): number[] | undefined {
  const strings = stringSpans(line);
  if (!strings) return undefined;
  const found: number[] = [];
  for (let at = line.indexOf(read); at !== -1; at = line.indexOf(read, at + read.length)) {
    const whole = !/[\w$.]/.test(line[at - 1] ?? "") && !/[\w$]/.test(line[at + read.length] ?? "");
    if (whole && !strings.some(([from, to]) => at >= from && at < to)) found.push(at);
  }
  return found;
}

/** An assignment operator (`=`, `+=`, `??=`, …) or `++`/`--` right after an expression. */
const WRITE_AFTER = /^\s*(?:(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)|\+\+|--)/;
/** `++`, `--` or `delete` right before an expression. */
const WRITE_BEFORE = /(?:\+\+|--|\bdelete)\s*$/;

function isWritten(line: string, at: number, length: number): boolean {
  return WRITE_AFTER.test(line.slice(at + length)) || WRITE_BEFORE.test(line.slice(0, at));
}

/** `line` with the `length` characters at each of `starts` (ascending) replaced by `text`. */
function replaceAt(line: string, starts: readonly number[], length: number, text: string): string {
  let out = "";
  let from = 0;
  for (const at of starts) {
    out += line.slice(from, at) + text;
    from = at + length;
  }
  return out + line.slice(from);
}

/**
 * The [start, end) spans of the string literals on a line; undefined when
 * a literal is not closed on it.
 */
function stringSpans(line: string): Array<[number, number]> | undefined {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < line.length; i++) {
    const quote = line[i]!;
    if (quote !== '"' && quote !== "'" && quote !== "`") continue;
    let end = i + 1;
    while (end < line.length && line[end] !== quote) end += line[end] === "\\" ? 2 : 1;
    if (end >= line.length) return undefined;
    spans.push([i, end + 1]);
    i = end;
  }
  return spans;
}

/** `base`, with underscores added until no identifier in `code` starts with it and a digit. */
function unusedPrefix(code: string, base: string): string {
  let prefix = base;
  while (new RegExp(`(?<![\\w$])${prefix}\\d`).test(code)) prefix += "_";
  return prefix;
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
  if (leftover)
    throw new McpGenError([
      diagnostic("MCPG901", {
        reason: `ajv standalone code needs ${leftover[0]}, which mcp-gen cannot inline`,
      }),
    ]);
  return { code: out, helpers: helpers.sort() };
}
