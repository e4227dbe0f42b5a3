/**
 * The extension check rules, rule by rule: given a manifest (and the run it
 * is part of), want exactly these diagnostic lines (none for legitimate
 * extensions). Collisions with the core revision and with other extensions
 * are found while merging; test/cli/extensions.test.ts covers them.
 */
import { describe, expect, it } from "vitest";
import {
  checkErrorCodeRange,
  checkExtensions,
  checkGivenOnce,
  checkIdentifier,
  checkNamedDefinitions,
  checkNegotiation,
  checkReturnsServed,
  checkTargets,
} from "../../generator/check/check-extensions.js";
import { formatDiagnostic, type Diagnostic } from "../../generator/diagnostics.js";
import type { JsonValue } from "../../generator/load/json.js";
import { parseSchemaJson } from "../../generator/load/load-sources.js";
import type { ExtensionManifest, ExtensionSource, SourceSet } from "../../generator/load/types.js";

const FIX_ID =
  "(fix: use reverse-DNS labels that start with a letter and end with a letter or digit, a slash, then a name)";
const FIX_RESERVED =
  '(fix: use a prefix of your own (com.example/...), or set "mcp": true if the MCP project publishes it)';
const FIX_TARGET =
  "(fix: generate one of the revisions the extension targets, or drop the extension)";
const FIX_RANGE =
  "(fix: pick a code outside -32768..-32000, or in -32000..-32019 (implementation-defined))";
const FIX_NAMED = "(fix: name a definition of the extension's schema.json)";
const FIX_TWICE =
  "(fix: pass each extension once; two different extensions need identifiers of their own)";
const FIX_REF = "(fix: point the $ref at an existing definition, or add the definition)";

const MANIFEST = "x/mcp-extension.json";

/** An extension with a manifest of `fields` over a minimal valid one, and a schema of `defs`. */
function extension(
  fields: Partial<ExtensionManifest> = {},
  defs: Record<string, JsonValue> = { Thing: { type: "string" } },
  manifestFile = MANIFEST,
): ExtensionSource {
  return {
    manifest: {
      id: "com.example/x",
      name: "x",
      revisions: ["2026-07-28"],
      schema: "schema.json",
      ...fields,
    },
    manifestFile,
    schema: parseSchemaJson({
      name: "extensions/x/schema.json",
      path: "/x/schema.json",
      sha256: "",
      text: JSON.stringify({ $defs: defs }),
    }),
  };
}

/** The parts of a run the rules read: the revision, whether it is known, and a custom spec's declared version. */
function run(
  revision: string,
  known: boolean,
  declared?: string,
  extensions: ExtensionSource[] = [],
): SourceSet {
  const schemaTs =
    declared === undefined
      ? {}
      : { schemaTs: { constants: { LATEST_PROTOCOL_VERSION: { value: declared, line: 1 } } } };
  return { revision, known, extensions, ...schemaTs } as unknown as SourceSet;
}

const lines = (diagnostics: readonly Diagnostic[]) => diagnostics.map(formatDiagnostic);

const badId = (id: string) =>
  `${MANIFEST}#/id: error MCPG605: extension identifier "${id}" breaks the _meta key rules: it needs a prefix of dot-separated labels and a name (e.g. com.example/my-extension) ${FIX_ID}`;
const reserved = (id: string) =>
  `${MANIFEST}#/id: warning MCPG606: extension "${id}" uses a prefix reserved for MCP (second label modelcontextprotocol or mcp) but does not claim to be an MCP extension ${FIX_RESERVED}`;

describe("rule: the identifier follows the _meta key rules with a prefix; a reserved prefix needs mcp: true", () => {
  it.each<[string, Partial<ExtensionManifest>, string[]]>([
    [
      "io.modelcontextprotocol/tasks, an MCP extension",
      { id: "io.modelcontextprotocol/tasks", mcp: true },
      [],
    ],
    ["com.example/x", { id: "com.example/x" }, []],
    [
      "hyphens inside labels and dots, underscores inside the name",
      { id: "com.ex-ample.a1/my_ext.v2-beta" },
      [],
    ],
    ["one label", { id: "example/x" }, []],
    [
      "com.example.mcp/x is not reserved: its second label is example",
      { id: "com.example.mcp/x" },
      [],
    ],
    ["mcp/x is not reserved: it has no second label", { id: "mcp/x" }, []],
    [
      "io.modelcontextprotocol/x without mcp: true",
      { id: "io.modelcontextprotocol/x" },
      [reserved("io.modelcontextprotocol/x")],
    ],
    [
      "io.modelcontextprotocol/x with mcp: false",
      { id: "io.modelcontextprotocol/x", mcp: false },
      [reserved("io.modelcontextprotocol/x")],
    ],
    ["dev.mcp/x", { id: "dev.mcp/x" }, [reserved("dev.mcp/x")]],
    [
      "org.modelcontextprotocol.api/x",
      { id: "org.modelcontextprotocol.api/x" },
      [reserved("org.modelcontextprotocol.api/x")],
    ],
    ["com.mcp.tools/x", { id: "com.mcp.tools/x" }, [reserved("com.mcp.tools/x")]],
    ["tasks: no prefix", { id: "tasks" }, [badId("tasks")]],
    ["/x: an empty prefix", { id: "/x" }, [badId("/x")]],
    [
      "1com.example/x: a label starting with a digit",
      { id: "1com.example/x" },
      [badId("1com.example/x")],
    ],
    [
      "com.example-/x: a label ending with a hyphen",
      { id: "com.example-/x" },
      [badId("com.example-/x")],
    ],
    ["com..example/x: an empty label", { id: "com..example/x" }, [badId("com..example/x")]],
    [
      "com.ex_ample/x: an underscore in a label",
      { id: "com.ex_ample/x" },
      [badId("com.ex_ample/x")],
    ],
    ["com.example/: an empty name", { id: "com.example/" }, [badId("com.example/")]],
    [
      "com.example/-x: a name starting with a hyphen",
      { id: "com.example/-x" },
      [badId("com.example/-x")],
    ],
    [
      "com.example/x.: a name ending with a dot",
      { id: "com.example/x." },
      [badId("com.example/x.")],
    ],
    ["com.example/x/y: a slash in the name", { id: "com.example/x/y" }, [badId("com.example/x/y")]],
    [
      "a malformed reserved identifier is an error, not a warning",
      { id: "dev.mcp/" },
      [badId("dev.mcp/")],
    ],
  ])("%s", (_what, fields, want) => {
    expect(lines(checkIdentifier(extension(fields)))).toEqual(want);
  });
});

describe("rule: the extension targets the revision being generated", () => {
  const notTargeted = (revision: string, targets: string) =>
    `${MANIFEST}#/revisions: error MCPG607: extension com.example/x does not target revision ${revision} (it targets ${targets}) ${FIX_TARGET}`;
  it.each<[string, SourceSet, readonly string[], string[]]>([
    ["a known revision it targets", run("2026-07-28", true), ["2026-07-28"], []],
    [
      "a known revision among several it targets",
      run("2025-11-25", true),
      ["2025-11-25", "2026-07-28"],
      [],
    ],
    [
      "a known revision it does not target",
      run("2025-11-25", true),
      ["2026-07-28"],
      [notTargeted("2025-11-25", "2026-07-28")],
    ],
    [
      "a custom spec whose schema.ts declares a targeted version",
      run("my-spec", false, "2026-07-28"),
      ["2026-07-28"],
      [],
    ],
    [
      "a custom spec whose schema.ts declares another version",
      run("my-spec", false, "2025-06-18"),
      ["2026-07-28"],
      [notTargeted("2025-06-18", "2026-07-28")],
    ],
    [
      "a custom spec without schema.ts: the version cannot be known",
      run("my-spec", false),
      ["2026-07-28"],
      [],
    ],
    [
      "the folder name of a custom spec is not a version",
      run("2025-06-18", false),
      ["2026-07-28"],
      [],
    ],
  ])("%s", (_what, sources, revisions, want) => {
    expect(lines(checkTargets(extension({ revisions }), sources))).toEqual(want);
  });
});

describe("rule: no extension error code in -32020..-32099", () => {
  const reservedCode = (i: number, code: number) =>
    `${MANIFEST}#/errorCodes/${i}/code: error MCPG610: error code ${code} is in -32020..-32099, which is reserved for the MCP specification ${FIX_RANGE}`;
  it.each<[string, number[], string[]]>([
    ["no error codes", [], []],
    ["-32019, the last implementation-defined code", [-32019], []],
    ["-32000, the first implementation-defined code", [-32000], []],
    ["-32100, just outside the reserved range", [-32100], []],
    ["application codes outside JSON-RPC's range", [-31001, 1, 42], []],
    ["-32020, the first reserved code", [-32020], [reservedCode(0, -32020)]],
    ["-32099, the last reserved code", [-32099], [reservedCode(0, -32099)]],
    [
      "each reserved code, at its own index",
      [-31001, -32042, -32019, -32060],
      [reservedCode(1, -32042), reservedCode(3, -32060)],
    ],
  ])("%s", (_what, codes, want) => {
    const errorCodes = codes.map((code, i) => ({ constant: `CODE_${i}`, code }));
    expect(lines(checkErrorCodeRange(extension({ errorCodes })))).toEqual(want);
  });
});

describe("rule: every definition the manifest names is one of the extension's", () => {
  const missing = (pointer: string, field: string, name: string) =>
    `${MANIFEST}${pointer}: error MCPG613: the manifest's ${field} names ${name}, which the extension's schema does not define ${FIX_NAMED}`;
  const defs = {
    Settings: { type: "object" },
    Handle: { type: "object" },
    Extra: { type: "object" },
    Failure: { type: "object" },
  };
  it.each<[string, Partial<ExtensionManifest>, string[]]>([
    [
      "every field naming a definition that exists",
      {
        capability: { definition: "Settings" },
        returns: { "tools/call": ["Handle"] },
        augments: { Tool: ["Extra"] },
        requests: { "x/get": { result: "Handle" } },
        errorCodes: [{ constant: "X_FAILED", code: -31000, definition: "Failure" }],
      },
      [],
    ],
    [
      "a request without a result names nothing",
      { requests: { "x/get": { direction: "both" } } },
      [],
    ],
    [
      "capability.definition",
      { capability: { definition: "Nope" } },
      [missing("#/capability/definition", "capability.definition", "Nope")],
    ],
    [
      "returns, each missing one at its index (the method's / escaped as ~1)",
      { returns: { "tools/call": ["Handle", "Nope"], "a~b": ["Gone"] } },
      [
        missing("#/returns/tools~1call/1", 'returns["tools/call"]', "Nope"),
        missing("#/returns/a~0b/0", 'returns["a~b"]', "Gone"),
      ],
    ],
    [
      "augments",
      { augments: { Tool: ["Extra", "Nope"] } },
      [missing("#/augments/Tool/1", "augments.Tool", "Nope")],
    ],
    [
      "requests[...].result",
      { requests: { "x/get": { result: "Nope" } } },
      [missing("#/requests/x~1get/result", 'requests["x/get"].result', "Nope")],
    ],
    [
      "errorCodes[...].definition",
      {
        errorCodes: [
          { constant: "A", code: -31000 },
          { constant: "B", code: -31001, definition: "Nope" },
        ],
      },
      [missing("#/errorCodes/1/definition", "errorCodes[1].definition", "Nope")],
    ],
    [
      "a core definition is not the extension's",
      { capability: { definition: "ClientCapabilities" } },
      [missing("#/capability/definition", "capability.definition", "ClientCapabilities")],
    ],
  ])("%s", (_what, fields, want) => {
    expect(lines(checkNamedDefinitions(extension(fields, defs)))).toEqual(want);
  });
});

describe("rule (a warning): returns only for the core requests the runtime sends extension results for", () => {
  const warning = (method: string, pointer: string) =>
    `${MANIFEST}#/returns/${pointer}: warning MCPG618: com.example/x returns its results for ${method}: the generated types allow them, but mcp-gen's runtime sends an extension's result only for tools/call, prompts/get, resources/read, so a scaffolded server cannot answer ${method} with one (fix: return the result from tools/call, prompts/get, resources/read or from a method of the extension, or answer ${method} with code of your own)`;
  it("tools/call, prompts/get and resources/read: nothing to say", () => {
    const fields = {
      returns: { "tools/call": ["Thing"], "prompts/get": ["Thing"], "resources/read": ["Thing"] },
    };
    expect(lines(checkReturnsServed(extension(fields)))).toEqual([]);
  });
  it("completion/complete and tools/list: one warning each, at its field", () => {
    const fields = { returns: { "completion/complete": ["Thing"], "tools/list": ["Thing"] } };
    expect(lines(checkReturnsServed(extension(fields)))).toEqual([
      warning("completion/complete", "completion~1complete"),
      warning("tools/list", "tools~1list"),
    ]);
  });
});

describe("rule: each extension is given once", () => {
  const twice = (file: string, id: string, first: string) =>
    `${file}#/id: error MCPG617: extension ${id} is given more than once (first by ${first}) ${FIX_TWICE}`;
  it.each<[string, ExtensionSource[], string[]]>([
    ["none", [], []],
    [
      "different identifiers",
      [
        extension({ id: "com.example/a" }, undefined, "a.json"),
        extension({ id: "com.example/b" }, undefined, "b.json"),
      ],
      [],
    ],
    [
      "the same identifier from two manifests",
      [
        extension({ id: "com.example/a" }, undefined, "a.json"),
        extension({ id: "com.example/a" }, undefined, "copy.json"),
      ],
      [twice("copy.json", "com.example/a", "a.json")],
    ],
    [
      "three times: each repeat names the first",
      [
        extension({}, undefined, "1.json"),
        extension({ id: "com.example/y" }, undefined, "y.json"),
        extension({}, undefined, "2.json"),
        extension({}, undefined, "3.json"),
      ],
      [twice("2.json", "com.example/x", "1.json"), twice("3.json", "com.example/x", "1.json")],
    ],
  ])("%s", (_what, extensions, want) => {
    expect(lines(checkGivenOnce(extensions))).toEqual(want);
  });
});

describe("checkExtensions: every rule, for every extension of the run", () => {
  it("a legitimate extension has nothing to report", () => {
    expect(lines(checkExtensions(run("2026-07-28", true, undefined, [extension()])))).toEqual([]);
  });

  it("the extension's schema passes the revision's rules, and every problem is reported, extension by extension", () => {
    const broken = extension(
      { id: "tasks", revisions: ["2025-11-25"], errorCodes: [{ constant: "X", code: -32020 }] },
      { B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } } },
    );
    const second = extension(
      { id: "dev.mcp/y", capability: { definition: "Nope" } },
      undefined,
      "y/mcp-extension.json",
    );
    expect(lines(checkExtensions(run("2026-07-28", true, undefined, [broken, second])))).toEqual([
      `extensions/x/schema.json#/$defs/B/properties/a/$ref: error MCPG202: $ref "#/$defs/A" points to nothing in this schema ${FIX_REF}`,
      badId("tasks"),
      `${MANIFEST}#/revisions: error MCPG607: extension tasks does not target revision 2026-07-28 (it targets 2025-11-25) ${FIX_TARGET}`,
      `${MANIFEST}#/errorCodes/0/code: error MCPG610: error code -32020 is in -32020..-32099, which is reserved for the MCP specification ${FIX_RANGE}`,
      reserved("dev.mcp/y").replace(MANIFEST, "y/mcp-extension.json"),
      `y/mcp-extension.json#/capability/definition: error MCPG613: the manifest's capability.definition names Nope, which the extension's schema does not define ${FIX_NAMED}`,
    ]);
  });
});

describe("rule: the negotiation rule names the extension's own messages on the MCP connection", () => {
  const FIX =
    '(fix: key the rule by a request or notification the manifest lists (not one on another channel), or by "@result" for the resultTypes the extension adds)';
  const lines = (ext: ExtensionSource) => checkNegotiation(ext).map(formatDiagnostic);

  it("accepts its requests, its notifications and @result for an extension with resultTypes", () => {
    expect(
      lines(
        extension({
          requests: { "x/get": {} },
          notifications: { "notifications/x": {} },
          resultTypes: { later: "later" },
          negotiation: {
            "x/get": [{ declares: "server", setting: "get", equals: true }],
            "notifications/x": [],
            "@result": [{ declares: "client" }],
          },
        }),
      ),
    ).toEqual([]);
  });

  it("refuses another method, a message on another channel, and @result without resultTypes, each at its pointer", () => {
    expect(
      lines(
        extension({
          requests: { "x/get": {}, "ui/open": { channel: "postMessage" } },
          channels: { postMessage: { description: "not MCP" } },
          negotiation: {
            "tools/call": [{ declares: "client" }],
            "ui/open": [{ declares: "client" }],
            "@result": [{ declares: "client" }],
          },
        }),
      ),
    ).toEqual(
      ["tools~1call", "ui~1open", "@result"].map(
        (pointer) =>
          `${MANIFEST}#/negotiation/${pointer}: error MCPG624: the manifest's negotiation names ${pointer.replace("~1", "/")}, which is no message of the extension on the MCP connection (its messages: x/get) ${FIX}`,
      ),
    );
  });
});
