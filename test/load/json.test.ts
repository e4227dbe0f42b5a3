/**
 * parseJsonText: malformed JSON is one MCPG201 diagnostic at the line and
 * column of the offending character, worded the same on every Node version.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { findJsonSyntaxError, lineAndColumn, parseJsonText } from "../../generator/load/json.js";

const FIX = "(fix: fix the JSON syntax at the position shown)";

/** The one line parseJsonText reports for `text`, or "ok". */
function reported(text: string): string {
  try {
    parseJsonText(text, "s/schema.json");
    return "ok";
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map(formatDiagnostic).join("\n");
  }
}

describe("malformed JSON is reported at file:line:col", () => {
  it.each([
    // A bare word: JSON.parse names no position for this one.
    [
      '{\n  "type": integer\n}',
      `s/schema.json:2:11: error MCPG201: malformed JSON: expected a value, found 'integer' ${FIX}`,
    ],
    [
      '{"a": tru}',
      `s/schema.json:1:7: error MCPG201: malformed JSON: expected a value, found 'tru' ${FIX}`,
    ],
    [
      '{\n  "a": 1,\n}',
      `s/schema.json:3:1: error MCPG201: malformed JSON: expected a double-quoted property name, found '}' ${FIX}`,
    ],
    [
      "[1, 2,]",
      `s/schema.json:1:7: error MCPG201: malformed JSON: expected a value, found ']' ${FIX}`,
    ],
    [
      '{"a" 1}',
      `s/schema.json:1:6: error MCPG201: malformed JSON: expected ':' after the property name, found '1' ${FIX}`,
    ],
    [
      '{"a": 1 "b": 2}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected ',' or '}', found '"' ${FIX}`,
    ],
    [
      "[1 2]",
      `s/schema.json:1:4: error MCPG201: malformed JSON: expected ',' or ']', found '2' ${FIX}`,
    ],
    [
      "{'a': 1}",
      `s/schema.json:1:2: error MCPG201: malformed JSON: expected a double-quoted property name, found ''' ${FIX}`,
    ],
    [
      '{\n  "a": [1,\n',
      `s/schema.json:3:1: error MCPG201: malformed JSON: expected a value, found the end of the file ${FIX}`,
    ],
    [
      "",
      `s/schema.json:1:1: error MCPG201: malformed JSON: expected a value, found the end of the file ${FIX}`,
    ],
    [
      '{"a": "x',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected '"' to end the string, found the end of the file ${FIX}`,
    ],
    [
      '{"a": "x\ty"}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected a character (control characters must be escaped), found U+0009 ${FIX}`,
    ],
    [
      '{"a": "\\q"}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u), found 'q' ${FIX}`,
    ],
    [
      '"\\u12g4"',
      `s/schema.json:1:6: error MCPG201: malformed JSON: expected four hex digits after \\u, found 'g4' ${FIX}`,
    ],
    [
      '{"a": 01}',
      `s/schema.json:1:8: error MCPG201: malformed JSON: expected ',' or '}', found '1' ${FIX}`,
    ],
    [
      '{"a": 1.}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected a digit, found '}' ${FIX}`,
    ],
    [
      '{"a": -}',
      `s/schema.json:1:8: error MCPG201: malformed JSON: expected a digit, found '}' ${FIX}`,
    ],
    [
      '{"a": 1e}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected a digit, found '}' ${FIX}`,
    ],
    [
      '{"a": 1}}',
      `s/schema.json:1:9: error MCPG201: malformed JSON: expected the end of the file after the JSON value, found '}' ${FIX}`,
    ],
    [
      '{"a": 1}\r\n{',
      `s/schema.json:2:1: error MCPG201: malformed JSON: expected the end of the file after the JSON value, found '{' ${FIX}`,
    ],
  ])("%j", (text, want) => {
    expect(reported(text)).toBe(want);
  });
});

describe("pathological input", () => {
  it("nesting too deep to scan is still one diagnostic, at 1:1", () => {
    expect(reported(`${"[".repeat(200_000)}x`)).toBe(
      `s/schema.json:1:1: error MCPG201: malformed JSON: not valid JSON ${FIX}`,
    );
  });
});

describe("valid JSON", () => {
  it.each([
    '{"a": [1, -2.5e+3, 0, true, false, null, "x\\u00e9\\n\\"\\/"], "b": {}}',
    "[]",
    "0",
    '"s"',
    " \r\n\t{} ",
  ])("%j parses", (text) => {
    expect(reported(text)).toBe("ok");
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });
});

describe("lineAndColumn", () => {
  it.each([
    ["abc", 0, { line: 1, column: 1 }],
    ["abc", 2, { line: 1, column: 3 }],
    ["a\nbc", 2, { line: 2, column: 1 }],
    ["a\r\nbc", 4, { line: 2, column: 2 }],
    ["a\n", 2, { line: 2, column: 1 }],
  ])("%j at %i", (text, offset, want) => {
    expect(lineAndColumn(text, offset)).toEqual(want);
  });
});
