/**
 * The definitions part of a diff: each definition added, removed, renamed
 * (recognised by shape) or changed, down to properties, members and enum
 * values, and which sides each change breaks.
 */
import type { JsonValue } from "../load/json.js";
import type { JsonSchema, McpModel } from "../model/types.js";
import { type Change, isObject, objectOf, refList, stringList, union } from "./changes.js";
import { compareSchemas, type SchemaContext, stripAnnotations } from "./compare-schemas.js";
import { definitionSenders, type Role, sidesFor } from "./senders.js";

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

export interface DefinitionDiff {
  readonly from: McpModel;
  readonly to: McpModel;
  readonly changes: Change[];
  /** The facts of each changed definition, to judge the messages that reach it. */
  readonly facts: ReadonlyMap<string, readonly DefinitionFact[]>;
  /** Definitions kept under a new name: old name → new name. */
  readonly renamed: ReadonlyMap<string, string>;
}

export function diffDefinitions(
  from: McpModel,
  to: McpModel,
  context: SchemaContext,
): DefinitionDiff {
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

function optional(fact: DefinitionFact): Partial<Change> {
  return {
    ...(fact.aspect !== undefined ? { aspect: fact.aspect } : {}),
    ...(fact.detail !== undefined ? { detail: fact.detail } : {}),
    ...(fact.from !== undefined ? { from: fact.from } : {}),
    ...(fact.to !== undefined ? { to: fact.to } : {}),
  };
}
