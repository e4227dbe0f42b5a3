/**
 * Walks two versions of a tool schema side by side: object properties,
 * required-ness, additionalProperties, array items and enum values, each
 * difference one change (classify.ts judges it).
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { stripAnnotations } from "../compare-schemas.js";
import {
  describeDifference,
  exemplified,
  genericKind,
  judged,
  label,
  onlyDiffersIn,
  partiesOf,
  placed,
  type SchemaPlace,
  where,
} from "./classify.js";
import { checkerOf } from "./accepts.js";
import { followRef, propertySchema, type Rooted, subsumes } from "./subsume.js";
import {
  names,
  order,
  type Party,
  pointerSegment,
  show,
  type ToolChange,
  withoutKeys,
} from "./tool-change.js";

/**
 * Walks two schemas side by side: object properties and array items are
 * followed, enum values are compared one by one, and anything else that
 * differs is one change judged by subsumption.
 */
export function compareSchema(before: Rooted, after: Rooted, place: SchemaPlace): void {
  const old = followRef(before);
  const now = followRef(after);
  const a = stripAnnotations(old.schema);
  const b = stripAnnotations(now.schema);
  if (jsonEqual(a, b) && (onlyLocal(a) || jsonEqual(old.root, now.root))) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    if (isPlainObjectSchema(a) && isPlainObjectSchema(b))
      return compareObjectSchemas({ ...old, schema: a }, { ...now, schema: b }, place);
    if (Array.isArray(a.enum) && Array.isArray(b.enum) && onlyDiffersIn(a, b, ["enum"]))
      return compareEnums(a.enum, b.enum, place, { ...old, schema: a }, { ...now, schema: b });
    if (isJsonObject(a.items) && isJsonObject(b.items) && onlyDiffersIn(a, b, ["items"]))
      return compareSchema(
        { schema: a.items, root: old.root },
        { schema: b.items, root: now.root },
        { ...place, path: `${place.path}/items` },
      );
  }
  place.out.push(judged(place, old, now, genericKind(a, b), describeDifference(a, b)));
}

/** A schema without `$ref`s compares the same in any document. */
function onlyLocal(schema: JsonValue): boolean {
  return !JSON.stringify(schema).includes('"$ref"');
}

/** An object schema the walker can follow property by property (no unions, no refs beside it). */
function isPlainObjectSchema(s: JsonObject): boolean {
  const objectTyped = s.type === "object" || (s.type === undefined && isJsonObject(s.properties));
  return (
    objectTyped &&
    ["anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not", "if"].every((k) => !(k in s))
  );
}

/** Properties, required-ness and additionalProperties, each its own change; the rest judged as a whole. */
function compareObjectSchemas(old: Rooted, now: Rooted, place: SchemaPlace): void {
  const a = old.schema as JsonObject;
  const b = now.schema as JsonObject;
  const propsA = isJsonObject(a.properties) ? a.properties : {};
  const propsB = isJsonObject(b.properties) ? b.properties : {};
  const reqA = names(a.required);
  const reqB = names(b.required);
  const { sender, receiver } = partiesOf(place.schema);
  const at = (name: string) => `${place.path}/properties/${pointerSegment(name)}`;
  // Counterexamples of a property's change are whole objects, searched in the object schemas.
  const push = (change: ToolChange) => place.out.push(exemplified(place, old, now, change));
  for (const name of Object.keys(propsB).filter((n) => !Object.hasOwn(propsA, n))) {
    const required = reqB.includes(name);
    push({
      ...placed(place, at(name)),
      kind: "property-added",
      detail: name,
      to: propsB[name]!,
      breaking: required ? [sender] : [],
      possiblyBreaking: [],
      reasons: required ? [`${sender} must now send ${name}`] : [],
      summary: `${required ? "required" : "optional"} ${label(place.schema)} ${name} added`,
    });
  }
  for (const name of Object.keys(propsA).filter((n) => !Object.hasOwn(propsB, n)))
    push(removedProperty(place, at(name), name, old, now, reqA.includes(name)));
  for (const name of Object.keys(propsA).filter((n) => Object.hasOwn(propsB, n))) {
    if (!reqA.includes(name) && reqB.includes(name))
      push(requiredness(place, at(name), name, "property-required", sender));
    if (reqA.includes(name) && !reqB.includes(name))
      push(requiredness(place, at(name), name, "property-optional", receiver));
    compareSchema(
      { schema: propsA[name]!, root: old.root },
      { schema: propsB[name]!, root: now.root },
      { ...place, path: at(name) },
    );
  }
  for (const name of reqB.filter((n) => !reqA.includes(n) && !Object.hasOwn(propsB, n)))
    push(requiredness(place, place.path, name, "property-required", sender));
  if (!jsonEqual(a.additionalProperties, b.additionalProperties))
    place.out.push(
      judged(
        place,
        { schema: a.additionalProperties ?? true, root: old.root },
        { schema: b.additionalProperties ?? true, root: now.root },
        "additional-properties-changed",
        `additionalProperties ${show(a.additionalProperties)} -> ${show(b.additionalProperties)}`,
        // A property the schema does not name is only a value inside an object: the example is the object.
        { old, now, as: "as properties the schema does not name" },
      ),
    );
  const restA = withoutKeys(a, OBJECT_WALKED);
  const restB = withoutKeys(b, OBJECT_WALKED);
  if (!jsonEqual(restA, restB))
    place.out.push(
      judged(
        place,
        { ...old, schema: restA },
        { ...now, schema: restB },
        "schema-changed",
        describeDifference(restA, restB),
      ),
    );
}

/** Keywords the object walk follows itself; `$defs` are compared where a `$ref` reaches them. */
const OBJECT_WALKED = ["properties", "required", "additionalProperties", "$defs", "definitions"];

/** A property gone: its receivers break when it was required; senders when it is now refused. */
function removedProperty(
  place: SchemaPlace,
  path: string,
  name: string,
  old: Rooted,
  now: Rooted,
  wasRequired: boolean,
): ToolChange {
  const { sender, receiver } = partiesOf(place.schema);
  const stillAccepted = subsumes(
    { schema: propertySchema(now.schema as JsonObject, name), root: now.root },
    { schema: propertySchema(old.schema as JsonObject, name), root: old.root },
  );
  const breaking: Party[] = wasRequired ? [receiver] : [];
  const possibly: Party[] = [];
  const reasons = wasRequired ? [`${receiver} may rely on ${name}, which was required`] : [];
  if (stillAccepted.result === "no") {
    breaking.push(sender);
    reasons.push(`${sender} that still send ${name} are refused: ${stillAccepted.reason}`);
  } else if (stillAccepted.result === "unknown") {
    possibly.push(sender);
    reasons.push(`whether ${name} is still accepted is not decided: ${stillAccepted.reason}`);
  }
  return {
    ...placed(place, path),
    kind: "property-removed",
    detail: name,
    from: propertySchema(old.schema as JsonObject, name),
    breaking: order(breaking),
    possiblyBreaking: possibly,
    reasons,
    summary: `${wasRequired ? "required" : "optional"} ${label(place.schema)} ${name} removed`,
  };
}

function requiredness(
  place: SchemaPlace,
  path: string,
  name: string,
  kind: "property-required" | "property-optional",
  broken: Party,
): ToolChange {
  const required = kind === "property-required";
  return {
    ...placed(place, path),
    kind,
    detail: name,
    breaking: [broken],
    possiblyBreaking: [],
    reasons: [
      required
        ? `${broken} must now send ${name}`
        : `${broken} may no longer get ${name}, which was required`,
    ],
    summary: `${label(place.schema)} ${name} is now ${required ? "required" : "optional"}`,
  };
}

/**
 * Enum values one by one: a value removed breaks senders, a value added
 * breaks receivers; each value is its own counterexample (the schemas
 * differ in their enums only).
 */
function compareEnums(
  before: JsonValue[],
  after: JsonValue[],
  place: SchemaPlace,
  old: Rooted,
  now: Rooted,
): void {
  const { sender, receiver } = partiesOf(place.schema);
  const example = (party: Party, acceptedBy: "old" | "new", value: JsonValue) => {
    const [accepting, refusing] = acceptedBy === "old" ? [old, now] : [now, old];
    const shown = place.search && checkerOf(accepting)?.(value) && !checkerOf(refusing)?.(value);
    return shown ? { counterexamples: [{ party, acceptedBy, value }] } : {};
  };
  const has = (list: JsonValue[], v: JsonValue) => list.some((w) => jsonEqual(v, w));
  for (const value of before.filter((v) => !has(after, v)))
    place.out.push({
      ...placed(place, place.path),
      kind: "enum-value-removed",
      detail: JSON.stringify(value),
      from: value,
      breaking: [sender],
      possiblyBreaking: [],
      reasons: [`${sender} that send ${JSON.stringify(value)} are refused`],
      ...example(sender, "old", value),
      summary: `enum value ${JSON.stringify(value)} removed${where(place)}`,
    });
  for (const value of after.filter((v) => !has(before, v)))
    place.out.push({
      ...placed(place, place.path),
      kind: "enum-value-added",
      detail: JSON.stringify(value),
      to: value,
      breaking: [receiver],
      possiblyBreaking: [],
      reasons: [`${receiver} may now get ${JSON.stringify(value)}, which they do not know`],
      ...example(receiver, "new", value),
      summary: `enum value ${JSON.stringify(value)} added${where(place)}`,
    });
}
