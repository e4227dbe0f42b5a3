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
const INDENT = " ".repeat(PRETTIER_OPTIONS.tabWidth ?? 2);

/** Display width as prettier measures it: wide East Asian characters count two columns, combining marks none. */
export function textWidth(text: string): number {
  // eslint-disable-next-line no-control-regex
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
 * Items are single-line texts.
 */
export function list(depth: number, before: string, open: string, items: readonly string[], close: string, after: string, spaced: boolean): string {
  if (items.length === 0) return indent(`${before}${open}${close}${after}`, depth);
  const pad = spaced ? " " : "";
  const flat = indent(`${before}${open}${pad}${items.join(", ")}${pad}${close}${after}`, depth);
  if (fits(flat)) return flat;
  return indent(`${before}${open}\n${items.map((item) => indent(`${item},`)).join("\n")}\n${close}${after}`, depth);
}

/**
 * An object or interface member, `depth` levels deep, whose value prettier
 * may move to the next line (a string literal or a member expression like
 * `compiled.validateX`): `key: value,` when it fits, else `key:` with the
 * value indented below it.
 */
export function breakableMember(depth: number, key: string, value: string, terminator: "," | ";"): string {
  return firstFitting(indent(`${key}: ${value}${terminator}`, depth), indent(`${key}:\n${indent(value)}${terminator}`, depth));
}
