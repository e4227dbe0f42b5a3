/**
 * The catalog of everything mcp-gen can tell a user about their input.
 *
 * Every diagnostic has a stable code (safe to grep for and to document), a
 * location (file plus JSON pointer or line:column), what went wrong and how
 * to fix it. The library collects diagnostics and throws them together as a
 * {@link McpGenError}; it never prints and never exits. The CLI prints one
 * line per diagnostic.
 */
import { type CatalogEntry, type Severity } from "./diagnostics/entry.js";
import { CONFIG_DIAGNOSTICS } from "./diagnostics/config.js";
import { EXTENSION_DIAGNOSTICS } from "./diagnostics/extensions.js";
import { MODEL_DIAGNOSTICS } from "./diagnostics/model.js";
import { SCAFFOLD_DIAGNOSTICS } from "./diagnostics/scaffold.js";
import { SOURCE_DIAGNOSTICS } from "./diagnostics/sources.js";
import { WRITE_DIAGNOSTICS } from "./diagnostics/write.js";

export type { Severity };

/** Where a problem is: a file and, inside it, a JSON pointer or a line and column. */
export interface Location {
  readonly file: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
}

/** One message from the catalog, with its parameters filled in. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly fix?: string;
  readonly location?: Location;
}

/**
 * The catalog. Codes are `MCPG` plus three digits, grouped by stage:
 * 1xx where schemas come from, 2xx reading them, 3xx the patch overlay and
 * rules, 4xx building and checking the model, 5xx writing output, 6xx extensions, 7xx scaffolding,
 * 8xx mcp-gen.json and project upgrades, 9xx internal.
 */
export const catalog = {
  ...SOURCE_DIAGNOSTICS,
  ...MODEL_DIAGNOSTICS,
  ...EXTENSION_DIAGNOSTICS,
  ...SCAFFOLD_DIAGNOSTICS,
  ...WRITE_DIAGNOSTICS,
  ...CONFIG_DIAGNOSTICS,
} as const;

/** A stable diagnostic code from the catalog. */
export type DiagnosticCode = keyof typeof catalog;

type ParamsOf<C extends DiagnosticCode> =
  (typeof catalog)[C] extends CatalogEntry<infer P> ? P : never;

/** Builds a diagnostic from the catalog, so every message has one wording. */
export function diagnostic<C extends DiagnosticCode>(
  code: C,
  params: ParamsOf<C>,
  location?: Location,
): Diagnostic {
  const e = catalog[code] as CatalogEntry<ParamsOf<C>>;
  return {
    code,
    severity: e.severity,
    message: e.message(params),
    ...(e.fix ? { fix: e.fix(params) } : {}),
    ...(location ? { location } : {}),
  };
}

/** Thrown by the library when input problems stop generation; carries every error found. */
export class McpGenError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "McpGenError";
    this.diagnostics = diagnostics;
  }
}

/**
 * Runs `read`, adding the diagnostics of a {@link McpGenError} it throws
 * to `problems` (and then giving undefined), so that a caller can go on
 * and report every problem together. Other errors are rethrown.
 */
export async function collectProblems<T>(
  problems: Diagnostic[],
  read: () => T | Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    problems.push(...error.diagnostics);
    return undefined;
  }
}

/** `each` applied to every item in turn; throws one {@link McpGenError} with the problems of all that failed. */
export async function mapReportingAll<T, R>(
  items: readonly T[],
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const problems: Diagnostic[] = [];
  const results: R[] = [];
  for (const item of items) {
    const result = await collectProblems(problems, () => each(item));
    if (result !== undefined) results.push(result);
  }
  if (problems.length > 0) throw new McpGenError(problems);
  return results;
}

/** Throws a {@link McpGenError} if any diagnostic is an error; returns the rest otherwise. */
export function throwIfErrors(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  if (diagnostics.some((d) => d.severity === "error")) throw new McpGenError(diagnostics);
  return diagnostics;
}

/** Renders a location as `file#/pointer` or `file:line:col`. */
export function formatLocation(loc: Location): string {
  if (loc.line !== undefined)
    return `${loc.file}:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ""}`;
  if (loc.pointer !== undefined) return `${loc.file}#${loc.pointer}`;
  return loc.file;
}

/** One line per diagnostic: `location: severity CODE: message (fix: ...)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.location ? `${formatLocation(d.location)}: ` : "";
  const fix = d.fix ? ` (fix: ${d.fix})` : "";
  return printable(`${where}${d.severity} ${d.code}: ${boundedText(d.message)}${fix}`);
}

/** The longest message printed whole: a diagnostic may quote what a peer sent (a tool's name, a line). */
const MAX_MESSAGE_CHARS = 8000;

function boundedText(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS
    ? text
    : `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length - MAX_MESSAGE_CHARS} more characters)`;
}

/**
 * `text` with control characters other than newline and tab written as
 * escapes: a name or line a server sent could otherwise drive the terminal
 * (escape sequences set its title, clear it, recolour what follows).
 */
export function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what this finds
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
