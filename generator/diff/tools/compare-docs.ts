/**
 * Documentation changes: the titles and descriptions of a tool's
 * arguments and output, wherever they sit in its schemas. They constrain
 * no value, so they break no program; but a model reads them to choose a
 * tool and fill its arguments, so for a client driven by a model they are
 * part of the contract, and the diff reports them in a class of their own.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { forEachSchema } from "../../shared/schema-walk.js";
import { where } from "./classify.js";
import { fromTo, fromToText, type ToolChange } from "./tool-change.js";

/** The keywords that document a schema for whoever reads it. */
const DOCUMENTING = ["title", "description"] as const;

/**
 * Each title and description that differs at the same place in both
 * schemas. A subschema present on one side only (a property added) is not
 * a documentation change: the structural change reports it.
 */
export function compareDocumentation(
  tool: string,
  schema: "input" | "output",
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): ToolChange[] {
  const a = nodesByPointer(before);
  const b = nodesByPointer(after);
  const out: ToolChange[] = [];
  for (const [path, nodeA] of a) {
    const nodeB = b.get(path);
    if (!nodeB) continue;
    for (const keyword of DOCUMENTING) {
      const [from, to] = [nodeA[keyword], nodeB[keyword]];
      if (jsonEqual(from, to)) continue;
      out.push({
        tool,
        kind: keyword === "title" ? "title-changed" : "description-changed",
        schema,
        path,
        ...fromTo(from, to),
        breaking: [],
        possiblyBreaking: [],
        reasons: [],
        summary: `${keyword} ${from === undefined ? "added" : to === undefined ? "removed" : "changed"}${where({ schema, path })}${fromToText(from, to)}`,
      });
    }
  }
  return out;
}

/** Every subschema of a schema by its JSON pointer. */
function nodesByPointer(schema: JsonValue | undefined): Map<string, JsonObject> {
  const nodes = new Map<string, JsonObject>();
  if (isJsonObject(schema)) forEachSchema(schema, "", (node, pointer) => nodes.set(pointer, node));
  return nodes;
}
