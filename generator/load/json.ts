/**
 * Reading JSON text: a parser whose errors say where (line and column),
 * not just what, within the input limits. The values it gives, and the
 * helpers every stage uses on them, are shared/json-value.ts's, exported
 * here too for the modules that read JSON.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import { escapePointerSegment, isJsonObject, type JsonValue } from "../shared/json-value.js";
import { checkFileSize, checkJsonDepth } from "./limits.js";

export {
  cloneJson,
  escapePointerSegment,
  isJsonObject,
  jsonEqual,
  jsonText,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "../shared/json-value.js";

/**
 * Parses JSON text; on failure throws an McpGenError whose location is
 * `file:line:column` of the offending character. Text larger than the
 * input limit, or nesting deeper than the depth limit (see limits.ts), is
 * refused with one diagnostic before anything walks it.
 */
export function parseJsonText(text: string, file: string): JsonValue {
  checkFileSize(Buffer.byteLength(text), file);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    const { offset, reason } = findJsonSyntaxError(text) ?? { offset: 0, reason: "not valid JSON" };
    const { line, column } = lineAndColumn(text, offset);
    throw new McpGenError([diagnostic("MCPG201", { reason }, { file, line, column })]);
  }
  checkJsonDepth(value, file);
  checkNumbers(value, file);
  return value;
}

/** The most places a problem is reported at, per file. */
const MOST_REPORTED = 20;

/**
 * Refuses numbers JSON.parse read as Infinity (`1e400`): copied into
 * generated code they would be `Infinity`, and into JSON `null`, so a
 * schema's `maximum: 1e400` became `maximum: null`. Each place is reported
 * (MCPG240), up to twenty.
 */
function checkNumbers(value: JsonValue, file: string): void {
  const found: string[] = [];
  const visit = (node: JsonValue, pointer: string): void => {
    if (found.length >= MOST_REPORTED) return;
    if (typeof node === "number") {
      if (!Number.isFinite(node)) found.push(pointer);
    } else if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${pointer}/${i}`));
    else if (isJsonObject(node))
      for (const key of Object.keys(node))
        visit(node[key]!, `${pointer}/${escapePointerSegment(key)}`);
  };
  visit(value, "");
  if (found.length > 0)
    throw new McpGenError(found.map((pointer) => diagnostic("MCPG240", {}, { file, pointer })));
}

/**
 * The first syntax error in JSON text: its offset and what is wrong, or
 * undefined when the text is valid JSON. JSON.parse cannot tell us: some of
 * its messages give no position (`Unexpected token 'x', "..." is not valid
 * JSON`) and their wording changes between Node versions.
 */
export function findJsonSyntaxError(text: string): { offset: number; reason: string } | undefined {
  const scanner = new JsonScanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, reason: error.reason };
    if (error instanceof RangeError) return undefined; // nested too deeply to scan; the caller says 1:1
    throw error;
  }
}

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const WORD = /[A-Za-z_$][\w$]*/y;
const DIGITS = /[0-9]+/y;
const HEX = /^[0-9a-fA-F]$/;

/** A recursive-descent reader of RFC 8259 JSON that only finds the first error. */
class JsonScanner {
  private i = 0;
  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.space();
    if (this.i < this.text.length) this.fail("the end of the file after the JSON value");
  }

  private value(): void {
    this.space();
    const c = this.text[this.i];
    if (c === "{") return this.members("}", () => this.member());
    if (c === "[") return this.members("]", () => this.value());
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    const word = this.match(WORD);
    if (word === "true" || word === "false" || word === "null") this.i += word.length;
    else this.fail("a value");
  }

  /** `{...}` or `[...]`: the separators and the closer; `item` reads one member or element. */
  private members(close: "}" | "]", item: () => void): void {
    this.i++;
    this.space();
    if (this.text[this.i] === close) return void this.i++;
    for (;;) {
      item();
      this.space();
      if (this.text[this.i] === close) return void this.i++;
      if (this.text[this.i] !== ",") this.fail(`',' or '${close}'`);
      this.i++;
    }
  }

  private member(): void {
    this.space();
    if (this.text[this.i] !== '"') this.fail("a double-quoted property name");
    this.string();
    this.space();
    if (this.text[this.i] !== ":") this.fail("':' after the property name");
    this.i++;
    this.value();
  }

  private string(): void {
    this.i++; // the opening quote
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail(`'"' to end the string`);
      else if (c === '"') return void this.i++;
      else if (c < " ") this.fail("a character (control characters must be escaped)");
      else if (c === "\\") this.escape();
      else this.i++;
    }
  }

  private escape(): void {
    const c = this.text[++this.i];
    if (c === "u") {
      // Point at the first character of the four that is not a hex digit.
      for (let k = 0; k < 4; k++)
        if (!HEX.test(this.text[++this.i] ?? "")) this.fail("four hex digits after \\u");
      this.i++;
    } else if (c !== undefined && '"\\/bfnrt'.includes(c)) this.i++;
    else this.fail(`an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u)`);
  }

  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  private number(): void {
    if (this.text[this.i] === "-") this.i++;
    if (this.text[this.i] === "0") this.i++;
    else this.digits();
    if (this.text[this.i] === ".") {
      this.i++;
      this.digits();
    }
    if (this.text[this.i] === "e" || this.text[this.i] === "E") {
      this.i++;
      if (this.text[this.i] === "+" || this.text[this.i] === "-") this.i++;
      this.digits();
    }
  }

  private digits(): void {
    const run = this.match(DIGITS);
    if (!run) this.fail("a digit");
    this.i += run.length;
  }

  private space(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i]!)) this.i++;
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.i;
    return pattern.exec(this.text)?.[0];
  }

  private fail(expected: string): never {
    throw new JsonSyntaxError(this.i, `expected ${expected}, found ${this.found()}`);
  }

  /** What is at the current offset, for a message: a word, a character, or the end of the file. */
  private found(): string {
    if (this.i >= this.text.length) return "the end of the file";
    const word = this.match(WORD);
    if (word) return `'${word.length > 40 ? `${word.slice(0, 40)}...` : word}'`;
    const c = this.text[this.i]!;
    return c < " " ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : `'${c}'`;
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
