/**
 * emitValidateApi: the typed API over the compiled validators:
 * `validate(name, value)`, an `is<Definition>` guard per declaration, and
 * the name → type map they share.
 */
import type { McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { group, indent, line } from "./doc.js";
import { guardName, jsDoc, propertyKey, validatorName } from "./names.js";
import {
  COMPILED_VALIDATORS_FILE,
  SUPPORT_MODULE,
  TYPES_FILE,
  VALIDATE_API_FILE,
  moduleSpecifier,
} from "../model/output-names.js";
import { objectLiteral, printCode, printInterface } from "./ts-print.js";

/** Emits `validators.gen.ts`. */
export function emitValidateApi(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(VALIDATE_API_FILE)
    .importNamespace(moduleSpecifier(COMPILED_VALIDATORS_FILE), "compiled", false)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(SUPPORT_MODULE, "invalid", "VALID")
    .importTypes(SUPPORT_MODULE, "CompiledValidator", "ValidationResult");
  const names = model.declarations.map((d) => d.name);
  file.add(
    `${jsDoc("Every definition's TypeScript type, by definition name.")}${printInterface(
      "DefinitionTypes",
      names.map((n) => [propertyKey(n), `T.${n}`] as const),
    )}`,
  );
  file.add(
    `${jsDoc("A definition name of this revision.")}export type DefinitionName = keyof DefinitionTypes;`,
  );
  file.add(
    `${jsDoc("The compiled validator of every definition.")}export const VALIDATORS: { readonly [K in DefinitionName]: CompiledValidator } = ${printCode(
      objectLiteral(
        names.map((n) => [propertyKey(n), `compiled.${validatorName(n)}`] as const),
        true,
      ),
    )};`,
  );
  // A Map because validate() looks a different name up on nearly every call: a
  // keyed load on an object of hundreds of properties costs several times a Map lookup.
  file.add(
    "const VALIDATOR_BY_NAME: ReadonlyMap<string, CompiledValidator> = new Map(\n  Object.entries(VALIDATORS),\n);",
  );
  file.add(
    `${jsDoc("Validates `value` against the definition `name`: `{ ok: true }`, or `{ ok: false, errors }` with a JSON pointer and a message per problem.")}export function validate(name: DefinitionName, value: unknown): ValidationResult {\n  const validator = VALIDATOR_BY_NAME.get(name);\n  if (validator === undefined) throw unknownDefinition(name);\n  // runValidator, written out: this is the hottest call of the module.\n  return validator(value) ? VALID : invalid(validator);\n}`,
  );
  file.add(
    `function unknownDefinition(name: unknown): TypeError {\n  return new TypeError(\n    \`validate: \${JSON.stringify(name)} is not a definition of MCP ${model.revision}; DefinitionName lists the ones there are\`,\n  );\n}`,
  );
  // One doc for all guards: they differ only in the definition they check, and a JSDoc block each would double the file.
  const guards = model.declarations.map((d) => guard(guardName(d.name), d.name));
  file.add(
    `/* Type guards, one per definition: \`isX(value)\` is true when \`value\` is a valid X. */\n${guards.join("\n")}`,
  );
  return file.build(bannerText);
}

/**
 * `export const isX = (value: unknown): value is T.X => VALIDATORS.X(value);`,
 * the call below the arrow when the line is too long.
 */
function guard(guardName: string, definition: string): string {
  return printCode(
    group([
      `export const ${guardName} = (value: unknown): value is T.${definition} =>`,
      indent([line, `VALIDATORS.${definition}(value);`]),
    ]),
  );
}
