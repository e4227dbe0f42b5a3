/**
 * A revision grown k times: every definition of schema.json copied k
 * times, so that generation can be timed as the schema grows while its
 * shape stays that of the spec. Copy 1 is the revision itself; copy n > 1
 * renames every definition `X` to `CopynX` (a prefix keeps the suffixes
 * `Request`, `Result`, … that say what a definition is), points the
 * copy's references at the copy's definitions, and gives its methods their
 * own names (`tools/call` → `copyn/tools/call`), so that each copy is a
 * protocol of its own rather than a second claim on the same method. The
 * unions that say who sends which method (ClientRequest, ServerRequest,
 * InputRequest, ClientNotification, ServerNotification) are not copied:
 * each lists its members in every copy.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const DEFINITION_REF = /^#\/(\$defs|definitions)\/(.+)$/;

/** The schema.json text of `schemaJson` grown `copies` times, and how many definitions it holds. */
export function growSchema(
  schemaJson: string,
  copies: number,
): { text: string; definitions: number } {
  const schema = JSON.parse(schemaJson) as { [key: string]: Json };
  const key = "$defs" in schema ? "$defs" : "definitions";
  const definitions = schema[key] as { [name: string]: Json };
  const grown: { [name: string]: Json } = {};
  for (let n = 1; n <= copies; n++) {
    for (const [name, definition] of Object.entries(definitions)) {
      if (n > 1 && SENDER_UNIONS.includes(name)) continue;
      grown[copyName(name, n)] = n === 1 ? definition : renameCopy(definition, n);
    }
  }
  if (copies > 1) {
    for (const union of SENDER_UNIONS) {
      if (!(union in definitions)) continue;
      const members = unionMembers(union, definitions);
      grown[union] = {
        anyOf: Array.from({ length: copies }, (_, i) =>
          members.map((m) => ({ $ref: `#/${key}/${copyName(m, i + 1)}` })),
        ).flat(),
      };
    }
  }
  return {
    text: `${JSON.stringify({ ...schema, [key]: grown }, null, 2)}\n`,
    definitions: Object.keys(grown).length,
  };
}

/** Writes `<dir>/<revision>/schema.json` grown `copies` times; that folder and how many definitions it holds. */
export function writeGrownRevision(
  sourceSchemaJson: string,
  copies: number,
  dir: string,
  revision: string,
): { folder: string; definitions: number } {
  const folder = join(dir, revision);
  mkdirSync(folder, { recursive: true });
  const { text, definitions } = growSchema(readFileSync(sourceSchemaJson, "utf8"), copies);
  writeFileSync(join(folder, "schema.json"), text);
  return { folder, definitions };
}

const SENDER_UNIONS = [
  "ClientRequest",
  "ServerRequest",
  "InputRequest",
  "ClientNotification",
  "ServerNotification",
];

function copyName(name: string, n: number): string {
  return n === 1 ? name : `Copy${n}${name}`;
}

/**
 * The definitions a sender union lists: its `anyOf`/`oneOf` references, its
 * one `$ref`, or, where schema.json inlined a one-member union, the
 * definition it is a copy of (descriptions aside).
 */
function unionMembers(union: string, definitions: { [name: string]: Json }): string[] {
  const schema = definitions[union]!;
  if (!isObject(schema)) return [];
  const branches = schema.anyOf ?? schema.oneOf ?? (schema.$ref ? [schema] : undefined);
  if (Array.isArray(branches))
    return branches.flatMap((b) =>
      isObject(b) && typeof b.$ref === "string" ? [DEFINITION_REF.exec(b.$ref)![2]!] : [],
    );
  const shape = JSON.stringify(withoutDescription(schema));
  return Object.keys(definitions).filter(
    (name) => name !== union && JSON.stringify(withoutDescription(definitions[name]!)) === shape,
  );
}

function withoutDescription(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const { description: _description, ...rest } = schema;
  return rest;
}

/** Copy n of one definition: references to copy n, method names in copy n's namespace. */
function renameCopy(node: Json, n: number): Json {
  if (Array.isArray(node)) return node.map((item) => renameCopy(item, n));
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") {
      const match = DEFINITION_REF.exec(value);
      // The sender unions are not copied: the one union lists every copy's members.
      const target =
        match && !SENDER_UNIONS.includes(match[2]!) ? copyName(match[2]!, n) : undefined;
      out[key] = target ? `#/${match![1]}/${target}` : value;
    } else if (key === "method" && isObject(value) && typeof value.const === "string") {
      out[key] = { ...value, const: `copy${n}/${value.const}` };
    } else {
      out[key] = renameCopy(value, n);
    }
  }
  return out;
}

function isObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
