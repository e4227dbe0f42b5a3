/**
 * Line layout for the modules mcp-gen writes itself, exactly as prettier
 * (with PRETTIER_OPTIONS) would print them, so those modules skip the
 * format stage: reprinting them took about half of prettier's time in a
 * generation run. Only shapes whose prettier layout depends on nothing but
 * line width are laid out here; test/emit/layout.test.ts checks each one
 * against prettier over a sweep of name lengths, and the safety tests
 * check every generated file with `prettier --check`.
 */
import { PRETTIER_OPTIONS } from "../format/format.js";

export const PRINT_WIDTH = PRETTIER_OPTIONS.printWidth ?? 80;
/** One level of indentation. */
export const INDENT = " ".repeat(PRETTIER_OPTIONS.tabWidth ?? 2);

/** Display width as prettier measures it: wide East Asian characters count two columns, combining marks none. */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (/\p{Mark}/u.test(ch) || code < 0x20) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** True when every line of `text` fits in the print width. */
export function fits(text: string): boolean {
  return text.split("\n").every((line) => textWidth(line) <= PRINT_WIDTH);
}

/**
 * The first of `layouts` (candidate texts of one construct, in prettier's
 * order of preference) whose lines all fit; the last when none does, as
 * prettier then prints its most broken form and lets lines run long.
 */
export function firstFitting(...layouts: string[]): string {
  return layouts.find(fits) ?? layouts[layouts.length - 1]!;
}

/** Indents every non-empty line of `text` by `levels` indentation steps. */
export function indent(text: string, levels = 1): string {
  const pad = INDENT.repeat(levels);
  return text
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}

/**
 * A bracketed, comma-separated list (`{ a, b }`, `[a, b]`) at `depth`
 * levels of indentation: on one line when it fits between `before` and
 * `after`, else one item per line with a trailing comma. `spaced` puts
 * spaces inside the brackets (object and import braces do, arrays do not).
 * Items are single-line texts; `broken`, when given, lays out one item on
 * its own line (at depth + 1, with its comma) instead.
 */
export function list(
  depth: number,
  before: string,
  open: string,
  items: readonly string[],
  close: string,
  after: string,
  spaced: boolean,
  broken: (item: string, index: number) => string = (item) => indent(`${item},`, depth + 1),
): string {
  if (items.length === 0) return indent(`${before}${open}${close}${after}`, depth);
  const pad = spaced ? " " : "";
  const flat = indent(`${before}${open}${pad}${items.join(", ")}${pad}${close}${after}`, depth);
  if (fits(flat)) return flat;
  return `${indent(`${before}${open}`, depth)}\n${items.map(broken).join("\n")}\n${indent(`${close}${after}`, depth)}`;
}

/**
 * A type alias of a union: on one line; else the union on the next line;
 * else one member per line, each after a `|`. `broken`, when given, holds
 * each member's form broken inside (its later lines indented as if the
 * member started a line of its own), used when the member does not fit
 * on its line.
 */
export function unionAlias(
  head: string,
  members: readonly string[],
  broken: readonly string[] = members,
): string {
  if (members.length < 2) return `${head} = ${members[0] ?? "never"};`;
  const union = members.join(" | ");
  const last = members.length - 1;
  const memberLine = (m: string, i: number) => {
    const end = i === last ? ";" : "";
    return firstFitting(indent(`| ${m}${end}`), indent(`| ${broken[i]}${end}`));
  };
  return firstFitting(
    `${head} = ${union};`,
    `${head} =\n${indent(union)};`,
    `${head} =\n${members.map(memberLine).join("\n")}`,
  );
}

/**
 * An object member, `depth` levels deep, whose value prettier may move to
 * the next line (a string literal or a member expression like
 * `compiled.validateX`): `key: value,` when it fits, else `key:` with the
 * value indented below it. Prettier never moves the value of a key
 * narrower than five columns as printed (quotes and brackets included):
 * too little would be gained.
 */
export function breakableMember(depth: number, key: string, value: string): string {
  const oneLine = indent(`${key}: ${value},`, depth);
  if (textWidth(key) < SHORT_KEY_WIDTH) return oneLine;
  return firstFitting(oneLine, indent(`${key}:\n${indent(value)},`, depth));
}

/** prettier's tabWidth + 3: keys narrower than this keep their value on their line. */
const SHORT_KEY_WIDTH = (PRETTIER_OPTIONS.tabWidth ?? 2) + 3;

/**
 * A string literal as prettier writes it: double quotes, unless the text
 * holds more double quotes than single ones (then single quotes, which
 * need fewer escapes).
 */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return json;
  const inner = json
    .slice(1, -1)
    .replace(/\\(.)|'/g, (match: string, escaped?: string) =>
      escaped === '"' ? '"' : escaped !== undefined ? match : "\\'",
    );
  return `'${inner}'`;
}

/**
 * A value in a data table: a scalar (already written: a literal, a member
 * expression, a number), an array of scalars, or an object of values.
 */
export type TableValue =
  | string
  | { readonly array: readonly string[] }
  | { readonly object: ReadonlyArray<readonly [key: string, value: TableValue]> };

/** One line per value, flat: how the value reads when it fits. */
function flatValue(value: TableValue): string {
  if (typeof value === "string") return value;
  if ("array" in value) return `[${value.array.join(", ")}]`;
  return value.object.length === 0
    ? "{}"
    : `{ ${value.object.map(([k, v]) => `${k}: ${flatValue(v)}`).join(", ")} }`;
}

/**
 * A member `key: value,` of an object literal, `depth` levels deep.
 * Objects and arrays stay on the key's line and break inside when they
 * do not fit; a string or member expression moves below
 * the key; anything else (numbers, booleans) never breaks.
 */
export function tableMember(depth: number, key: string, value: TableValue): string {
  if (typeof value === "string") {
    return /^["']|^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value)
      ? breakableMember(depth, key, value)
      : indent(`${key}: ${value},`, depth);
  }
  if ("array" in value) return list(depth, `${key}: `, "[", value.array, "]", ",", false);
  const entries = value.object;
  return list(
    depth,
    `${key}: `,
    "{",
    entries.map(([k, v]) => `${k}: ${flatValue(v)}`),
    "}",
    ",",
    true,
    (_, i) => tableMember(depth + 1, entries[i]![0], entries[i]![1]),
  );
}

/**
 * An object literal written expanded, one member per line (prettier keeps
 * an object broken when it starts that way), or `{}` when empty.
 */
export function expandedObject(
  entries: ReadonlyArray<readonly [key: string, value: TableValue]>,
): string {
  return block(entries.map(([k, v]) => tableMember(1, k, v)));
}

/** `{`, the given lines (already indented), `}`; or `{}` for none, as prettier prints an empty body. */
export function block(lines: readonly string[]): string {
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n}`;
}
