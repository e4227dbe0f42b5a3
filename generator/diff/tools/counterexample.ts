/**
 * The counterexample search: a value one schema accepts and the other
 * refuses, found among the samples of the accepting schema (samples.ts)
 * and checked by ajv on both sides, so a value it returns is a proof.
 * When it finds none, it says so; whether none exists is not decided.
 */
import { type JsonValue } from "../../load/json.js";
import { checkerOf, type Rooted } from "./accepts.js";
import { gatherHints, samplesOf, type SampleContext } from "./samples.js";

/** The most candidates tried for one pair of schemas. */
export const MAX_CANDIDATES = 400;

/** A value `accepting` accepts and `refusing` refuses, or undefined when the search finds none. */
export function findCounterexample(accepting: Rooted, refusing: Rooted): JsonValue | undefined {
  const accepts = checkerOf(accepting);
  const refuses = checkerOf(refusing);
  if (!accepts || !refuses) return undefined;
  const context: SampleContext = {
    root: accepting.root,
    hints: gatherHints(hintSources(accepting, refusing)),
    accepts: (schema, value) =>
      (schema === accepting.schema ? accepts : checkerOf({ schema, root: accepting.root }))?.(
        value,
      ) ?? false,
  };
  const candidates = samplesOf(accepting.schema, context).slice(0, MAX_CANDIDATES);
  return candidates.find((value) => accepts(value) && !refuses(value));
}

/** The schemas hints come from: both sides, and their documents' definitions when they use `$ref`s. */
function hintSources(a: Rooted, b: Rooted): JsonValue[] {
  const sources = [a.schema, b.schema];
  for (const side of [a, b])
    if (side.root !== side.schema && JSON.stringify(side.schema).includes('"$ref"'))
      sources.push(side.root);
  return sources;
}
