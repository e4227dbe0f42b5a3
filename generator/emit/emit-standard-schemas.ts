/**
 * emitStandardSchemas: every definition of a revision as a Standard Schema
 * V1 (https://standardschema.dev) that is also a Standard JSON Schema V1:
 * `STANDARD_SCHEMAS.<Definition>`, checked by the definition's generated
 * validator and described by `JSON_SCHEMAS.<Definition>`, the schema that
 * validator is compiled from. The objects are built by the revision-
 * independent code of static/standard-schema.ts, nothing per type by hand.
 */
import type { JsonObject, JsonValue } from "../load/json.js";
import { mapSchema } from "../shared/schema-walk.js";
import type { Declaration, McpModel } from "../model/types.js";
import { hardline, indent } from "./doc.js";
import { ANNOTATIONS } from "./emit-validators.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { jsonSchemaTargets } from "./json-schema-targets.js";
import { jsDoc, literal, propertyKey } from "./names.js";
import {
  STANDARD_SCHEMA_MODULE,
  STANDARD_SCHEMAS_FILE,
  VALIDATE_API_FILE,
  moduleSpecifier,
} from "../model/output-names.js";
import { jsonLiteral, objectLiteral, printCode } from "./ts-print.js";

/** Emits `standard-schemas.gen.ts`. */
export function emitStandardSchemas(model: McpModel, bannerText: string): EmittedFile {
  const schemas = model.declarations.map((d) => [d.name, checkedSchema(d)] as const);
  const targets = jsonSchemaTargets(
    model.dialect,
    schemas.map(([, s]) => s),
  );
  const file = new TsFileBuilder(STANDARD_SCHEMAS_FILE)
    .importValues(STANDARD_SCHEMA_MODULE, "definitionJsonSchema", "standardSchema")
    .importTypes(STANDARD_SCHEMA_MODULE, "StandardSchema")
    .importValues(moduleSpecifier(VALIDATE_API_FILE), "validate")
    .importTypes(moduleSpecifier(VALIDATE_API_FILE), "DefinitionName", "DefinitionTypes");
  file.add(
    `${jsDoc("The Standard JSON Schema targets the definitions can be given as: the revision's dialect first.")}const TARGETS = ${printCode(jsonLiteral(targets))};`,
  );
  file.add(
    `${jsDoc('Every definition\'s JSON Schema as its validator checks it (annotations, which no validator checks, left out), `$ref`s of the form `#/$defs/<Definition>`. `STANDARD_SCHEMAS.<Definition>["~standard"].jsonSchema` gives it as one document.')}${printCode(
      [
        "export const JSON_SCHEMAS: {",
        indent([
          hardline,
          "readonly [K in DefinitionName]: { readonly [keyword: string]: unknown };",
        ]),
        hardline,
        "} = ",
        jsonLiteral(Object.fromEntries<JsonValue>(schemas)),
        ";",
      ],
    )}`,
  );
  file.add(
    `${jsDoc("Definition `name` as a Standard Schema: checked by its generated validator, described by its JSON Schema.")}const standardSchemaOf = <K extends DefinitionName>(name: K): StandardSchema<DefinitionTypes[K]> =>
  standardSchema(
    (value) => validate(name, value),
    definitionJsonSchema(JSON_SCHEMAS, name, TARGETS),
  );`,
  );
  file.add(
    `${jsDoc("Every definition as a Standard Schema V1 with Standard JSON Schema (`~standard.validate`, `~standard.jsonSchema`), for libraries that take one, such as the official MCP SDK.")}${printCode(
      [
        "export const STANDARD_SCHEMAS: {",
        indent([hardline, "readonly [K in DefinitionName]: StandardSchema<DefinitionTypes[K]>;"]),
        hardline,
        "} = ",
        objectLiteral(
          model.declarations.map(
            (d) => [propertyKey(d.name), `standardSchemaOf(${literal(d.name)})`] as const,
          ),
          true,
        ),
        ";",
      ],
    )}`,
  );
  return file.build(bannerText);
}

/** The schema a declaration's validator is compiled from, without the annotations it ignores. */
function checkedSchema(decl: Declaration): JsonValue {
  const root: JsonObject =
    typeof decl.validatorSchema === "object"
      ? decl.validatorSchema
      : decl.validatorSchema
        ? {}
        : { not: {} };
  return mapSchema(root, (node) =>
    Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key))),
  );
}
