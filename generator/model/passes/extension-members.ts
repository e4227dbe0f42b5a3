/**
 * The merge's steps that type members of core definitions:
 * - `augments`: a core definition gains the top-level properties of
 *   extension definitions (SubscriptionFilter gains Tasks' `taskIds`);
 * - `members`: a member below the top level is typed by an extension
 *   definition (MCP Apps: Tool's `_meta.ui` is McpUiToolMeta), so
 *   validators check it where it sits.
 *
 *   before: Tool.properties._meta = { $ref: MetaObject }
 *   after:  Tool.properties._meta = { allOf: [{ $ref: MetaObject }], properties: { ui: { $ref: McpUiToolMeta } } }
 *
 * A `$ref` on the way is kept and the member added beside it, for that
 * core definition only: MetaObject itself, and every other `_meta`, stay
 * as they are.
 */
import { diagnostic, type Diagnostic } from "../../diagnostics.js";
import {
  cloneJson,
  escapePointerSegment,
  isJsonObject,
  jsonEqual,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "../../load/json.js";
import type { ExtensionSource } from "../../load/types.js";
import type { Declaration } from "../types.js";
import { editSchemas, ref, structure } from "./merge-helpers.js";

/** `augments`: core definitions gain the extension definitions' properties. */
export function addAugments(
  ext: ExtensionSource,
  declarations: Declaration[],
  problems: Diagnostic[],
): Declaration[] {
  let decls = declarations;
  for (const [target, sources] of Object.entries(ext.manifest.augments ?? {})) {
    const additions = sources.flatMap((name, index) => {
      const source = decls.find((d) => d.name === name);
      const properties =
        source && typeof source.schema === "object" && isJsonObject(source.schema.properties)
          ? source.schema.properties
          : {};
      return Object.entries(properties).map(([property, schema]) => ({
        property,
        schema,
        from: name,
        index,
      }));
    });
    const targetDecl = decls.find((d) => d.name === target);
    if (!targetDecl) {
      problems.push(
        diagnostic(
          "MCPG616",
          { definition: target, why: "the revision does not define it" },
          { file: ext.manifestFile, pointer: `/augments/${escapePointerSegment(target)}` },
        ),
      );
      continue;
    }
    // Decided once, on the type view, so each conflict is reported once (editSchemas edits both views).
    const before =
      typeof targetDecl.schema === "object" && isJsonObject(targetDecl.schema.properties)
        ? targetDecl.schema.properties
        : {};
    const owners = new Map(
      Object.entries(before).map(([property, schema]) => [property, { schema, owner: target }]),
    );
    const accepted = additions.filter(({ property, schema, from, index }) => {
      const current = owners.get(property);
      if (current && !jsonEqual(structure(current.schema), structure(schema))) {
        problems.push(
          diagnostic(
            "MCPG615",
            { definition: target, property, other: current.owner },
            {
              file: ext.manifestFile,
              pointer: `/augments/${escapePointerSegment(target)}/${index}`,
            },
          ),
        );
        return false;
      }
      owners.set(property, { schema, owner: from });
      return true;
    });
    const edited = editSchemas(targetDecl, (schema) => {
      if (!isJsonObject(schema.properties)) return "it has no properties";
      for (const { property, schema: added } of accepted)
        schema.properties[property] = cloneJson(added);
      return schema;
    });
    if (typeof edited === "string")
      problems.push(diagnostic("MCPG616", { definition: target, why: edited }, targetDecl.origin));
    else decls = decls.map((d) => (d === targetDecl ? edited : d));
  }
  return decls;
}

/** `members`: members below the top level of core definitions are typed by extension definitions. */
export function addMembers(
  ext: ExtensionSource,
  declarations: Declaration[],
  problems: Diagnostic[],
): Declaration[] {
  let decls = declarations;
  for (const [target, paths] of Object.entries(ext.manifest.members ?? {})) {
    const where = (path?: string) => ({
      file: ext.manifestFile,
      pointer: `/members/${escapePointerSegment(target)}${path === undefined ? "" : `/${escapePointerSegment(path)}`}`,
    });
    const targetDecl = decls.find((d) => d.name === target);
    if (!targetDecl) {
      problems.push(
        diagnostic(
          "MCPG616",
          { definition: target, why: "the revision does not define it" },
          where(),
        ),
      );
      continue;
    }
    let current: Declaration = targetDecl;
    for (const [path, definition] of Object.entries(paths)) {
      const edited = editSchemas(current, (schema) =>
        withMember(schema, parsePointer(path), ref(definition)),
      );
      if (typeof edited !== "string") current = edited;
      else if (edited.startsWith("conflict:"))
        problems.push(
          diagnostic(
            "MCPG615",
            { definition: target, property: path, other: edited.slice("conflict:".length) },
            where(path),
          ),
        );
      else problems.push(diagnostic("MCPG616", { definition: target, why: edited }, where(path)));
    }
    decls = decls.map((d) => (d === targetDecl ? current : d));
  }
  return decls;
}

/**
 * `schema` with the member at `path` (property names) set to `value`,
 * edited in place (the caller passes a copy); a string saying why not.
 */
function withMember(
  schema: JsonObject,
  path: readonly string[],
  value: JsonObject,
): JsonObject | string {
  const [name, ...rest] = path;
  if (name === undefined) return "the path names no member";
  const node = beside$ref(schema);
  if (node.type !== undefined && node.type !== "object")
    return `the member's parent is of type ${JSON.stringify(node.type)}, not an object`;
  const properties = isJsonObject(node.properties) ? node.properties : {};
  const child = Object.hasOwn(properties, name) ? properties[name] : undefined;
  if (rest.length === 0) {
    if (child !== undefined && !jsonEqual(structure(child), structure(value)))
      return `conflict:the core definition's own ${JSON.stringify(child)}`;
    properties[name] = cloneJson(value);
  } else {
    const next = child === undefined ? { type: "object" } : child;
    if (!isJsonObject(next)) return `${name} is a boolean schema`;
    const edited = withMember(next, rest, value);
    if (typeof edited === "string") return edited;
    properties[name] = edited;
  }
  node.properties = properties;
  return node;
}

/**
 * A schema that may take properties: a bare `$ref` (a definition shared
 * with others) becomes an `allOf` of it, with the annotations it carried,
 * so members added here apply to this place only.
 */
function beside$ref(schema: JsonObject): JsonObject {
  if (typeof schema.$ref !== "string") return schema;
  const { $ref, ...annotations } = schema;
  const allOf: JsonValue[] = [{ $ref }];
  return { ...annotations, allOf };
}
