/**
 * The tables part of a diff: resultType values, error codes and
 * capabilities.
 */
import type { McpModel } from "../model/types.js";
import { BOTH, type Change, union } from "./changes.js";
import { parties } from "./senders.js";

/** True when `from` pins no resultType on any result and `to` does: results now carry one. */
export function resultTypesIntroduced(from: McpModel, to: McpModel): boolean {
  const pins = (m: McpModel) =>
    m.requests.some((r) => r.results.some((b) => b.resultType !== undefined));
  return !pins(from) && pins(to);
}

export function diffResultTypes(from: McpModel, to: McpModel): Change[] {
  const responders = (m: McpModel, value?: string) =>
    union(
      ...m.requests
        .filter((r) =>
          r.results.some(
            (b) => b.resultType !== undefined && (value === undefined || b.resultType === value),
          ),
        )
        .map((r) => parties(r.direction).responder),
    );
  const requesters = (m: McpModel, value: string) =>
    union(
      ...m.requests
        .filter((r) => r.results.some((b) => b.resultType === value))
        .map((r) => parties(r.direction).requester),
    );
  if (resultTypesIntroduced(from, to)) {
    const values = to.resultTypes.map((r) => r.value);
    return [
      {
        category: "result-type",
        subject: "resultType",
        change: "added",
        aspect: "introduced",
        to: values,
        breaking: responders(to),
        summary: `results now carry resultType (${values.map((v) => `"${v}"`).join(", ")}); a result without one is "complete"`,
      },
    ];
  }
  const before = new Set(from.resultTypes.map((r) => r.value));
  const after = new Set(to.resultTypes.map((r) => r.value));
  return [
    ...[...after]
      .filter((v) => !before.has(v))
      .map((v): Change => ({
        category: "result-type",
        subject: v,
        change: "added",
        breaking: requesters(to, v),
        summary: "added",
      })),
    ...[...before]
      .filter((v) => !after.has(v))
      .map((v): Change => ({
        category: "result-type",
        subject: v,
        change: "removed",
        breaking: responders(from, v),
        summary: "removed",
      })),
  ];
}

export function diffErrorCodes(from: McpModel, to: McpModel): Change[] {
  // Codes a model keeps only to accept them from older peers are not its own.
  const own = (m: McpModel) =>
    new Map(m.errorCodes.filter((e) => e.policy !== "legacy").map((e) => [e.code, e]));
  const before = own(from);
  const after = own(to);
  const changes: Change[] = [];
  for (const code of [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => y - x)) {
    const a = before.get(code);
    const b = after.get(code);
    const base = { category: "error-code" as const, subject: String(code) };
    if (!a)
      changes.push({
        ...base,
        change: "added",
        to: b!.name,
        breaking: [],
        summary: `${b!.name} added`,
      });
    else if (!b)
      changes.push({
        ...base,
        change: "removed",
        from: a.name,
        breaking: [...BOTH],
        summary: `${a.name} removed`,
      });
    else if (a.name !== b.name)
      changes.push({
        ...base,
        change: "changed",
        aspect: "name",
        from: a.name,
        to: b.name,
        breaking: [...BOTH],
        summary: `renamed ${a.name} to ${b.name}`,
      });
  }
  return changes;
}

export function diffCapabilities(from: McpModel, to: McpModel): Change[] {
  const key = (c: McpModel["capabilities"][number]) => `${c.side}:${c.path.join(".")}`;
  const before = new Set(from.capabilities.map(key));
  const after = new Set(to.capabilities.map(key));
  const base = (subject: string) => ({ category: "capability" as const, subject });
  return [
    ...[...after]
      .filter((k) => !before.has(k))
      .map((k): Change => ({ ...base(k), change: "added", breaking: [], summary: "added" })),
    ...[...before]
      .filter((k) => !after.has(k))
      .map((k): Change => ({
        ...base(k),
        change: "removed",
        breaking: [...BOTH],
        summary: "removed",
      })),
  ];
}
