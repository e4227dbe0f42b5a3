/**
 * Bounds on the inputs mcp-gen reads, so that a hostile or broken input
 * ends in one diagnostic with a stable code (exit 2), never in a stack
 * overflow or a run that does not end. Every later stage walks schemas
 * recursively; these checks run right after a file is read, before any
 * of them.
 *
 * The bounds are far above what MCP's own schemas need: the deepest known
 * schema.json nests 15 levels (the Tasks extension), the largest file is
 * 182 KB, the largest revision has 155 definitions.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
// Imports nothing else of load/: json.ts checks every JSON text it parses with these.

/** The limits, with the numbers diagnostics quote. */
export const LIMITS = {
  /** Bytes of one input file (schema.json, schema.ts, a manifest, tools.json). */
  fileBytes: 16 * 1024 * 1024,
  /** Levels of JSON nesting (objects and arrays) in one JSON file. */
  jsonDepth: 256,
  /** Levels of bracket nesting (`{`, `[`, `(`) in schema.ts. */
  tsDepth: 256,
  /** Definitions in one schema.json. */
  definitions: 5_000,
} as const;

/** Throws MCPG211 when a file is larger than {@link LIMITS.fileBytes}. */
export function checkFileSize(bytes: number, file: string): void {
  if (bytes > LIMITS.fileBytes)
    throw new McpGenError([diagnostic("MCPG211", { bytes, limit: LIMITS.fileBytes }, { file })]);
}

/**
 * Throws MCPG212, at the JSON pointer of the first value too deep, when a
 * parsed JSON value nests deeper than {@link LIMITS.jsonDepth}. Iterative,
 * so any depth is measured without recursion.
 */
export function checkJsonDepth(value: unknown, file: string): void {
  const stack: Array<{ value: unknown; depth: number; pointer: string }> = [
    { value, depth: 0, pointer: "" },
  ];
  while (stack.length > 0) {
    const { value: node, depth, pointer } = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= LIMITS.jsonDepth)
      throw new McpGenError([
        diagnostic(
          "MCPG212",
          { what: "JSON values", limit: LIMITS.jsonDepth },
          { file, pointer: shortened(pointer) },
        ),
      ]);
    for (const [key, child] of Object.entries(node)) {
      const segment = key.replace(/~/g, "~0").replace(/\//g, "~1");
      stack.push({ value: child, depth: depth + 1, pointer: `${pointer}/${segment}` });
    }
  }
}

/** A pointer of hundreds of segments, cut to its first and last few. */
function shortened(pointer: string): string {
  const segments = pointer.split("/").slice(1);
  if (segments.length <= 12) return pointer;
  return `/${[...segments.slice(0, 6), "…", ...segments.slice(-4)].join("/")}`;
}

/** Throws MCPG213 when a schema.json has more than {@link LIMITS.definitions} definitions. */
export function checkDefinitionCount(count: number, file: string, pointer: string): void {
  if (count > LIMITS.definitions)
    throw new McpGenError([
      diagnostic("MCPG213", { count, limit: LIMITS.definitions }, { file, pointer }),
    ]);
}

/**
 * Throws MCPG212, at the line and column where the limit is passed, when
 * TypeScript source nests brackets deeper than {@link LIMITS.tsDepth}
 * (TypeScript's parser is recursive). Strings, template literals and
 * comments are skipped; a lone `<` or `>` is not a bracket.
 */
export function checkTsDepth(text: string, file: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") i = endOf(text, "\n", i + 2) - 1;
    else if (c === "/" && text[i + 1] === "*") i = endOf(text, "*/", i + 2) + 1;
    else if (c === '"' || c === "'" || c === "`") i = endOfString(text, c, i + 1);
    else if (c === "{" || c === "[" || c === "(") {
      if (++depth > LIMITS.tsDepth) {
        const before = text.slice(0, i).split("\n");
        throw new McpGenError([
          diagnostic(
            "MCPG212",
            { what: "brackets", limit: LIMITS.tsDepth },
            { file, line: before.length, column: before[before.length - 1]!.length + 1 },
          ),
        ]);
      }
    } else if (c === "}" || c === "]" || c === ")") depth = Math.max(0, depth - 1);
  }
}

function endOf(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? text.length : at;
}

function endOfString(text: string, quote: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}
