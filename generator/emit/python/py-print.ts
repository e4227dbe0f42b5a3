/**
 * The printer of every generated Python module: a small layout of
 * bracketed sequences in ruff's (black's) style, so the output is what
 * `ruff format` would write (test/python/format.test.ts holds ruff, pinned,
 * as the reference). A sequence is printed on one line when it fits in
 * {@link PY_WIDTH}; otherwise one item per line with a trailing comma,
 * which ruff keeps as it is (the "magic trailing comma"). Strings are
 * quoted as ruff prefers: double quotes unless single quotes escape less.
 */

/** ruff's default line length. */
export const PY_WIDTH = 88;
/** One level of indentation. */
export const PY_INDENT = "    ";

/** Python code: text (no line break), or a bracketed sequence laid out by {@link layout}. */
export type PyDoc = string | PySeq | readonly PyDoc[];

/** `open item, item close`: a call, a subscript, a list, a dict or a tuple. */
export interface PySeq {
  readonly kind: "seq";
  readonly open: string;
  readonly items: readonly PyDoc[];
  readonly close: string;
  /** A tuple: one item flat is written `(a,)`. */
  readonly tuple?: boolean;
}

/** A bracketed sequence. A subscript of one item is never given a trailing comma (it would make a tuple). */
export function seq(open: string, items: readonly PyDoc[], close: string): PySeq {
  return { kind: "seq", open, items, close };
}

/** A tuple literal. */
export function tuple(items: readonly PyDoc[]): PySeq {
  return { kind: "seq", open: "(", items, close: ")", tuple: true };
}

/** `name(args)`. */
export function call(name: string, args: readonly PyDoc[]): PyDoc {
  return [name, seq("(", args, ")")];
}

/** `name[args]`. */
export function subscript(name: string, args: readonly PyDoc[]): PyDoc {
  return [name, seq("[", args, "]")];
}

/** The flat text of a document, on one line. */
export function flat(doc: PyDoc): string {
  if (typeof doc === "string") return doc;
  if (isSeq(doc)) {
    const comma = doc.tuple && doc.items.length === 1 ? "," : "";
    return `${doc.open}${doc.items.map(flat).join(", ")}${comma}${doc.close}`;
  }
  return doc.map(flat).join("");
}

function isSeq(doc: PyDoc): doc is PySeq {
  return typeof doc === "object" && !Array.isArray(doc) && (doc as PySeq).kind === "seq";
}

/**
 * The document laid out at `indent` levels, its first line starting at
 * column `column` and followed by `trailing` columns of text: flat when it
 * fits, else the last sequence (ruff's right-hand split) exploded, then
 * earlier ones, until it fits or nothing is left to explode.
 */
export function layout(doc: PyDoc, indent: number, column = indent * 4, trailing = 0): string {
  const text = flat(doc);
  if (
    column + text.length + trailing <= PY_WIDTH ||
    (!text.includes("(") && !text.includes("[") && !text.includes("{"))
  )
    return text;
  const parts = (Array.isArray(doc) ? (doc as readonly PyDoc[]) : [doc]).flatMap(flatten);
  // A subscript of one item cannot take the trailing comma that keeps an explosion as it is (it would be a tuple).
  const explodable = (p: PyDoc) =>
    isSeq(p) && p.items.length > 0 && !(p.open === "[" && p.items.length === 1 && !p.tuple);
  let last = findLastIndex(parts, explodable);
  if (last < 0) last = findLastIndex(parts, (p) => isSeq(p) && p.items.length > 0);
  if (last < 0) return text;
  const seqDoc = parts[last] as PySeq;
  const headParts = parts.slice(0, last);
  let head = headParts.map(flat).join("");
  // A head too long for its line splits too, at its own last bracket (ruff's split omitting the
  // right-hand brackets): `x: Omittable[\n    LongName\n] = Field(\n    ...\n)`.
  if (
    column + head.length + seqDoc.open.length > PY_WIDTH &&
    headParts.some((p) => isSeq(p) && p.items.length > 0)
  )
    head = layout(headParts, indent, column, seqDoc.open.length);
  const tail = parts
    .slice(last + 1)
    .map(flat)
    .join("");
  const pad = PY_INDENT.repeat(indent + 1);
  const single = seqDoc.items.length === 1 && seqDoc.open === "[";
  const items = seqDoc.items.map(
    (item) =>
      `${pad}${layout(item, indent + 1, (indent + 1) * 4, single ? 0 : 1)}${single ? "" : ","}`,
  );
  return `${head}${seqDoc.open}\n${items.join("\n")}\n${PY_INDENT.repeat(indent)}${seqDoc.close}${tail}`;
}

function flatten(doc: PyDoc): PyDoc[] {
  if (typeof doc === "string" || isSeq(doc)) return [doc];
  return doc.flatMap(flatten);
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}

/** A statement: laid out at `indent` levels, with the indentation in front. */
export function statement(doc: PyDoc, indent = 0): string {
  return `${PY_INDENT.repeat(indent)}${layout(doc, indent)}`;
}

/**
 * A Python string literal as ruff writes it: double quotes, unless the
 * text holds more double quotes than single ones. Control characters,
 * backslashes and the quote are escaped; everything else is written as is.
 */
export function pyString(text: string): string {
  const doubles = (text.match(/"/g) ?? []).length;
  const singles = (text.match(/'/g) ?? []).length;
  const quote = doubles > singles ? "'" : '"';
  let body = "";
  for (const ch of text) body += escapeChar(ch, quote);
  return `${quote}${body}${quote}`;
}

function escapeChar(ch: string, quote: string): string {
  if (ch === "\\") return "\\\\";
  if (ch === quote) return `\\${quote}`;
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (ch === "\t") return "\\t";
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  // Lone surrogates and the line separators Python reads as line breaks inside a docstring.
  if ((code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029 || code === 0x85)
    return `\\u${code.toString(16).padStart(4, "0")}`;
  return ch;
}

/** A JSON value as a Python expression (dicts and lists as sequences, so they lay out). */
export function pyValue(value: unknown): PyDoc {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return seq("[", value.map(pyValue), "]");
  if (typeof value === "object")
    return seq(
      "{",
      // As in JSON, a member whose value is undefined is no member (a model built in code may carry one).
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [pyString(k), ": ", pyValue(v)]),
      "}",
    );
  throw new Error(`mcp-gen cannot write ${typeof value} as Python`);
}

function pyFloat(value: number): string {
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/**
 * A docstring at `indent` levels: `"""text"""` on one line when the text is
 * one line, else the text's lines with the closing quotes on their own.
 * Lines after the first lose their common indentation and trailing spaces,
 * as ruff re-indents them.
 */
export function docstring(text: string, indent: number): string {
  const pad = PY_INDENT.repeat(indent);
  const lines = escapeDocstring(text)
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""));
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const rest = lines.slice(1);
  const common = Math.min(
    ...rest.filter((l) => l !== "").map((l) => l.length - l.trimStart().length),
  );
  const dedented = rest.map((l) => (l === "" ? "" : l.slice(Number.isFinite(common) ? common : 0)));
  const first = lines[0]!.trimStart();
  if (dedented.length === 0) return `${pad}"""${spaceBeforeQuotes(first)}"""`;
  const body = dedented.map((l) => (l === "" ? "" : `${pad}${l}`)).join("\n");
  return `${pad}"""${first}\n${body}\n${pad}"""`;
}

/** Backslashes and triple quotes escaped; characters Python reads as line ends written as escapes. */
function escapeDocstring(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/"""/g, '\\"\\"\\"')
    .replace(/\r\n?/g, "\n")
    .replace(/[\t]/g, "    ")
    .replace(/\p{Cc}|[\u2028\u2029]/gu, (c) => (c === "\n" ? c : pyEscape(c)));
}

/** `\x1b`, `\u2028`: the escape of one character. */
function pyEscape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code > 0xff
    ? `\\u${code.toString(16).padStart(4, "0")}`
    : `\\x${code.toString(16).padStart(2, "0")}`;
}

/** A docstring ending in a quote gets a space, so its closing quotes stay three. */
function spaceBeforeQuotes(text: string): string {
  return text.endsWith('"') ? `${text} ` : text;
}

/** A comment line, `# text`, at `indent` levels. */
export function comment(text: string, indent = 0): string {
  return `${PY_INDENT.repeat(indent)}# ${text}`;
}
