/**
 * The printer every generated TypeScript module goes through: a small
 * document printer (groups that break as a whole, indentation, alignment,
 * content that depends on whether a group broke). Emitters describe
 * code as documents (ts-print.ts has the TypeScript constructs) and this
 * lays them out in the print width. The algorithm is Wadler's "prettier
 * printer" as prettier implements it: a group is printed flat when its
 * contents, and what follows them up to the next possible line break,
 * fit in the remaining width; otherwise its lines break.
 */

/** The width lines are laid out in; a construct that cannot fit runs longer. */
export const PRINT_WIDTH = 100;
/** One level of indentation. */
export const INDENT = "  ";

/** Display width: wide East Asian characters count two columns, combining marks none. */
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

/** A document: text (never holding a line break), a list of documents, or a layout construct. */
export type Doc = string | readonly Doc[] | Group | Indent | Align | Line | IfBreak | IndentIfBreak;

interface Group {
  readonly kind: "group";
  readonly contents: Doc;
  /** Set when the contents hold a hard line break: such a group can only print broken. */
  readonly broken: boolean;
  readonly id?: symbol;
}
interface Indent {
  readonly kind: "indent";
  readonly contents: Doc;
}
interface Align {
  readonly kind: "align";
  readonly width: number;
  readonly contents: Doc;
}
interface Line {
  readonly kind: "line";
  /** A soft line prints nothing when flat (a plain line prints a space). */
  readonly soft: boolean;
  /** A hard line always breaks, and so breaks every group around it. */
  readonly hard: boolean;
  /** Keeps the spaces that end the line before it (a Markdown line break in a JSDoc comment). */
  readonly keepSpaces?: boolean;
}
interface IfBreak {
  readonly kind: "if-break";
  readonly broken: Doc;
  readonly flat: Doc;
}
interface IndentIfBreak {
  readonly kind: "indent-if-break";
  readonly contents: Doc;
  readonly groupId: symbol;
}

/** A line break where its group breaks, else a space. */
export const line: Line = { kind: "line", soft: false, hard: false };
/** A line break where its group breaks, else nothing. */
export const softline: Line = { kind: "line", soft: true, hard: false };
/** Always a line break; every group around it breaks. */
export const hardline: Line = { kind: "line", soft: false, hard: true };
/** A hard line that keeps the spaces ending the line before it (a Markdown line break in JSDoc). */
export const hardlineKeepingSpaces: Line = {
  kind: "line",
  soft: false,
  hard: true,
  keepSpaces: true,
};

/** Contents printed flat when they fit on the rest of the line, else with their lines broken; `id` lets indentIfBreak ask which. */
export function group(contents: Doc, id?: symbol): Group {
  return { kind: "group", contents, broken: hasHardLine(contents), ...(id ? { id } : {}) };
}
/** Contents whose broken lines are indented one level more. */
export function indent(contents: Doc): Indent {
  return { kind: "indent", contents };
}
/** Contents whose broken lines are indented by `width` spaces more. */
export function align(width: number, contents: Doc): Align {
  return { kind: "align", width, contents };
}
/** `broken` where the enclosing group breaks, else `flat`. */
export function ifBreak(broken: Doc, flat: Doc = ""): IfBreak {
  return { kind: "if-break", broken, flat };
}
/** Contents indented one level more only when the group `groupId` broke. */
export function indentIfBreak(contents: Doc, groupId: symbol): IndentIfBreak {
  return { kind: "indent-if-break", contents, groupId };
}
/** `docs` with `separator` between each two. */
export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  return docs.flatMap((d, i) => (i === 0 ? [d] : [separator, d]));
}

/** `Array.isArray` narrows a readonly array to `any[]`; this keeps a list of docs a list of docs. */
function isDocList(doc: Doc): doc is readonly Doc[] {
  return Array.isArray(doc);
}

/** Whether a hard line is inside (so every group around it breaks, as prettier's propagateBreaks makes it). */
function hasHardLine(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (isDocList(doc)) return doc.some(hasHardLine);
  switch (doc.kind) {
    case "group":
      return doc.broken;
    case "line":
      return doc.hard;
    case "if-break":
      return hasHardLine(doc.broken);
    default:
      return hasHardLine(doc.contents);
  }
}

type Mode = "break" | "flat";

interface Command {
  readonly indent: string;
  readonly mode: Mode;
  readonly doc: Doc;
}

/**
 * Prints `doc` starting at column 0 of an `indentation`-deep line, as
 * prettier prints a document: trailing spaces are trimmed at each break.
 */
export function printDoc(doc: Doc, indentation = ""): string {
  const groupModes = new Map<symbol, Mode>();
  const out: string[] = [];
  let column = indentation.length;
  const commands: Command[] = [{ indent: indentation, mode: "break", doc }];
  while (commands.length > 0) {
    const { indent: ind, mode, doc: node } = commands.pop()!;
    if (typeof node === "string") {
      out.push(node);
      column += textWidth(node);
      continue;
    }
    if (isDocList(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        commands.push({ indent: ind, mode, doc: node[i]! });
      continue;
    }
    switch (node.kind) {
      case "indent":
        commands.push({ indent: ind + INDENT, mode, doc: node.contents });
        break;
      case "align":
        commands.push({ indent: ind + " ".repeat(node.width), mode, doc: node.contents });
        break;
      case "group": {
        const flat: Command = { indent: ind, mode: "flat", doc: node.contents };
        const chosen =
          !node.broken && (mode === "flat" || fits(flat, commands, PRINT_WIDTH - column))
            ? flat
            : { ...flat, mode: "break" as Mode };
        commands.push(chosen);
        if (node.id) groupModes.set(node.id, chosen.mode);
        break;
      }
      case "if-break":
        commands.push({ indent: ind, mode, doc: mode === "break" ? node.broken : node.flat });
        break;
      case "indent-if-break":
        commands.push({
          indent: ind,
          mode,
          doc: groupModes.get(node.groupId) === "break" ? indent(node.contents) : node.contents,
        });
        break;
      case "line":
        if (mode === "flat" && !node.hard) {
          if (!node.soft) {
            out.push(" ");
            column += 1;
          }
          break;
        }
        if (!node.keepSpaces) trimTrailingSpaces(out);
        out.push("\n" + ind);
        column = ind.length;
        break;
    }
  }
  return out.join("");
}

/**
 * Whether `next`, printed flat, and the commands after it up to their
 * first line break fit in `width` columns (prettier's `fits`).
 */
function fits(next: Command, rest: readonly Command[], width: number): boolean {
  let restIndex = rest.length;
  const commands: Array<{ mode: Mode; doc: Doc }> = [next];
  let remaining = width;
  while (remaining >= 0) {
    if (commands.length === 0) {
      if (restIndex === 0) return true;
      commands.push(rest[--restIndex]!);
      continue;
    }
    const { mode, doc: node } = commands.pop()!;
    if (typeof node === "string") {
      remaining -= textWidth(node);
      continue;
    }
    if (isDocList(node)) {
      for (let i = node.length - 1; i >= 0; i--) commands.push({ mode, doc: node[i]! });
      continue;
    }
    switch (node.kind) {
      case "indent":
      case "align":
      case "indent-if-break":
        commands.push({ mode, doc: node.contents });
        break;
      case "group":
        commands.push({ mode: node.broken ? "break" : mode, doc: node.contents });
        break;
      case "if-break":
        commands.push({ mode, doc: mode === "break" ? node.broken : node.flat });
        break;
      case "line":
        if (mode === "break" || node.hard) return true;
        if (!node.soft) remaining -= 1;
        break;
    }
  }
  return false;
}

function trimTrailingSpaces(out: string[]): void {
  while (out.length > 0) {
    const trimmed = out.pop()!.replace(/[ \t]+$/, "");
    if (trimmed !== "") {
      out.push(trimmed);
      return;
    }
  }
}
