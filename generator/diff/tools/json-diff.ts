/**
 * Two JSON values as a line diff, for the text report of a change whose
 * values are too long for its summary line: each value pretty-printed
 * (two spaces), lines only in the old one marked `-`, only in the new one
 * `+`, and three unchanged lines of context around each run of changes.
 * Nothing is cut: a change the report shows is shown whole.
 */
import type { JsonValue } from "../../load/json.js";

/** Unchanged lines kept around a change. */
const CONTEXT = 3;
/** Past this many line pairs, the values are listed whole, one after the other, not matched line by line. */
const MAX_MATCHED = 250_000;

/** The diff's lines, without a final line break; `undefined` stands for a value that is absent. */
export function jsonLineDiff(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): string[] {
  const a = linesOf(before);
  const b = linesOf(after);
  if (a.length * b.length > MAX_MATCHED)
    return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  const marked = matchLines(a, b);
  return withContext(marked);
}

function linesOf(value: JsonValue | undefined): string[] {
  return value === undefined ? [] : JSON.stringify(value, null, 2).split("\n");
}

/** Every line marked kept (`  `), removed (`- `) or added (`+ `), by the longest common subsequence. */
function matchLines(a: readonly string[], b: readonly string[]): string[] {
  // common[i][j]: the longest common subsequence of a[i..] and b[j..], row by row in one array.
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i * width + j] =
        a[i] === b[j]
          ? common[(i + 1) * width + j + 1]! + 1
          : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (
      i < a.length &&
      (j === b.length || common[(i + 1) * width + j]! >= common[i * width + j + 1]!)
    )
      out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out;
}

/** The marked lines with unchanged runs longer than the context shortened to `  ...`. */
function withContext(marked: readonly string[]): string[] {
  const changed = marked.map((l) => !l.startsWith("  "));
  const near = marked.map((_, k) =>
    changed.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some(Boolean),
  );
  const out: string[] = [];
  marked.forEach((line, k) => {
    if (near[k]) out.push(line);
    else if (near[k - 1] !== false) out.push("  ...");
  });
  return out;
}
