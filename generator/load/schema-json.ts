/**
 * Parsing schema.json: dialect detection and the definitions object. Used
 * for a revision's schema and for every extension's.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import { isJsonObject, parseJsonText, type JsonObject } from "./json.js";
import { checkDefinitionCount } from "./limits.js";
import { DIALECT_URIS } from "../shared/json-schema-dialects.js";
import type { InputFile, JsonSchemaSource } from "./types.js";

/**
 * Parses schema.json. The dialect comes from `$schema`; without one, a
 * `$defs` document is read as 2020-12 and a `definitions` one as draft-07.
 * An unsupported `$schema` is left for the check stage to report with the
 * others.
 */
export function parseSchemaJson(file: InputFile): JsonSchemaSource {
  const value = parseJsonText(file.text, file.name);
  if (!isJsonObject(value)) {
    throw new McpGenError([
      diagnostic(
        "MCPG208",
        { found: Array.isArray(value) ? "an array" : typeof value },
        { file: file.name, pointer: "" },
      ),
    ]);
  }
  const definitionsKey = isJsonObject(value.$defs)
    ? "$defs"
    : isJsonObject(value.definitions)
      ? "definitions"
      : undefined;
  if (!definitionsKey)
    throw new McpGenError([
      diagnostic(
        "MCPG208",
        { found: "neither $defs nor definitions" },
        { file: file.name, pointer: "" },
      ),
    ]);
  checkDefinitionCount(
    Object.keys(value[definitionsKey] as JsonObject).length,
    file.name,
    `/${definitionsKey}`,
  );
  const declared = typeof value.$schema === "string" ? DIALECT_URIS[value.$schema] : undefined;
  return {
    file,
    dialect: declared ?? (definitionsKey === "$defs" ? "2020-12" : "draft-07"),
    definitionsKey,
    document: value,
  };
}

/** The definitions object of a schema document. */
export function definitionsOf(source: JsonSchemaSource): JsonObject {
  return source.document[source.definitionsKey] as JsonObject;
}
