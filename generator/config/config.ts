/**
 * mcp-gen.json: what `mcp-gen generate` generates when it is given no
 * --spec and --out. The file is found in the current folder or the nearest
 * parent, checked against schema/config.schema.json (one diagnostic per
 * problem), and every path in it is relative to the folder holding it, so
 * the same file means the same thing from any working directory.
 *
 *   { "targets": [{ "spec": "2026-07-28", "extensions": ["tasks"], "out": "src/mcp" }] }
 *
 * A project made by `mcp-gen server` or `mcp-gen client` keeps its settings (kind, revision,
 * extensions, tools, example, transport) in the same file, beside any
 * targets; generator/scaffold reads those.
 */
import { createRequire } from "node:module";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { escapePointerSegment, parseJsonText } from "../load/json.js";
import { packageRoot } from "../load/package-root.js";
import { readBoundedFile } from "../load/read-file.js";
import { resolveExtensionReference, resolveSpecReference } from "../load/references.js";
import { GENERATED_DIRS } from "../write/write-project.js";

/** The configuration file's name. */
export const CONFIG_FILE = "mcp-gen.json";

/** One output folder of the configuration, with its paths resolved. */
export interface ConfigTarget {
  /** What generate() takes: a revision name, or the spec folder's absolute path. */
  readonly spec: string;
  /** Known extension names as written; folders and manifest files as absolute paths. */
  readonly extensions: readonly string[];
  /** The output folder, absolute. */
  readonly out: string;
  /** The output folder relative to the configuration's folder, with `/` (`src/mcp`): how banners name the target. */
  readonly name: string;
  /** Where the target is in the file (`/targets/0`). */
  readonly pointer: string;
}

/** What a project's settings read, as far as watching them goes (the scaffold reads the rest). */
export interface ProjectInputs {
  /** What made the project: `mcp-gen server` or `mcp-gen client`. */
  readonly kind: "server" | "client";
  /** A revision name, or the spec folder's absolute path. */
  readonly revision: string;
  /** Known extension names as written; others as absolute paths. */
  readonly extensions: readonly string[];
  /** The tools file, absolute. */
  readonly tools: string;
}

/** A configuration file, read and checked. */
export interface Config {
  /** The file, absolute. */
  readonly file: string;
  /** The folder every path of the file is relative to. */
  readonly dir: string;
  readonly targets: readonly ConfigTarget[];
  /** In a project made by `mcp-gen server` or `mcp-gen client`: what its settings read. */
  readonly project?: ProjectInputs;
}

/** What the file holds, once it passed the schema. */
interface RawTarget {
  readonly spec: string;
  readonly extensions?: string[];
  readonly out: string;
  readonly allowOutside?: boolean;
}

interface RawConfig {
  readonly targets?: ReadonlyArray<RawTarget>;
  readonly kind?: string;
  readonly revision?: string;
  readonly extensions?: string[];
  readonly tools?: string;
}

/** The nearest mcp-gen.json: in `from` or the closest parent that has one. */
export function findConfig(from: string = process.cwd()): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The nearest mcp-gen.json, read and checked; throws MCPG802 when there is
 * none, and every problem of the file at once when it is not valid.
 */
export function loadConfig(from: string = process.cwd()): Config {
  const file = findConfig(from);
  if (!file) throw new McpGenError([diagnostic("MCPG802", { from: resolve(from) })]);
  return readConfig(file);
}

/** Reads and checks a configuration file; throws an McpGenError with every problem. */
export function readConfig(path: string): Config {
  const file = resolve(path);
  let text: string;
  try {
    text = readBoundedFile(file).toString("utf8");
  } catch (error) {
    if (error instanceof McpGenError) throw error;
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        { reason: `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})` },
        { file },
      ),
    ]);
  }
  const value = parseJsonText(text, file);
  const problems = schemaProblems(value, file);
  if (problems.length > 0) throw new McpGenError(problems);
  const raw = value as unknown as RawConfig;
  const dir = dirname(file);
  const targets = (raw.targets ?? []).map((t, i) => resolveTarget(t, dir, `/targets/${i}`));
  const meaning = [
    ...emptiness(raw, file),
    ...outside(raw.targets ?? [], targets, dir, file),
    ...overlaps(targets, raw, file),
  ];
  if (meaning.length > 0) throw new McpGenError(meaning);
  return { file, dir, targets, ...(raw.kind ? { project: projectInputs(raw, dir) } : {}) };
}

function projectInputs(raw: RawConfig, dir: string): ProjectInputs {
  return {
    kind: raw.kind === "client" ? "client" : "server",
    revision: resolveSpecReference(raw.revision ?? "", dir),
    extensions: (raw.extensions ?? []).map((e) => resolveExtensionReference(e, dir)),
    tools: resolve(dir, raw.tools ?? ""),
  };
}

/** A target's spec, extensions and output folder, resolved against the configuration's folder. */
function resolveTarget(target: RawTarget, dir: string, pointer: string): ConfigTarget {
  const out = resolve(dir, target.out);
  return {
    spec: resolveSpecReference(target.spec, dir),
    extensions: (target.extensions ?? []).map((e) => resolveExtensionReference(e, dir)),
    out,
    name: relative(dir, out).split(sep).join("/") || ".",
    pointer,
  };
}

/**
 * Targets whose output folder leads outside the configuration's folder (by
 * `..`, an absolute path, or a symbolic link on the way) without
 * `"allowOutside": true` (MCPG810): a configuration file found in a folder
 * someone else wrote must not make mcp-gen write, or with --force replace,
 * a folder elsewhere.
 */
function outside(
  raw: readonly RawTarget[],
  targets: readonly ConfigTarget[],
  dir: string,
  file: string,
): Diagnostic[] {
  return targets.flatMap((target, i) =>
    raw[i]?.allowOutside === true || within(realPathOf(target.out), realPathOf(dir))
      ? []
      : [
          diagnostic(
            "MCPG810",
            { out: raw[i]!.out, dir },
            { file, pointer: `${target.pointer}/out` },
          ),
        ],
  );
}

/** Where `path` really is: its deepest existing folder with links resolved, and the rest as written. */
function realPathOf(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return path;
      rest.push(basename(at));
    }
  }
}

function emptiness(raw: RawConfig, file: string): Diagnostic[] {
  return raw.kind === undefined && (raw.targets ?? []).length === 0
    ? [diagnostic("MCPG804", { file }, { file, pointer: raw.targets ? "/targets" : "" })]
    : [];
}

/**
 * Two targets writing one folder, one inside the other, a target over the
 * configuration file, or (in a project) over the folders the project's
 * settings regenerate: each would overwrite what another wrote.
 */
function overlaps(targets: readonly ConfigTarget[], raw: RawConfig, file: string): Diagnostic[] {
  const dir = dirname(file);
  const owners: Array<{ path: string; what: string }> = raw.kind
    ? GENERATED_DIRS.map((p) => ({ path: resolve(dir, p), what: `the project's ${p}` }))
    : [];
  const problems: Diagnostic[] = [];
  for (const target of targets) {
    const clash = owners.find((o) => within(target.out, o.path) || within(o.path, target.out));
    const other = clash?.what ?? (within(file, target.out) ? `${CONFIG_FILE} itself` : undefined);
    if (other)
      problems.push(
        diagnostic(
          "MCPG803",
          { out: target.name, other },
          { file, pointer: `${target.pointer}/out` },
        ),
      );
    owners.push({ path: target.out, what: `the target at ${target.pointer} (${target.name})` });
  }
  return problems;
}

/** True when `path` is `folder` or inside it. */
function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

let validateConfig: ValidateFunction | undefined;

/** The compiled schema/config.schema.json, compiled once. */
function configValidator(): ValidateFunction {
  if (!validateConfig) {
    const schema = JSON.parse(
      readFileSync(join(packageRoot(), "schema", "config.schema.json"), "utf8"),
    ) as object;
    // ajv's 2020-12 build is CommonJS; createRequire keeps its default export usable under NodeNext.
    const { Ajv2020 } = createRequire(import.meta.url)(
      "ajv/dist/2020.js",
    ) as typeof import("ajv/dist/2020.js");
    validateConfig = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
  }
  return validateConfig;
}

/** Schema violations, each at its JSON pointer. */
function schemaProblems(value: unknown, file: string): Diagnostic[] {
  const validate = configValidator();
  if (validate(value)) return [];
  return unionErrors(validate.errors ?? []).map((e) =>
    diagnostic("MCPG801", { reason: reasonOf(e) }, { file, pointer: pointerOf(e) }),
  );
}

/**
 * `auth` is `true` (a client's) or an object (a server's). An object that
 * fails only needs what is wrong inside it, not that it is not `true` nor
 * that no branch matched; anything else needs one plain message.
 */
function unionErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const isUnion = (e: ErrorObject) =>
    e.instancePath === "/auth" && ["anyOf", "const", "type"].includes(e.keyword);
  const inside = errors.filter(
    (e) => e.instancePath.startsWith("/auth/") || (e.instancePath === "/auth" && !isUnion(e)),
  );
  const rest = errors.filter((e) => !isUnion(e) && !inside.includes(e));
  if (inside.length > 0 || !errors.some(isUnion)) return [...rest, ...inside];
  const union = errors.find((e) => e.keyword === "anyOf")!;
  return [
    ...rest,
    { ...union, keyword: "type", params: { type: "object (a server's) or true (a client's)" } },
  ];
}

/** Where the problem is: the property a `required`, `dependentRequired` or `additionalProperties` error names. */
function pointerOf(e: ErrorObject): string {
  const at = (name: unknown) => `${e.instancePath}/${escapePointerSegment(String(name))}`;
  switch (e.keyword) {
    case "additionalProperties":
      return at(e.params.additionalProperty);
    case "required":
      return at(e.params.missingProperty);
    case "dependentRequired":
      return at(e.params.property === "kind" ? e.params.missingProperty : e.params.property);
    default:
      return e.instancePath;
  }
}

/** What is wrong, naming the setting (the last segment of the pointer). */
function reasonOf(e: ErrorObject): string {
  const pointer = pointerOf(e);
  const last = pointer.split("/").pop() ?? "";
  const setting = pointer === "" ? "the file" : `"${last.replace(/~1/g, "/").replace(/~0/g, "~")}"`;
  switch (e.keyword) {
    case "additionalProperties":
      return e.instancePath === ""
        ? `${setting} is not a setting of mcp-gen.json (settings: targets; in a project made by mcp-gen server or mcp-gen client also kind, revision, extensions, tools, example, transport, target, auth, fromServer, fromServerFolder, lists, patterns)`
        : e.instancePath.startsWith("/auth")
          ? `${setting} is not a setting of ${e.instancePath.slice(1).replace(/\//g, ".")} (docs/auth.md)`
          : e.instancePath === "/lists"
            ? `${setting} is not a setting of lists (settings: pageSize, ttlMs, cacheScope; docs/server.md)`
            : `${setting} is not a target setting (a target has spec, extensions and out)`;
    case "required":
      return `${setting} is missing`;
    case "dependentRequired":
      return e.params.property === "kind"
        ? `${setting} is missing (a project's settings need revision, extensions and tools)`
        : `${setting} is a project setting, which needs "kind" (mcp-gen server or mcp-gen client writes it)`;
    case "enum":
      return `${setting} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "minLength":
      return `${setting} must not be empty`;
    case "type":
      return `${setting} must be ${article(String(e.params.type))} ${String(e.params.type)}`;
    default:
      return `${setting} ${e.message ?? e.keyword}`;
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}
