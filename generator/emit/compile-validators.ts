/**
 * compileValidators: ajv standalone code for the schemas emit-validators.ts
 * shapes and for a project's tool schemas (emit-tools.ts), compiled with
 * mcp-gen's one ajv set-up (shared/ajv.ts, keywords in ajv-setup.ts). The
 * code is not edited afterwards.
 *
 * The draft-07 engine validates both dialects when a schema uses no
 * 2020-12-only keyword (shared/json-schema-dialects.ts); it is much faster
 * than Ajv2020, which tracks evaluated properties through every anyOf
 * branch.
 *
 * Compiling is the largest part of a `generate` run's time (about 0.3 s
 * of 0.75 s for 2026-07-28, in a CPU profile) and the same schemas always give the same code, so a caller
 * may pass a {@link CompiledCodeCache}: code is then looked up by a key
 * naming everything it depends on (the schemas, the export names, the
 * choices, ajv's and ajv-formats' versions and the code of this module
 * and every module of mcp-gen it imports), and compiled only when absent.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { extname } from "node:path";
import type { Ajv } from "ajv";
import type { CompiledCodeCache } from "../load/code-cache.js";
import { isJsonObject, type JsonObject } from "../load/json.js";
import { forEachSchema } from "../shared/schema-walk.js";
import { createAjv, type AjvChoices } from "../shared/ajv.js";
import { uses2020Keywords } from "../shared/json-schema-dialects.js";
import { addMcpKeywords, addProblemLimitKeywords } from "./ajv-setup.js";
import { moduleCode } from "./module-code.js";

/** What ajv compiles: one schema per declaration (`$id` = its name), and the export name of each validator. */
export interface ValidatorSources {
  readonly schemas: readonly JsonObject[];
  /** Export name → schema `$id`. */
  readonly exports: Readonly<Record<string, string>>;
}

/**
 * Compiles every validator to standalone code: ajv's output as ajv writes
 * it, one statement per line, assembled into one module (module-code.ts). The module around it is emit-validators.ts's.
 */
export function compileValidators(
  sources: ValidatorSources,
  choices: AjvChoices = {},
  cache?: CompiledCodeCache,
): string {
  if (!cache) return compileNow(sources, choices);
  const key = compiledCodeKey(sources, choices);
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const code = compileNow(sources, choices);
  cache.set(key, code);
  return code;
}

function compileNow({ schemas, exports }: ValidatorSources, choices: AjvChoices): string {
  const ajv = compilerFor(schemas, choices);
  for (const schema of schemas) ajv.addSchema(schema);
  return moduleCode(ajv, exports);
}

/** The cache key of compiling `sources` with `choices`: a sha256 of all the code depends on. */
export function compiledCodeKey(sources: ValidatorSources, choices: AjvChoices): string {
  return createHash("sha256")
    .update(compilerFingerprint())
    .update("\0")
    .update(JSON.stringify([sources.schemas, sources.exports, choices]))
    .digest("hex");
}

let fingerprint: string | undefined;

/**
 * What the compiler is: ajv's and ajv-formats' versions and the text of
 * this module and of every mcp-gen module it imports, directly or not
 * (found by following relative imports from this file). A change to any of
 * them gives new keys, so code from an older compiler is never reused.
 */
export function compilerFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const require = createRequire(import.meta.url);
  const hash = createHash("sha256");
  for (const name of ["ajv", "ajv-formats"])
    hash.update(`${name} ${(require(`${name}/package.json`) as { version: string }).version}\0`);
  for (const [url, text] of importClosure(new URL(import.meta.url)))
    hash.update(`${url.slice(url.lastIndexOf("/generator/"))}\0${text}\0`);
  fingerprint = hash.digest("hex");
  return fingerprint;
}

/**
 * The text of `start` and of every module it imports by a relative path,
 * by URL. Imports are written `./name.js`; run from source (tests), the
 * files are `.ts`, so the extension is the importing file's own.
 */
export function importClosure(start: URL): Map<string, string> {
  const texts = new Map<string, string>();
  const pending = [start];
  for (let url = pending.pop(); url; url = pending.pop()) {
    if (texts.has(url.href)) continue;
    const text = readFileSync(url, "utf8");
    texts.set(url.href, text);
    const extension = extname(url.pathname);
    for (const [, specifier] of text.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g))
      pending.push(new URL(specifier!.replace(/\.js$/, extension), url));
  }
  return new Map([...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
 * The ajv that compiles these schemas: `createAjv` (shared/ajv.ts) with
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
 * (`npm run bench -- validation --baseline=<a generation without it>`).
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
