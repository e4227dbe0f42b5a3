/**
 * `mcp-gen diff`: what changed between two models (two revisions, or a
 * revision and a folder), one {@link Change} per fact: methods,
 * notifications, resultType values, error codes, capabilities and
 * definitions. Each change names the sides it breaks.
 *
 * A change breaks servers when a server written against `from` may stop
 * compiling or conforming against `to`: it must now send something, may no
 * longer send something, or may receive something it does not handle.
 * Likewise for clients. Who sends what follows from the model: a request's
 * direction says who sends its params and who its result, and a
 * definition is sent by whoever sends a message that reaches it through
 * `$ref`s (both sides when no message reaches it).
 */
import type { JsonValue } from "../load/json.js";
import type {
  Direction,
  JsonSchema,
  McpModel,
  NotificationNode,
  ParamsPresence,
  RequestNode,
} from "../model/types.js";
import { compareSchemas, refsOf, stripAnnotations, type SchemaContext } from "./compare-schemas.js";

/** A side of the protocol that a change can break. */
export type Side = "servers" | "clients";

/** What a change is about. */
export type ChangeCategory =
  "method" | "notification" | "result-type" | "error-code" | "capability" | "definition";

/** One fact that differs between the two models. */
export interface Change {
  readonly category: ChangeCategory;
  /** The method, definition, `resultType` value, error code or `client:path.to.capability`. */
  readonly subject: string;
  readonly change: "added" | "removed" | "changed";
  /** For a change inside the subject: which part (see docs/diff-upgrade.md for the list). */
  readonly aspect?: string;
  /** The property, member, enum value or result definition the aspect concerns. */
  readonly detail?: string;
  readonly from?: JsonValue;
  readonly to?: JsonValue;
  /** The sides the change breaks; empty when it breaks neither. */
  readonly breaking: readonly Side[];
  /** One line for people, without the subject. */
  readonly summary: string;
}

/** One side of a diff, as the user named it and as it was read. */
export interface DiffSide {
  /** The argument: a revision name or a folder. */
  readonly spec: string;
  readonly revision: string;
  readonly protocolVersion: string;
  readonly known: boolean;
  readonly extensions: readonly string[];
  readonly sources: ReadonlyArray<{ readonly name: string; readonly sha256: string }>;
}

/** The whole diff; `--json` prints exactly this object. */
export interface ModelDiff {
  /** The version of this format; it changes only when a field changes meaning or goes away. */
  readonly format: 1;
  readonly from: DiffSide;
  readonly to: DiffSide;
  readonly summary: {
    readonly changes: number;
    readonly breakingServers: number;
    readonly breakingClients: number;
  };
  /** Sorted by category (as listed in {@link ChangeCategory}), subject, aspect and detail. */
  readonly changes: readonly Change[];
}

/** Who breaks when a message changes, relative to who sends it. */
type Role = "sender" | "receiver" | "both" | "none";

const BOTH: readonly Side[] = ["servers", "clients"];
const CATEGORY_ORDER: readonly ChangeCategory[] = [
  "method",
  "notification",
  "result-type",
  "error-code",
  "capability",
  "definition",
];

/** Compares two models; `fromSpec` and `toSpec` are the arguments as given. */
export function diffModels(
  from: McpModel,
  to: McpModel,
  fromSpec: string = from.revision,
  toSpec: string = to.revision,
): ModelDiff {
  const context: SchemaContext = {
    from: new Map(from.declarations.map((d) => [d.name, d.schema])),
    to: new Map(to.declarations.map((d) => [d.name, d.schema])),
  };
  const definitions = diffDefinitions(from, to, context);
  const changes = sortChanges([
    ...diffMessages(
      "method",
      from.requests,
      to.requests,
      definitions,
      resultTypesIntroduced(from, to),
    ),
    ...diffMessages("notification", from.notifications, to.notifications, definitions, false),
    ...diffResultTypes(from, to),
    ...diffErrorCodes(from, to),
    ...diffCapabilities(from, to),
    ...definitions.changes,
  ]);
  return {
    format: 1,
    from: sideOf(from, fromSpec),
    to: sideOf(to, toSpec),
    summary: {
      changes: changes.length,
      breakingServers: changes.filter((c) => c.breaking.includes("servers")).length,
      breakingClients: changes.filter((c) => c.breaking.includes("clients")).length,
    },
    changes,
  };
}

function sideOf(model: McpModel, spec: string): DiffSide {
  return {
    spec,
    revision: model.revision,
    protocolVersion: model.protocolVersion,
    known: model.known,
    extensions: model.extensions.map((e) => e.id),
    sources: model.sources.map((s) => ({ name: s.name, sha256: s.sha256 })),
  };
}

// ---------------------------------------------------------------------------
// Who sends what

/** Who sends a message's request (or notification) and who answers it. */
function parties(direction: Direction): { requester: readonly Side[]; responder: readonly Side[] } {
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
function sidesFor(role: Role, senders: readonly Side[]): Side[] {
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
function definitionSenders(model: McpModel): Map<string, Side[]> {
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
function reachable(model: McpModel, roots: readonly string[]): Set<string> {
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

// ---------------------------------------------------------------------------
// Definitions

/** A definition change before it is tied to who sends the definition. */
interface DefinitionFact {
  readonly definition: string;
  readonly change: Change["change"];
  readonly aspect?: string;
  readonly detail?: string;
  readonly from?: JsonValue;
  readonly to?: JsonValue;
  readonly role: Role;
  readonly summary: string;
}

interface DefinitionDiff {
  readonly from: McpModel;
  readonly to: McpModel;
  readonly changes: Change[];
  /** The facts of each changed definition, to judge the messages that reach it. */
  readonly facts: ReadonlyMap<string, readonly DefinitionFact[]>;
  /** Definitions kept under a new name: old name → new name. */
  readonly renamed: ReadonlyMap<string, string>;
}

function diffDefinitions(from: McpModel, to: McpModel, context: SchemaContext): DefinitionDiff {
  const fromSenders = definitionSenders(from);
  const toSenders = definitionSenders(to);
  const renamed = renamesByShape(context);
  const oldNameOf = new Map([...renamed].map(([before, after]) => [after, before]));
  const names = [...new Set([...context.from.keys(), ...context.to.keys()])]
    .filter((name) => !renamed.has(name))
    .sort();
  const facts = new Map<string, DefinitionFact[]>();
  const changes: Change[] = [];
  for (const name of names) {
    const oldName = oldNameOf.get(name);
    const list = oldName ? renameFacts(oldName, name, context) : definitionFacts(name, context);
    if (list.length === 0) continue;
    facts.set(name, list);
    const senders = union(fromSenders.get(oldName ?? name) ?? [], toSenders.get(name) ?? []);
    for (const fact of list)
      changes.push({
        category: "definition",
        subject: name,
        change: fact.change,
        ...optional(fact),
        breaking: sidesFor(fact.role, senders),
        summary: fact.summary,
      });
  }
  return { from, to, changes, facts, renamed };
}

/**
 * Definitions that went under one name and came under another with the
 * same shape: the same schema (annotations aside), or, for objects, the
 * same set of at least two property names. Only one-to-one matches count,
 * so a shape shared by several definitions renames none of them.
 *
 *   IncompleteResult {_meta, inputRequests, requestState, resultType}
 *     → InputRequiredResult {_meta, inputRequests, requestState, resultType}: renamed
 */
function renamesByShape(context: SchemaContext): Map<string, string> {
  const removed = [...context.from.keys()].filter((n) => !context.to.has(n)).sort();
  const added = [...context.to.keys()].filter((n) => !context.from.has(n)).sort();
  const same = (before: string, after: string) =>
    sameShape(context.from.get(before)!, context.to.get(after)!, context);
  const renamed = new Map<string, string>();
  for (const before of removed) {
    const matches = added.filter((after) => same(before, after));
    if (matches.length !== 1) continue;
    const after = matches[0]!;
    if (removed.filter((other) => same(other, after)).length === 1) renamed.set(before, after);
  }
  return renamed;
}

function sameShape(before: JsonSchema, after: JsonSchema, context: SchemaContext): boolean {
  const names = (schema: JsonSchema) => {
    const object = objectOf(stripAnnotations(schema));
    return object && isObject(object.properties)
      ? Object.keys(object.properties).sort()
      : undefined;
  };
  const a = names(before);
  const b = names(after);
  if (a && b) return a.length >= 2 && a.join("\n") === b.join("\n");
  return compareSchemas(before, after, context);
}

/** A definition kept under a new name: the rename, then what else changed in it. */
function renameFacts(before: string, after: string, context: SchemaContext): DefinitionFact[] {
  const rename: DefinitionFact = {
    definition: after,
    change: "changed",
    aspect: "name",
    from: before,
    to: after,
    // The wire is the same; code that names the definition must follow.
    role: "both",
    summary: `renamed from ${before} (same shape)`,
  };
  const was = context.from.get(before)!;
  const now = context.to.get(after)!;
  return compareSchemas(was, now, context)
    ? [rename]
    : [rename, ...schemaFacts(after, was, now, context)];
}

function definitionFacts(name: string, context: SchemaContext): DefinitionFact[] {
  const before = context.from.get(name);
  const after = context.to.get(name);
  if (before === undefined)
    return [{ definition: name, change: "added", role: "none", summary: "added" }];
  if (after === undefined)
    return [{ definition: name, change: "removed", role: "both", summary: "removed" }];
  if (compareSchemas(before, after, context)) return [];
  return schemaFacts(name, before, after, context);
}

/** What differs inside a definition: properties, required, union members, enum values, or the rest. */
function schemaFacts(
  name: string,
  before: JsonSchema,
  after: JsonSchema,
  context: SchemaContext,
): DefinitionFact[] {
  const a = objectOf(stripAnnotations(before));
  const b = objectOf(stripAnnotations(after));
  if (!a || !b) return [schemaChanged(name, before, after)];
  const facts: DefinitionFact[] = [];
  const handled = new Set<string>();
  if (isObject(a.properties) || isObject(b.properties)) {
    facts.push(...propertyFacts(name, a, b, context));
    handled.add("properties").add("required");
  }
  for (const keyword of ["anyOf", "oneOf"] as const)
    if (refList(a[keyword]) && refList(b[keyword])) {
      facts.push(...memberFacts(name, keyword, refList(a[keyword])!, refList(b[keyword])!));
      handled.add(keyword);
    }
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
    facts.push(...enumFacts(name, a.enum, b.enum));
    handled.add("enum");
  }
  const rest = (o: Record<string, JsonValue>) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !handled.has(k)));
  if (!compareSchemas(rest(a), rest(b), context)) facts.push(schemaChanged(name, rest(a), rest(b)));
  return facts;
}

function propertyFacts(
  name: string,
  a: Record<string, JsonValue>,
  b: Record<string, JsonValue>,
  context: SchemaContext,
): DefinitionFact[] {
  const before = isObject(a.properties) ? a.properties : {};
  const after = isObject(b.properties) ? b.properties : {};
  const requiredBefore = new Set(stringList(a.required));
  const requiredAfter = new Set(stringList(b.required));
  const facts: DefinitionFact[] = [];
  for (const property of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const wasRequired = requiredBefore.has(property);
    const isRequired = requiredAfter.has(property);
    const base = { definition: name, aspect: "property", detail: property };
    if (!(property in before))
      facts.push({
        ...base,
        change: "added",
        to: stripAnnotations(after[property]!),
        role: isRequired ? "sender" : "none",
        summary: `property ${property} added (${isRequired ? "required" : "optional"})`,
      });
    else if (!(property in after))
      facts.push({
        ...base,
        change: "removed",
        from: stripAnnotations(before[property]!),
        role: "both",
        summary: `property ${property} removed`,
      });
    else {
      if (!compareSchemas(before[property]!, after[property]!, context))
        facts.push({
          ...base,
          change: "changed",
          from: stripAnnotations(before[property]!),
          to: stripAnnotations(after[property]!),
          role: "both",
          summary: `property ${property} changed`,
        });
      if (wasRequired !== isRequired)
        facts.push({
          definition: name,
          aspect: "required",
          detail: property,
          change: isRequired ? "added" : "removed",
          role: isRequired ? "sender" : "receiver",
          summary: `property ${property} is now ${isRequired ? "required" : "optional"}`,
        });
    }
  }
  return facts;
}

function memberFacts(
  name: string,
  keyword: string,
  before: readonly string[],
  after: readonly string[],
): DefinitionFact[] {
  return [
    ...after
      .filter((m) => !before.includes(m))
      .map((m): DefinitionFact => ({
        definition: name,
        change: "added",
        aspect: "member",
        detail: m,
        role: "receiver",
        summary: `${keyword} member ${m} added`,
      })),
    ...before
      .filter((m) => !after.includes(m))
      .map((m): DefinitionFact => ({
        definition: name,
        change: "removed",
        aspect: "member",
        detail: m,
        role: "sender",
        summary: `${keyword} member ${m} removed`,
      })),
  ];
}

function enumFacts(
  name: string,
  before: readonly JsonValue[],
  after: readonly JsonValue[],
): DefinitionFact[] {
  const key = (v: JsonValue) => JSON.stringify(v);
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  return [
    ...after
      .filter((v) => !had.has(key(v)))
      .map((v): DefinitionFact => ({
        definition: name,
        change: "added",
        aspect: "enum",
        detail: key(v),
        role: "receiver",
        summary: `value ${key(v)} added`,
      })),
    ...before
      .filter((v) => !has.has(key(v)))
      .map((v): DefinitionFact => ({
        definition: name,
        change: "removed",
        aspect: "enum",
        detail: key(v),
        role: "sender",
        summary: `value ${key(v)} removed`,
      })),
  ];
}

function schemaChanged(name: string, before: JsonValue, after: JsonValue): DefinitionFact {
  return {
    definition: name,
    change: "changed",
    aspect: "schema",
    from: stripAnnotations(before),
    to: stripAnnotations(after),
    role: "both",
    summary: "schema changed",
  };
}

// ---------------------------------------------------------------------------
// Methods and notifications

type Message = RequestNode | NotificationNode;

function diffMessages(
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

// ---------------------------------------------------------------------------
// resultType values, error codes, capabilities

/** True when `from` pins no resultType on any result and `to` does: results now carry one. */
function resultTypesIntroduced(from: McpModel, to: McpModel): boolean {
  const pins = (m: McpModel) =>
    m.requests.some((r) => r.results.some((b) => b.resultType !== undefined));
  return !pins(from) && pins(to);
}

function diffResultTypes(from: McpModel, to: McpModel): Change[] {
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

function diffErrorCodes(from: McpModel, to: McpModel): Change[] {
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

function diffCapabilities(from: McpModel, to: McpModel): Change[] {
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

// ---------------------------------------------------------------------------
// Helpers

/** The name of a model's MRTR result (known by shape), for summaries. */
function mrtrResultName(model: McpModel): string {
  return model.mrtrResults?.join(", ") || "InputRequiredResult";
}

function arrow(direction: Direction, mrtrResult = "InputRequiredResult"): string {
  switch (direction) {
    case "client-to-server":
      return "client -> server";
    case "server-to-client":
      return "server -> client";
    case "input-request":
      return `server -> client, inside ${mrtrResult}`;
    case "both":
      return "both ways";
  }
}

function union(...lists: ReadonlyArray<readonly Side[]>): Side[] {
  return BOTH.filter((s) => lists.some((l) => l.includes(s)));
}

function optional(fact: DefinitionFact): Partial<Change> {
  return {
    ...(fact.aspect !== undefined ? { aspect: fact.aspect } : {}),
    ...(fact.detail !== undefined ? { detail: fact.detail } : {}),
    ...(fact.from !== undefined ? { from: fact.from } : {}),
    ...(fact.to !== undefined ? { to: fact.to } : {}),
  };
}

function sortChanges(changes: Change[]): Change[] {
  const rank = (c: Change) => CATEGORY_ORDER.indexOf(c.category);
  const text = (c: Change) => [c.subject, c.aspect ?? "", c.detail ?? "", c.change];
  return changes.sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    const [x, y] = [text(a), text(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectOf(value: JsonValue): Record<string, JsonValue> | undefined {
  return isObject(value) ? value : undefined;
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The definition names of an `anyOf`/`oneOf` made only of `$ref`s. */
function refList(value: JsonValue | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value.map((v) =>
    isObject(v) && Object.keys(v).length === 1 ? refsOf(v)[0] : undefined,
  );
  return names.every((n) => n !== undefined) ? names : undefined;
}
