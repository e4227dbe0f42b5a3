/**
 * Prints TypeScript declarations (ts-type.ts) as prettier, with mcp-gen's
 * options, prints them: each construct becomes the document prettier
 * 3's TypeScript printer builds for it (unions with a leading `|` per
 * member when they break, intersections that hug an object, objects kept
 * expanded, the "fluid" layout of a type alias), and doc.ts lays it out.
 * test/emit/types.test.ts checks the result against prettier over every
 * revision and a sweep of shapes and widths.
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
import { stringLiteral } from "./layout.js";
import type { TsDeclaration, TsMember, TsType } from "./ts-type.js";

/** The declaration as prettier prints it, with its JSDoc. */
export function printDeclaration(decl: TsDeclaration): string {
  const body: Doc =
    decl.form === "interface"
      ? ["export interface ", decl.name, " ", objectDoc(membersOf(decl.type))]
      : aliasDoc(decl.name, decl.type);
  return printDoc([decl.doc !== undefined ? [commentDoc(decl.doc), hardline] : "", body]);
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
      return objectDoc(type.members);
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
