/**
 * The methods and notifications part of a diff: messages added or removed,
 * their params and results changed, and which sides each change breaks.
 */
import type { NotificationNode, ParamsPresence, RequestNode } from "../model/types.js";
import { arrow, type Change, mrtrResultName, type Side, union } from "./changes.js";
import type { DefinitionDiff } from "./diff-definitions.js";
import { parties, reachable, sidesFor } from "./senders.js";

type Message = RequestNode | NotificationNode;

export function diffMessages(
  category: "method" | "notification",
  before: readonly Message[],
  after: readonly Message[],
  definitions: DefinitionDiff,
  resultTypeIntroduced: boolean,
): Change[] {
  const old = new Map(before.map((m) => [m.method, m]));
  const now = new Map(after.map((m) => [m.method, m]));
  const changes: Change[] = [];
  for (const method of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const a = old.get(method);
    const b = now.get(method);
    const change = (fields: Omit<Change, "category" | "subject">): Change => ({
      category,
      subject: method,
      ...fields,
    });
    if (!a) {
      changes.push(
        change({
          change: "added",
          to: b!.direction,
          breaking: [],
          summary: `added (${arrow(b!.direction, mrtrResultName(definitions.to))})`,
        }),
      );
      continue;
    }
    if (!b) {
      const { requester, responder } = parties(a.direction);
      changes.push(
        change({
          change: "removed",
          from: a.direction,
          breaking: union(requester, responder),
          summary: `removed (${arrow(a.direction, mrtrResultName(definitions.from))})`,
        }),
      );
      continue;
    }
    changes.push(...messageChanges(a, b, definitions, resultTypeIntroduced).map(change));
  }
  return changes;
}

function messageChanges(
  a: Message,
  b: Message,
  definitions: DefinitionDiff,
  resultTypeIntroduced: boolean,
): Array<Omit<Change, "category" | "subject">> {
  const out: Array<Omit<Change, "category" | "subject">> = [];
  const was = parties(a.direction);
  const is = parties(b.direction);
  if (a.direction !== b.direction)
    out.push({
      change: "changed",
      aspect: "direction",
      from: a.direction,
      to: b.direction,
      breaking: union(was.requester, was.responder, is.requester, is.responder),
      summary:
        b.direction === "input-request"
          ? `now sent inside ${mrtrResultName(definitions.to)} (Multi Round-Trip Requests), no longer as a request of its own`
          : `direction ${arrow(a.direction, mrtrResultName(definitions.from))} became ${arrow(b.direction, mrtrResultName(definitions.to))}`,
    });
  if (a.params !== b.params)
    out.push({
      change: "changed",
      aspect: "params-presence",
      from: a.params,
      to: b.params,
      breaking: paramsPresenceBreaks(a.params, b.params, is),
      summary: `params ${a.params} became ${b.params}`,
    });
  const params = changedBehind(
    [a.definition, ...(a.paramsDefinition ? [a.paramsDefinition] : [])],
    [b.definition, ...(b.paramsDefinition ? [b.paramsDefinition] : [])],
    definitions,
    is.requester,
  );
  if (params)
    out.push({
      change: "changed",
      aspect: "params",
      detail: b.paramsDefinition ?? b.definition,
      from: params.names,
      breaking: params.breaking,
      summary: `params changed (in ${params.names.join(", ")})`,
    });
  if (a.kind === "request" && b.kind === "request")
    out.push(...resultChanges(a, b, definitions, resultTypeIntroduced));
  return out;
}

function paramsPresenceBreaks(
  before: ParamsPresence,
  after: ParamsPresence,
  is: { requester: readonly Side[]; responder: readonly Side[] },
): Side[] {
  const rank: Record<ParamsPresence, number> = { absent: 0, optional: 1, required: 2 };
  // More required: senders must now send params; less: receivers may now get none.
  return [...(rank[after] > rank[before] ? is.requester : is.responder)];
}

function resultChanges(
  a: RequestNode,
  b: RequestNode,
  definitions: DefinitionDiff,
  resultTypeIntroduced: boolean,
): Array<Omit<Change, "category" | "subject">> {
  const out: Array<Omit<Change, "category" | "subject">> = [];
  const { requester, responder } = parties(b.direction);
  if (a.mrtr !== b.mrtr)
    out.push({
      change: b.mrtr ? "added" : "removed",
      aspect: "mrtr",
      breaking: [...(b.mrtr ? requester : responder)],
      summary: b.mrtr
        ? `may now answer ${(definitions.to.mrtrResults ?? []).join(", ") || "InputRequiredResult"} (Multi Round-Trip Requests)`
        : `no longer answers ${(definitions.from.mrtrResults ?? []).join(", ") || "InputRequiredResult"} (Multi Round-Trip Requests)`,
    });
  // The MRTR result, known by shape in either model, is reported by the mrtr change when it comes or goes.
  const mrtrResults = new Set([
    ...(definitions.from.mrtrResults ?? []),
    ...(definitions.from.mrtrResults ?? []).map((d) => definitions.renamed.get(d) ?? d),
    ...(definitions.to.mrtrResults ?? []),
  ]);
  const mrtrBranch = (d: string) => mrtrResults.has(d) && a.mrtr !== b.mrtr;
  // A branch renamed by shape is the same branch under its new name.
  const before = new Map(
    a.results.map((r) => [definitions.renamed.get(r.definition) ?? r.definition, r.resultType]),
  );
  const after = new Map(b.results.map((r) => [r.definition, r.resultType]));
  for (const [definition, resultType] of after) {
    if (mrtrBranch(definition)) continue;
    if (!before.has(definition))
      out.push({
        change: "added",
        aspect: "result-branch",
        detail: definition,
        ...(resultType !== undefined ? { to: resultType } : {}),
        breaking: [...requester],
        summary: `may now return ${definition}${resultType !== undefined ? ` (resultType "${resultType}")` : ""}`,
      });
    else if (
      before.get(definition) !== resultType &&
      !(resultTypeIntroduced && before.get(definition) === undefined)
    )
      out.push({
        change: "changed",
        aspect: "result-type",
        detail: definition,
        from: before.get(definition) ?? null,
        to: resultType ?? null,
        breaking: union(requester, responder),
        summary: `${definition} is now selected by resultType ${JSON.stringify(resultType ?? null)} (was ${JSON.stringify(before.get(definition) ?? null)})`,
      });
  }
  for (const definition of before.keys())
    if (!after.has(definition) && !mrtrBranch(definition))
      out.push({
        change: "removed",
        aspect: "result-branch",
        detail: definition,
        breaking: [...responder],
        summary: `no longer returns ${definition}`,
      });
  const result = changedBehind(
    a.results.map((r) => r.definition).filter((d) => !mrtrBranch(d)),
    b.results.map((r) => r.definition).filter((d) => !mrtrBranch(d)),
    definitions,
    responder,
  );
  if (result)
    out.push({
      change: "changed",
      aspect: "result",
      from: result.names,
      breaking: result.breaking,
      summary: `result changed (in ${result.names.join(", ")})`,
    });
  return out;
}

/**
 * The changed definitions behind a message part (its params, or its
 * results): those it reaches through `$ref`s on both sides (a definition
 * it reaches only now came with a property that is reported itself), and
 * the sides their changes break given who sends that part. Undefined when
 * nothing behind it changed.
 */
function changedBehind(
  before: readonly string[],
  after: readonly string[],
  definitions: DefinitionDiff,
  senders: readonly Side[],
): { names: string[]; breaking: Side[] } | undefined {
  const reachedBefore = reachable(definitions.from, before);
  const names = [...reachable(definitions.to, after)]
    .filter((n) => reachedBefore.has(n) || before.includes(n))
    .filter((n) => definitions.facts.has(n))
    .sort();
  if (names.length === 0) return undefined;
  const breaking = union(
    ...names.flatMap((n) => definitions.facts.get(n)!.map((f) => sidesFor(f.role, senders))),
  );
  return { names, breaking };
}
