/**
 * The check stage, rule by rule: given a schema document, want exactly
 * these diagnostic lines (none for legitimate schemas).
 */
import { describe, expect, it } from "vitest";
import {
  checkDefinitionNames,
  checkDialects,
  checkRefCycles,
  checkRefs,
} from "../../generator/check/check-sources.js";
import { formatDiagnostic, type Diagnostic } from "../../generator/diagnostics.js";
import type { JsonValue } from "../../generator/load/json.js";
import { parseSchemaJson } from "../../generator/load/load-sources.js";
import type { JsonSchemaSource } from "../../generator/load/types.js";

const FIX_REF = "(fix: point the $ref at an existing definition, or add the definition)";
const FIX_REMOTE =
  "(fix: inline the referenced schema as a local definition and use a local $ref (#/$defs/...))";
const FIX_INNER =
  "(fix: give the referenced schema a definition of its own and point the $ref at that definition)";
const FIX_CYCLE =
  "(fix: such a definition describes no value; make one of them an object, array or union)";
const FIX_DIALECT =
  "(fix: use one of the supported dialects: draft-07 (http://json-schema.org/draft-07/schema#) and 2020-12 (https://json-schema.org/draft/2020-12/schema))";

function source(document: JsonValue): JsonSchemaSource {
  return parseSchemaJson({
    name: "s/schema.json",
    path: "/s/schema.json",
    sha256: "",
    text: JSON.stringify(document),
  });
}

const lines = (diagnostics: readonly Diagnostic[]) => diagnostics.map(formatDiagnostic);
const obj = (properties: Record<string, JsonValue>) => ({ type: "object", properties });

describe("rules: every $ref is local and points at something; every $ref names a whole definition", () => {
  it.each<[string, JsonValue, string[]]>([
    [
      "a reference to a definition",
      { $defs: { A: { type: "string" }, B: obj({ a: { $ref: "#/$defs/A" } }) } },
      [],
    ],
    [
      "a draft-07 reference to a definition",
      { definitions: { A: { type: "string" }, B: obj({ a: { $ref: "#/definitions/A" } }) } },
      [],
    ],
    [
      "a percent-encoded definition name",
      { $defs: { "A B": { type: "string" }, B: obj({ a: { $ref: "#/$defs/A%20B" } }) } },
      [],
    ],
    [
      "a definition that does not exist",
      { $defs: { B: obj({ a: { $ref: "#/$defs/A" } }) } },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG202: $ref "#/$defs/A" points to nothing in this schema ${FIX_REF}`,
      ],
    ],
    [
      "the other dialect's definitions keyword",
      { $defs: { A: { type: "string" }, B: obj({ a: { $ref: "#/definitions/A" } }) } },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG202: $ref "#/definitions/A" points to nothing in this schema ${FIX_REF}`,
      ],
    ],
    [
      "an anchor",
      { $defs: { B: obj({ a: { $ref: "#thing" } }) } },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG202: $ref "#thing" points to nothing in this schema ${FIX_REF}`,
      ],
    ],
    [
      "malformed percent-encoding",
      { $defs: { B: obj({ a: { $ref: "#/$defs/%zz" } }) } },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG202: $ref "#/$defs/%zz" points to nothing in this schema ${FIX_REF}`,
      ],
    ],
    [
      "the inside of a definition",
      {
        $defs: {
          A: obj({ x: { type: "string" } }),
          B: obj({ a: { $ref: "#/$defs/A/properties/x" } }),
        },
      },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG209: $ref "#/$defs/A/properties/x" does not name a definition (mcp-gen follows only references of the form #/$defs/<Name>) ${FIX_INNER}`,
      ],
    ],
    [
      "the whole document",
      { $defs: { B: obj({ a: { $ref: "#" } }) } },
      [
        `s/schema.json#/$defs/B/properties/a/$ref: error MCPG209: $ref "#" does not name a definition (mcp-gen follows only references of the form #/$defs/<Name>) ${FIX_INNER}`,
      ],
    ],
    [
      "a remote schema",
      { $defs: { B: { items: { $ref: "https://example.com/a.json" } } } },
      [
        `s/schema.json#/$defs/B/items/$ref: error MCPG204: remote $ref "https://example.com/a.json" is not supported (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
      ],
    ],
    [
      "a relative file",
      { $defs: { B: { anyOf: [{ type: "null" }, { $ref: "other.json#/$defs/A" }] } } },
      [
        `s/schema.json#/$defs/B/anyOf/1/$ref: error MCPG204: remote $ref "other.json#/$defs/A" is not supported (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
      ],
    ],
    // Data is not schema: a "$ref" inside const, enum or default is a value, not a reference.
    ["a $ref-shaped value in const", { $defs: { B: { const: { $ref: "#/$defs/Nope" } } } }, []],
  ])("%s", (_what, document, want) => {
    expect(lines(checkRefs(source(document)))).toEqual(want);
  });
});

describe("rule: no definition is a cycle of bare $refs", () => {
  it.each<[string, JsonValue, string[]]>([
    [
      "a definition that refers to itself",
      { $defs: { A: { $ref: "#/$defs/A" } } },
      [
        `s/schema.json#/$defs/A: error MCPG207: $ref cycle with nothing between the references: A → A ${FIX_CYCLE}`,
      ],
    ],
    [
      "three definitions in a loop, reported once",
      { $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/C" }, C: { $ref: "#/$defs/A" } } },
      [
        `s/schema.json#/$defs/A: error MCPG207: $ref cycle with nothing between the references: A → B → C → A ${FIX_CYCLE}`,
      ],
    ],
    [
      "a one-branch allOf adds nothing between the references",
      { $defs: { A: { allOf: [{ $ref: "#/$defs/B" }] }, B: { anyOf: [{ $ref: "#/$defs/A" }] } } },
      [
        `s/schema.json#/$defs/A: error MCPG207: $ref cycle with nothing between the references: A → B → A ${FIX_CYCLE}`,
      ],
    ],
    [
      "a chain into a loop reports the loop, not the chain",
      {
        $defs: { Entry: { $ref: "#/$defs/A" }, A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } },
      },
      [
        `s/schema.json#/$defs/A: error MCPG207: $ref cycle with nothing between the references: A → B → A ${FIX_CYCLE}`,
      ],
    ],
    [
      "recursion through an object property (Tree.children: Tree[])",
      { $defs: { Tree: obj({ children: { type: "array", items: { $ref: "#/$defs/Tree" } } }) } },
      [],
    ],
    [
      "recursion through a union with another branch",
      {
        $defs: {
          JSONValue: {
            anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/JSONValue" } }],
          },
        },
      },
      [],
    ],
    [
      "mutual recursion through objects",
      { $defs: { A: obj({ b: { $ref: "#/$defs/B" } }), B: obj({ a: { $ref: "#/$defs/A" } }) } },
      [],
    ],
    [
      "a chain of aliases that ends",
      { $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/C" }, C: { type: "string" } } },
      [],
    ],
  ])("%s", (_what, document, want) => {
    expect(lines(checkRefCycles(source(document)))).toEqual(want);
  });
});

describe("rule: the dialect is one mcp-gen supports", () => {
  it.each<[string, JsonValue, string[]]>([
    [
      "2020-12",
      { $schema: "https://json-schema.org/draft/2020-12/schema", $defs: { A: { type: "string" } } },
      [],
    ],
    [
      "draft-07",
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        definitions: { A: { type: "string" } },
      },
      [],
    ],
    ["none (inferred from $defs)", { $defs: { A: { type: "string" } } }, []],
    [
      "draft-04 for the document",
      {
        $schema: "http://json-schema.org/draft-04/schema#",
        definitions: { A: { type: "string" } },
      },
      [
        `s/schema.json#/$schema: error MCPG203: unsupported JSON Schema dialect "http://json-schema.org/draft-04/schema#" ${FIX_DIALECT}`,
      ],
    ],
    [
      "2019-09 for one definition, and each one reported",
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $defs: {
          A: { $schema: "https://json-schema.org/draft/2019-09/schema" },
          B: { type: "string" },
          "C/D": { $schema: "urn:custom" },
        },
      },
      [
        `s/schema.json#/$defs/A/$schema: error MCPG203: unsupported JSON Schema dialect "https://json-schema.org/draft/2019-09/schema" ${FIX_DIALECT}`,
        `s/schema.json#/$defs/C~1D/$schema: error MCPG203: unsupported JSON Schema dialect "urn:custom" ${FIX_DIALECT}`,
      ],
    ],
  ])("%s", (_what, document, want) => {
    expect(lines(checkDialects(source(document)))).toEqual(want);
  });
});

describe("rule: every definition name can name a TypeScript type", () => {
  const FIX_NAME =
    "(fix: rename the definition to letters, digits, _ and $ (not starting with a digit), and update the $refs to it)";
  it.each<[string, JsonValue, string[]]>([
    ["identifiers", { $defs: { A: { type: "string" }, $b_2: { type: "string" } } }, []],
    [
      "a slash, a dash and a leading digit, each reported",
      {
        $defs: {
          "A/B": { type: "string" },
          "my-type": { type: "string" },
          "1st": { type: "string" },
        },
      },
      [
        `s/schema.json#/$defs/A~1B: error MCPG210: definition name "A/B" is not a TypeScript identifier, so no type or guard can be named after it ${FIX_NAME}`,
        `s/schema.json#/$defs/my-type: error MCPG210: definition name "my-type" is not a TypeScript identifier, so no type or guard can be named after it ${FIX_NAME}`,
        `s/schema.json#/$defs/1st: error MCPG210: definition name "1st" is not a TypeScript identifier, so no type or guard can be named after it ${FIX_NAME}`,
      ],
    ],
  ])("%s", (_what, document, want) => {
    expect(lines(checkDefinitionNames(source(document)))).toEqual(want);
  });
});
