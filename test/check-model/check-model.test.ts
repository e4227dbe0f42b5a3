/**
 * The model check runs on every generation and stops it with a diagnostic
 * rather than let emitters write code that does not compile.
 */
import { describe, expect, it } from "vitest";
import {
  checkEnvelopes,
  checkMethodDefinitions,
  checkModel,
  checkRefsResolve,
  checkUniqueMethods,
  FIXED_EXPORTS,
} from "../../generator/check-model/check-model.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { generate } from "../../generator/index.js";
import { builderName, guardName, resultUnionName } from "../../generator/emit/names.js";
import {
  ERROR_CODES_FILE,
  RESULT_TYPES_FILE,
  VALIDATE_API_FILE,
} from "../../generator/model/output-names.js";
import type { McpModel } from "../../generator/model/types.js";
import { fixture, runCli } from "../helpers/run-cli.js";
import { generated, REVISIONS, testSources } from "../helpers/index.js";

const lines = (model: McpModel, check: (m: McpModel) => ReturnType<typeof checkModel>) =>
  check(model).map(formatDiagnostic);

describe("checkModel", () => {
  it("passes every known revision and extension", async () => {
    for (const spec of REVISIONS)
      expect(checkModel((await generated(spec)).model), spec).toEqual([]);
  });

  it("stops generation, exit 2, when results cannot be told apart or a name is declared twice", async () => {
    const run = await runCli(["generate", "--spec", fixture("bad-model"), "--out", "x", "--quiet"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      'bad-model/schema.json#/$defs/FetchTreeRequest: error MCPG405: the results of "trees/fetch" cannot be told apart: FetchTreeResult, StaleTreeResult carry the same resultType "complete" (fix: give each result of the method its own resultType (a const in schema.json, or a ResultType literal in schema.ts whose doc links the result with {@link}), or add a patch to schema/patches/)',
      "bad-model/schema.json#/$defs/ResultByMethod: error MCPG406: index.ts (re-exporting every module) would declare ResultByMethod more than once (for definition ResultByMethod and mcp-gen's ResultByMethod) (fix: rename one of the definitions (or methods, error constants) the names come from, or leave out the extension that adds one of them)",
    ]);
  });

  it("every $ref of the model names a definition of the model", async () => {
    const { model } = await generated("2024-11-05");
    const broken: McpModel = {
      ...model,
      declarations: model.declarations.map((d) =>
        d.name === "Root" ? { ...d, validatorSchema: { $ref: "#/$defs/Gone" } } : d,
      ),
    };
    expect(lines(broken, checkRefsResolve)).toEqual([
      "2024-11-05/schema.json#/definitions/Root: error MCPG407: Root refers to #/$defs/Gone, which no definition of the model is (fix: add the definition, or fix the $ref (an extension or a patch may have introduced it))",
    ]);
  });

  it("every method has its request, params and result definitions", async () => {
    const { model } = await generated("2024-11-05");
    const ping = model.requests.find((r) => r.method === "ping")!;
    const broken: McpModel = {
      ...model,
      requests: model.requests.map((r) =>
        r === ping
          ? { ...r, paramsDefinition: "PingParams", results: [{ definition: "PongResult" }] }
          : r,
      ),
    };
    expect(lines(broken, checkMethodDefinitions)).toEqual([
      '2024-11-05/schema.json#/definitions/PingRequest: error MCPG408: "ping" needs its params definition PingParams, which the schema does not define (fix: add the definition to the schema, or point the method at one that exists)',
      '2024-11-05/schema.json#/definitions/PingRequest: error MCPG408: "ping" needs its result definition PongResult, which the schema does not define (fix: add the definition to the schema, or point the method at one that exists)',
    ]);
  });

  it("each method has one definition", async () => {
    const { model } = await generated("2024-11-05");
    const ping = model.requests.find((r) => r.method === "ping")!;
    const twice: McpModel = {
      ...model,
      requests: [...model.requests, { ...ping, definition: "OtherPingRequest" }],
    };
    expect(lines(twice, checkUniqueMethods)).toEqual([
      '2024-11-05/schema.json#/definitions/PingRequest: error MCPG401: method "ping" is defined more than once (PingRequest, OtherPingRequest) (fix: each request and notification method must have exactly one definition)',
    ]);
  });

  it("the JSON-RPC response envelopes are defined", async () => {
    const { model } = await generated("2024-11-05");
    expect(lines({ ...model, envelopes: {} }, checkEnvelopes)).toEqual([
      "2024-11-05/schema.json: error MCPG404: the schema defines no JSON-RPC error response envelope, so messages cannot be parsed (fix: define JSONRPCResultResponse and JSONRPCErrorResponse (or JSONRPCResponse and JSONRPCError))",
      "2024-11-05/schema.json: error MCPG404: the schema defines no JSON-RPC result response envelope, so messages cannot be parsed (fix: define JSONRPCResultResponse and JSONRPCErrorResponse (or JSONRPCResponse and JSONRPCError))",
    ]);
  });
});

describe("the names the check knows are the names the modules declare", () => {
  const declared = (text: string) =>
    [
      ...text.matchAll(/^export (?:const|type|interface|function) (\w+)/gm),
      ...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm),
    ]
      .flatMap((m) => m[1]!.split(","))
      .map((n) => n.trim())
      .filter((n) => n !== "");

  it("for every module index.ts re-exports (2026-07-28 with tasks)", async () => {
    const { model, files } = await generate2026WithTasks();
    const wire = model.requests.filter((r) => r.direction !== "input-request");
    const dynamic: Record<string, string[]> = {
      [VALIDATE_API_FILE]: model.declarations.map((d) => guardName(d.name)),
      [RESULT_TYPES_FILE]: [
        ...wire.map(resultUnionName),
        ...(model.mrtrResultType === undefined ? [] : ["MRTR_RESULT_TYPE"]),
      ],
      [ERROR_CODES_FILE]: model.errorCodes
        .filter((c) => c.definition && c.policy !== "legacy")
        .map(builderName),
    };
    for (const [module, fixed] of Object.entries(FIXED_EXPORTS)) {
      const text = files.find((f) => f.path === module)!.contents;
      expect(new Set(declared(text)), module).toEqual(
        new Set([...fixed, ...(dynamic[module] ?? [])]),
      );
    }
  });
});

function generate2026WithTasks() {
  return generate({
    spec: "2026-07-28",
    extensions: ["tasks"],
    out: "out",
    sources: testSources(),
    stampVersion: false,
  });
}
