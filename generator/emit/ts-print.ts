/**
 * The TypeScript constructs of generated code as documents for doc.ts,
 * the one printer: type declarations (ts-type.ts's TsDeclaration) and
 * the literals, lists and signatures mcp-gen's own modules are made of.
 *
 * Types are laid out as prettier 3 lays them out (unions with a leading
 * `|` per member when they break, intersections that hug an object,
 * json-schema-to-typescript's objects kept expanded, the "fluid" layout
 * of a type alias), which costs nothing and keeps `types.gen.ts` the text
 * json-schema-to-typescript plus prettier would write
 * (test/emit/types.test.ts compares them). Nothing else is held to
 * prettier's output.
 */
import {
  align,
  group,
  hardline,
  hardlineKeepingSpaces,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  line,
  printDoc,
  softline,
  type Doc,
} from "./doc.js";
import type { JsonValue } from "../load/json.js";
import { jsonString, propertyKey } from "./names.js";
import type { TsDeclaration, TsMember, TsType } from "./ts-type.js";

/** The declaration, printed, with its JSDoc. */
export function printDeclaration(decl: TsDeclaration): string {
  return printDoc(declarationDoc(decl));
}

/** The declaration as a document (to print inside another, e.g. a namespace). */
export function declarationDoc(decl: TsDeclaration): Doc {
  const body: Doc =
    decl.form === "interface"
      ? ["export interface ", decl.name, " ", objectDoc(membersOf(decl.type))]
      : aliasDoc(decl.name, decl.type);
  return [decl.doc !== undefined ? [commentDoc(decl.doc), hardline] : "", body];
}

function membersOf(type: TsType): readonly TsMember[] {
  if (type.kind !== "object") throw new Error("an interface declaration needs an object type");
  return type.members;
}

/**
 * `export type X = T;` in prettier's assignment layouts: a union (one
 * that does not hug) breaks after `=` first, then between its members;
 * anything else is "fluid": it moves below `=` only when its first line
 * does not fit after it.
 */
function aliasDoc(name: string, type: TsType): Doc {
  const head = ["export type ", name, " ="];
  if (type.kind === "union" && !hugs(type.members))
    return [group([...head, group(indent([line, typeDoc(type, "alias")]))]), ";"];
  const id = Symbol("assignment");
  return [
    group([...head, group(indent(line), id), indentIfBreak(typeDoc(type, "alias"), id)]),
    ";",
  ];
}

/**
 * Where a type is printed, which decides parentheses and how a union
 * breaks: the right side of an alias or a member's annotation (a union
 * moves to its own lines), a member of a union or intersection, an array
 * element (both parenthesized), a tuple element.
 */
type Position = "alias" | "annotation" | "operand" | "element" | "tuple";

function typeDoc(type: TsType, position: Position): Doc {
  switch (type.kind) {
    case "name":
      return type.name;
    case "literal":
      return typeof type.value === "string"
        ? stringLiteral(type.value)
        : JSON.stringify(type.value);
    case "array":
      return [typeDoc(type.element, "element"), "[]"];
    case "tuple":
      return tupleDoc(type);
    case "object":
      return type.inline ? inlineObjectDoc(type.members) : objectDoc(type.members);
    case "union":
      return unionDoc(type.members, position);
    case "intersection":
      return parenthesized(intersectionDoc(type.members), position);
  }
}

function parenthesized(doc: Doc, position: Position): Doc {
  return position === "operand" || position === "element" ? ["(", doc, ")"] : doc;
}

/** Types that a union with only `null` beside them keeps on the line (`Foo | null`), as prettier's shouldHugType. */
function isHuggable(type: TsType): boolean {
  return type.kind === "object" || (type.kind === "name" && !KEYWORDS.has(type.name));
}

const KEYWORDS = new Set([
  "any",
  "bigint",
  "boolean",
  "never",
  "null",
  "number",
  "object",
  "string",
  "symbol",
  "undefined",
  "unknown",
  "void",
]);

/** Whether a union stays on its line whatever the width: one object or name with only `null` or `void` beside it (prettier's shouldHugType). */
function hugs(members: readonly TsType[]): boolean {
  const hugged = members.find(isHuggable);
  return (
    hugged !== undefined &&
    members.every(
      (m) => m === hugged || (m.kind === "name" && (m.name === "null" || m.name === "void")),
    )
  );
}

function unionDoc(members: readonly TsType[], position: Position): Doc {
  if (hugs(members))
    return parenthesized(
      join(
        " | ",
        members.map((m) => typeDoc(m, "operand")),
      ),
      position,
    );
  const code = group(
    members.map((m, i) => [
      i === 0 ? ifBreak("| ") : [line, "| "],
      align(2, typeDoc(m, "operand")),
    ]),
  );
  if (position === "operand" || position === "element")
    return ["(", group([indent([softline, code]), softline]), ")"];
  // An alias breaks after its `=` itself (see aliasDoc).
  if (position === "tuple" || position === "alias") return code;
  return group(indent([softline, code]));
}

/**
 * prettier's intersection layout: between two non-object types the line
 * may break after `&`; an object next to anything else stays on the
 * same line (`Result & {`), indented once a later one follows.
 */
function intersectionDoc(members: readonly TsType[]): Doc {
  let wasIndented = false;
  const parts = members.map((m, i): Doc => {
    const printed = typeDoc(m, "operand");
    if (i === 0) return printed;
    const isObject = m.kind === "object";
    const previousIsObject = members[i - 1]!.kind === "object";
    if (isObject && previousIsObject) return [" & ", wasIndented ? indent(printed) : printed];
    if (!isObject && !previousIsObject) return indent([" &", line, printed]);
    if (i > 1) wasIndented = true;
    return [" & ", i > 1 ? indent(printed) : printed];
  });
  return group(parts);
}

function tupleDoc(type: Extract<TsType, { kind: "tuple" }>): Doc {
  const elements = [
    ...type.elements.map((e) => typeDoc(e, "tuple")),
    ...(type.rest ? [["...", typeDoc(type.rest, "element"), "[]"]] : []),
  ];
  if (elements.length === 0) return "[]";
  return group(["[", indent([softline, join([",", line], elements)]), ifBreak(","), softline, "]"]);
}

/** An object type, always expanded: json-schema-to-typescript writes each member on its own line and prettier keeps it so. */
function objectDoc(members: readonly TsMember[]): Doc {
  if (members.length === 0) return "{}";
  return ["{", indent([hardline, join(hardline, members.map(memberDoc))]), hardline, "}"];
}

/** An object type that stays on one line when it fits (`{ resultType: "complete" }`). */
function inlineObjectDoc(members: readonly TsMember[]): Doc {
  if (members.length === 0) return "{}";
  const signatures = members.map((m) => [
    m.key,
    m.optional ? "?" : "",
    ": ",
    typeDoc(m.type, "annotation"),
  ]);
  return group(["{", indent([line, join([";", line], signatures)]), ifBreak(";"), line, "}"]);
}

function memberDoc(member: TsMember): Doc {
  const signature = group([
    member.key,
    member.optional ? "?" : "",
    ": ",
    typeDoc(member.type, "annotation"),
  ]);
  return [member.doc !== undefined ? [commentDoc(member.doc), hardline] : "", signature, ";"];
}

/**
 * A JSDoc block as prettier reprints one: each line re-indented and its
 * trailing spaces trimmed, except two or more (a Markdown line break),
 * which stay as two.
 */
function commentDoc(text: string): Doc {
  const lines = text.split("\n").map((l): Doc => {
    const content = `* ${l}`.trimStart();
    const trimmed = content.trimEnd();
    return trimmed !== "*" && content.endsWith("  ")
      ? [" ", trimmed, "  ", hardlineKeepingSpaces]
      : [" ", trimmed, hardline];
  });
  return ["/**", hardline, ...lines, " */"];
}

/**
 * A string literal as prettier writes one: double quotes, unless the text
 * holds more double quotes than single ones (then single quotes, which
 * need fewer escapes).
 */
export function stringLiteral(value: string): string {
  const json = jsonString(value);
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return json;
  const inner = json
    .slice(1, -1)
    .replace(/\\(.)|'/g, (match: string, escaped?: string) =>
      escaped === '"' ? '"' : escaped !== undefined ? match : "\\'",
    );
  return `'${inner}'`;
}

// ---------------------------------------------------------------- values and statements

/**
 * A value of a data table: text already written (a literal, a name, a
 * member expression), an array of values, or an object literal of them.
 */
export type TableValue =
  | string
  | { readonly array: readonly TableValue[] }
  | { readonly object: ReadonlyArray<readonly [key: string, value: TableValue]> };

/** A table value as a document: arrays and objects on one line when they fit, else one element per line. */
export function valueDoc(value: TableValue): Doc {
  if (typeof value === "string") return value;
  if ("array" in value) return arrayLiteral(value.array.map(valueDoc));
  return objectLiteral(value.object.map(([k, v]) => [k, valueDoc(v)] as const));
}

/** `[a, b]`, or one element per line with a trailing comma. */
export function arrayLiteral(elements: readonly Doc[]): Doc {
  if (elements.length === 0) return "[]";
  return group(["[", indent([softline, join([",", line], elements)]), ifBreak(","), softline, "]"]);
}

/**
 * `{ a: 1, b: 2 }` when it fits, else one member per line with a trailing
 * comma; `expanded` puts every member on its own line whatever the width
 * (the top of a table), and a member may carry a comment above it.
 */
export function objectLiteral(
  entries: ReadonlyArray<readonly [key: string, value: Doc, comment?: string]>,
  expanded = false,
): Doc {
  if (entries.length === 0) return "{}";
  const members = entries.map(([k, v, comment]) => [
    comment ? [textLines(comment), hardline] : "",
    k,
    ": ",
    v,
  ]);
  if (expanded) return ["{", indent(members.map((m) => [hardline, m, ","])), hardline, "}"];
  return group(["{", indent([line, join([",", line], members)]), ifBreak(","), line, "}"]);
}

/** An expanded object literal of table values: `{`, one member per line, `}`. */
export function tableLiteral(
  entries: ReadonlyArray<readonly [key: string, value: TableValue]>,
): Doc {
  return objectLiteral(
    entries.map(([k, v]) => [k, valueDoc(v)] as const),
    true,
  );
}

/** `{ a, b }` (import and export lists), or one name per line. */
export function namedList(names: readonly string[]): Doc {
  return group(["{", indent([line, join([",", line], names)]), ifBreak(","), line, "}"]);
}

/** A parameter list, `(a, b)` or one parameter per line. */
export function parameterList(parameters: readonly Doc[]): Doc {
  if (parameters.length === 0) return "()";
  return group([
    "(",
    indent([softline, join([",", line], parameters)]),
    ifBreak(","),
    softline,
    ")",
  ]);
}

/** Text of several lines (a JSDoc block, a fixed statement) as a document, without its final line break. */
export function textLines(text: string): Doc {
  return join(hardline, text.replace(/\n$/, "").split("\n"));
}

/**
 * A JSON value as a TypeScript literal: objects and arrays on one line
 * when they fit, keys quoted only where they are not identifiers.
 */
export function jsonLiteral(value: JsonValue): Doc {
  if (Array.isArray(value)) return arrayLiteral(value.map(jsonLiteral));
  if (value !== null && typeof value === "object")
    return objectLiteral(
      // `__proto__: v` in a literal would set the prototype, not a property; a computed key makes it one.
      Object.entries(value).map(
        ([k, v]) => [k === "__proto__" ? '["__proto__"]' : propertyKey(k), jsonLiteral(v)] as const,
      ),
    );
  return typeof value === "string" ? stringLiteral(value) : JSON.stringify(value);
}

/** Prints a statement (or any document) at the top level of a module. */
export function printCode(doc: Doc): string {
  return printDoc(doc);
}

/** An interface of `key: type` members, printed: `export interface Name {` one member per line `}`. */
export function printInterface(
  name: string,
  members: ReadonlyArray<readonly [key: string, type: string]>,
): string {
  return printDeclaration({
    name,
    form: "interface",
    type: {
      kind: "object",
      members: members.map(([key, type]) => ({
        key,
        optional: false,
        type: { kind: "name", name: type },
      })),
    },
  });
}
