/**
 * A server request defined twice, as drafts of early 2026 did: once as a
 * JSON-RPC request (a ServerRequest member) and once as the same method and
 * params without `jsonrpc` and `id` (an InputRequest member), for the server
 * to carry inside a result. Both are one method; two definitions whose
 * params differ are still refused. The schema is a small one written here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/index.js";
import { writeOutput } from "../../generator/write/write-output.js";
import { tempDir, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
});
const envelope = { jsonrpc: { const: "2.0", type: "string" }, id: ref("RequestId") };

/** schema.json: confirm/ask as a JSON-RPC request and as an input request, whose params are `innerParams`. */
function schemaJson(innerParams: string): unknown {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: {
      RequestId: { type: ["string", "integer"] },
      JSONRPCResultResponse: object({ ...envelope, result: ref("Result") }, [
        "jsonrpc",
        "id",
        "result",
      ]),
      JSONRPCErrorResponse: object(
        { ...envelope, error: object({ code: { type: "integer" } }, ["code"]) },
        ["jsonrpc", "error"],
      ),
      Result: { type: "object", additionalProperties: {} },
      ConfirmRequestParams: object({ prompt: { type: "string" } }, ["prompt"]),
      OtherParams: object({ topic: { type: "string" } }, ["topic"]),
      ConfirmRequest: object(
        {
          ...envelope,
          method: { const: "confirm/ask", type: "string" },
          params: ref("ConfirmRequestParams"),
        },
        ["jsonrpc", "id", "method", "params"],
      ),
      ConfirmInputRequest: object(
        { method: { const: "confirm/ask", type: "string" }, params: ref(innerParams) },
        ["method", "params"],
      ),
      ConfirmResult: object({ yes: { type: "boolean" } }, ["yes"]),
      ServerRequest: ref("ConfirmRequest"),
      InputRequest: ref("ConfirmInputRequest"),
    },
  };
}

function schemaTs(innerParams: string): string {
  return `export const LATEST_PROTOCOL_VERSION = "2099-02-02";
export const JSONRPC_VERSION = "2.0";
export type RequestId = string | number;
export interface Result { [key: string]: unknown }
export interface ConfirmRequestParams { prompt: string }
export interface OtherParams { topic: string }
export interface ConfirmRequest { jsonrpc: "2.0"; id: RequestId; method: "confirm/ask"; params: ConfirmRequestParams }
export interface ConfirmInputRequest { method: "confirm/ask"; params: ${innerParams} }
export interface ConfirmResult { yes: boolean }
export type ServerRequest = ConfirmRequest;
export type InputRequest = ConfirmInputRequest;
`;
}

function writeSpec(label: string, innerParams: string): string {
  const dir = join(tempDir(label), "spec");
  mkdirSync(dir);
  writeFileSync(join(dir, "schema.json"), JSON.stringify(schemaJson(innerParams), null, 2));
  writeFileSync(join(dir, "schema.ts"), schemaTs(innerParams));
  return dir;
}

describe("a request defined both on the wire and as an input request", () => {
  it("is one method, the wire definition's, with a note, and the output compiles under --strict", async () => {
    const spec = writeSpec("input-twin", "ConfirmRequestParams");
    const result = await generate({
      spec,
      out: "out",
      sources: testSources(),
      stampVersion: false,
    });
    const confirm = result.model.requests.filter((r) => r.method === "confirm/ask");
    expect(confirm.map((r) => [r.definition, r.direction])).toEqual([
      ["ConfirmRequest", "server-to-client"],
    ]);
    expect(result.model.declarations.map((d) => d.name)).toContain("ConfirmInputRequest");
    expect(result.diagnostics.map(formatDiagnostic)).toContain(
      "spec/schema.json: note MCPG306: 2099-02-02: inferred from the schema's shapes: ConfirmInputRequest is \"confirm/ask\" as carried inside a result (no jsonrpc, no id; the same params as ConfirmRequest); the method's definition is ConfirmRequest (fix: check the inference against the revision's specification; a wrong one can be corrected with a patch in schema/patches/)",
    );
    const out = join(tempDir("input-twin-out"), "mcp");
    writeOutput(out, result.files);
    writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
    expect(
      strictErrors([join(out, "index.ts")], { noEmit: false, outDir: undefined }, "/"),
    ).toEqual([]);
  });

  it("is refused (MCPG401) when the two definitions' params differ", async () => {
    const spec = writeSpec("input-twin-other", "OtherParams");
    const failed = await generate({ spec, out: "out", sources: testSources() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(McpGenError);
    expect((failed as McpGenError).diagnostics.map(formatDiagnostic)).toEqual([
      'spec/schema.json#/$defs/ConfirmRequest: error MCPG401: method "confirm/ask" is defined more than once (ConfirmRequest, ConfirmInputRequest) (fix: each request and notification method must have exactly one definition)',
    ]);
  });
});
