/**
 * A synthetic future MCP revision, derived at test time from the upstream
 * 2026-07-28 files (never committed): the same schema with one revision's
 * worth of new protocol, of the kinds a real revision adds.
 *
 *   LATEST_PROTOCOL_VERSION  "2026-07-28" → FUTURE_REVISION
 *   method                   + tools/preview (PreviewToolRequest, its params,
 *                              PreviewToolResult and PreviewToolResultResponse,
 *                              copies of tools/call's), a client request that
 *                              may answer with an InputRequiredResult (MRTR)
 *   resultType (schema.ts)   + "deferred", with a doc line of its own
 *   error code               + TOOL_BUSY = -32023 (schema.ts) and ToolBusyError
 *                              (schema.json), shaped like HeaderMismatchError
 *
 * Every change is an edit of the upstream text or JSON that fails loudly
 * when the upstream text is not what it expects.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../generator/load/json.js";
import { SCHEMA_DIR } from "../helpers/index.js";

/** The protocol version the synthetic revision declares. */
export const FUTURE_REVISION = "2027-01-26";
/** Its new request method. */
export const NEW_METHOD = "tools/preview";
/** Its new resultType literal. */
export const NEW_RESULT_TYPE = "deferred";
/** Its new error code. */
export const NEW_ERROR_CODE = -32023;

/** Writes the synthetic revision's schema.json and schema.ts into `dir` (created). */
export function writeFutureRevision(dir: string): void {
  const base = join(SCHEMA_DIR, "2026-07-28");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "schema.json"),
    futureSchemaJson(readFileSync(join(base, "schema.json"), "utf8")),
  );
  writeFileSync(
    join(dir, "schema.ts"),
    futureSchemaTs(readFileSync(join(base, "schema.ts"), "utf8")),
  );
}

function futureSchemaJson(text: string): string {
  const document = JSON.parse(text) as { $defs: Record<string, JsonObject> };
  const defs = document.$defs;
  const copy = (name: string): JsonObject => structuredClone(need(defs, name));
  const request = copy("CallToolRequest");
  const properties = request.properties as Record<string, JsonObject>;
  properties.method = { const: NEW_METHOD, type: "string" };
  properties.params = { $ref: "#/$defs/PreviewToolRequestParams" };
  const response = copy("CallToolResultResponse");
  (response.properties as Record<string, JsonObject>).result = {
    anyOf: [{ $ref: "#/$defs/InputRequiredResult" }, { $ref: "#/$defs/PreviewToolResult" }],
  };
  const error = copy("HeaderMismatchError");
  const errorMember = (error.properties as Record<string, { allOf: JsonObject[] }>).error!;
  const pinned = errorMember.allOf[1]!.properties as Record<string, JsonObject>;
  if (pinned.code?.const !== -32020) throw new Error("HeaderMismatchError no longer pins -32020");
  pinned.code = { const: NEW_ERROR_CODE, type: "integer" };
  error.description = "Returned when a tool is busy with an earlier call.";
  Object.assign(defs, {
    PreviewToolRequest: request,
    PreviewToolRequestParams: copy("CallToolRequestParams"),
    PreviewToolResult: copy("CallToolResult"),
    PreviewToolResultResponse: response,
    ToolBusyError: error,
  });
  (need(defs, "ClientRequest").anyOf as JsonObject[]).push({ $ref: "#/$defs/PreviewToolRequest" });
  return `${JSON.stringify(document, null, 4)}\n`;
}

function futureSchemaTs(text: string): string {
  const edited = [
    [
      'export const LATEST_PROTOCOL_VERSION = "2026-07-28";',
      `export const LATEST_PROTOCOL_VERSION = "${FUTURE_REVISION}";`,
    ],
    [
      'export type ResultType = "complete" | "input_required" | string;',
      `export type ResultType = "complete" | "input_required" | "${NEW_RESULT_TYPE}" | string;`,
    ],
    [
      " * @category Common Types\n */\nexport type ResultType",
      ` * ${NEW_RESULT_TYPE} - the server accepted the request and will send its result later.\n * @category Common Types\n */\nexport type ResultType`,
    ],
    [
      "  | CallToolRequest\n  | ListToolsRequest;",
      "  | CallToolRequest\n  | PreviewToolRequest\n  | ListToolsRequest;",
    ],
  ].reduce((source, [from, to]) => {
    if (!source.includes(from!))
      throw new Error(`schema.ts no longer holds ${JSON.stringify(from)}`);
    return source.replace(from!, to!);
  }, text);
  return `${edited}
/** Returned when a tool is busy with an earlier call. */
export const TOOL_BUSY = ${NEW_ERROR_CODE};

/** Parameters for a \`${NEW_METHOD}\` request. */
export interface PreviewToolRequestParams extends CallToolRequestParams {}

/** Used by the client to preview a tool call. */
export interface PreviewToolRequest extends JSONRPCRequest {
  method: "${NEW_METHOD}";
  params: PreviewToolRequestParams;
}

/** The result of a \`${NEW_METHOD}\` request. */
export interface PreviewToolResult extends CallToolResult {}

/** A successful response to a \`${NEW_METHOD}\` request. */
export interface PreviewToolResultResponse extends JSONRPCResultResponse {
  result: PreviewToolResult | InputRequiredResult;
}

/** Returned when a tool is busy with an earlier call. */
export interface ToolBusyError extends Omit<JSONRPCErrorResponse, "error"> {
  error: Error & {
    code: typeof TOOL_BUSY;
  };
}
`;
}

function need(defs: Record<string, JsonObject>, name: string): JsonObject {
  const found = defs[name];
  if (!found) throw new Error(`2026-07-28's schema.json no longer defines ${name}`);
  return found;
}
