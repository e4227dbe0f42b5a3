/**
 * The generated validators decide exactly as plain ajv does on the
 * schemas before mcp-gen shapes them for speed (tagged unions through
 * ajv's discriminator, type-disjoint unions merged or dispatched on type).
 * Differential test over every spec example and thousands of mutations.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import type { JsonValue } from "../../generator/load/json.js";
import { mapSchema } from "../../generator/shared/schema-walk.js";
import { examples, generated } from "../helpers/index.js";
import { mutations } from "../helpers/mutations.js";

const { model } = await generated("2026-07-28");

/** Reference validators: the model's validator schemas with refs renamed, nothing else changed. */
function referenceValidators(): Map<string, (value: unknown) => boolean> {
  const ajv = new Ajv({
    strict: false,
    allowUnionTypes: true,
    validateFormats: false,
    inlineRefs: false,
  });
  for (const d of model.declarations) {
    const schema = mapSchema(d.validatorSchema, (node) =>
      typeof node.$ref === "string" ? { ...node, $ref: node.$ref.replace("#/$defs/", "") } : node,
    );
    ajv.addSchema({ ...(schema as object), $id: d.name });
  }
  return new Map(model.declarations.map((d) => [d.name, ajv.getSchema(d.name)!]));
}

describe("generated validators decide as ajv does on the unshaped schemas", () => {
  const reference = referenceValidators();

  it.each(examples().map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s and its mutations",
    (_name, e) => {
      const generatedValidator = mcp.VALIDATORS[e.definition as mcp.DefinitionName];
      const referenceValidator = reference.get(e.definition)!;
      let checked = 0;
      const disagreements: string[] = [];
      for (const input of [e.value as JsonValue, ...mutations(e.value as JsonValue)]) {
        checked++;
        const want = referenceValidator(input);
        if (generatedValidator(input) !== want)
          disagreements.push(`${JSON.stringify(input).slice(0, 200)} (reference: ${want})`);
      }
      expect(disagreements).toEqual([]);
      expect(checked).toBeGreaterThan(1);
    },
  );
});
