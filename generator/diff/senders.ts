/**
 * Who sends what: a request's direction says who sends its params and who
 * its result; a definition is sent by whoever sends a message that reaches
 * it through `$ref`s (both sides when no message reaches it).
 */
import type { Direction, McpModel } from "../model/types.js";
import { BOTH, type Side } from "./changes.js";
import { refsOf } from "./compare-schemas.js";

/** Who breaks when a message changes, relative to who sends it. */
export type Role = "sender" | "receiver" | "both" | "none";

/** Who sends a message's request (or notification) and who answers it. */
export function parties(direction: Direction): {
  requester: readonly Side[];
  responder: readonly Side[];
} {
  switch (direction) {
    case "client-to-server":
      return { requester: ["clients"], responder: ["servers"] };
    case "server-to-client":
    case "input-request":
      return { requester: ["servers"], responder: ["clients"] };
    case "both":
      return { requester: BOTH, responder: BOTH };
  }
}

/** The sides a role stands for, given who sends the message. */
export function sidesFor(role: Role, senders: readonly Side[]): Side[] {
  const receivers = senders.flatMap((s): Side[] => (s === "servers" ? ["clients"] : ["servers"]));
  const sides =
    role === "sender"
      ? senders
      : role === "receiver"
        ? receivers
        : role === "both"
          ? [...senders, ...receivers]
          : [];
  return BOTH.filter((s) => sides.includes(s));
}

/**
 * Who sends each definition: the senders of every message that reaches it
 * through `$ref`s. Definitions no message reaches get both sides, since
 * nothing says who uses them.
 */
export function definitionSenders(model: McpModel): Map<string, Side[]> {
  const refs = new Map(model.declarations.map((d) => [d.name, refsOf(d.schema)]));
  const senders = new Map<string, Set<Side>>();
  const mark = (name: string, sides: readonly Side[]) => {
    const pending = [name];
    while (pending.length > 0) {
      const current = pending.pop()!;
      const known = senders.get(current) ?? new Set<Side>();
      const added = sides.filter((s) => !known.has(s));
      if (added.length === 0 && senders.has(current)) continue;
      added.forEach((s) => known.add(s));
      senders.set(current, known);
      pending.push(...(refs.get(current) ?? []));
    }
  };
  for (const request of model.requests) {
    const { requester, responder } = parties(request.direction);
    mark(request.definition, requester);
    if (request.paramsDefinition) mark(request.paramsDefinition, requester);
    for (const branch of request.results) mark(branch.definition, responder);
  }
  for (const notification of model.notifications) {
    const { requester } = parties(notification.direction);
    mark(notification.definition, requester);
    if (notification.paramsDefinition) mark(notification.paramsDefinition, requester);
  }
  const out = new Map<string, Side[]>();
  for (const d of model.declarations) {
    const sides = senders.get(d.name);
    out.set(d.name, sides && sides.size > 0 ? BOTH.filter((s) => sides.has(s)) : [...BOTH]);
  }
  return out;
}

/** Every definition reachable from `roots` through `$ref`s, the roots included. */
export function reachable(model: McpModel, roots: readonly string[]): Set<string> {
  const schemas = new Map(model.declarations.map((d) => [d.name, d.schema]));
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const schema = schemas.get(name);
    if (schema !== undefined) pending.push(...refsOf(schema));
  }
  return seen;
}
