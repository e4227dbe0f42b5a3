/**
 * emitMessages: `parseMessage` and `parseResponse`, wired to the compiled
 * validators through tables keyed by method (and, for results, by
 * resultType), so each message is checked against exactly one definition.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { jsDoc, literal, propertyKey, validatorName } from "./names.js";
import { COMPILED_VALIDATORS_FILE, MESSAGES_FILE, METHODS_FILE, RESULT_TYPES_FILE, SUPPORT_MODULE, TYPES_FILE, moduleSpecifier } from "./paths.js";


/** Emits `messages.gen.ts`. */
export function emitMessages(model: McpModel, bannerText: string): EmittedFile {
  const wire = model.requests.filter((r) => r.direction !== "input-request");
  const file = new TsFileBuilder(MESSAGES_FILE)
    .importNamespace(moduleSpecifier(COMPILED_VALIDATORS_FILE), "compiled", false)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(moduleSpecifier(METHODS_FILE), "METHOD_AVAILABILITY")
    .importTypes(moduleSpecifier(METHODS_FILE), "RequestMethod")
    .importTypes(moduleSpecifier(RESULT_TYPES_FILE), "ResultByMethod")
    .importValues(SUPPORT_MODULE, "parseMessageWith", "parseResponseWith")
    .importTypes(SUPPORT_MODULE, "MessageTables", "ParseResult");
  const requestEntries = wire.map((r) => `    [${literal(r.method)}, compiled.${validatorName(r.definition)}],`);
  const notificationEntries = model.notifications.map((n) => `    [${literal(n.method)}, compiled.${validatorName(n.definition)}],`);
  const resultEntries = wire.map(
    (r) => `    ${propertyKey(r.method)}: { ${r.results.map((b) => `${propertyKey(b.resultType ?? "complete")}: compiled.${validatorName(b.definition)}`).join(", ")} },`,
  );
  const { errorResponse, resultResponse } = model.envelopes;
  if (!errorResponse || !resultResponse) {
    const missing = !errorResponse ? "JSON-RPC error response" : "JSON-RPC result response";
    throw new McpGenError([diagnostic("MCPG404", { missing }, { file: model.sources[0]?.name ?? "schema.json" })]);
  }
  file.add(`const TABLES: MessageTables = {
  revision: ${literal(model.revision)},
  requests: new Map([
${requestEntries.join("\n")}
  ]),
  notifications: new Map([
${notificationEntries.join("\n")}
  ]),
  results: {
${resultEntries.join("\n")}
  },
  errorResponse: compiled.${validatorName(errorResponse)},
  availability: METHOD_AVAILABILITY,
};`);
  const requestUnion = wire.map((r) => `T.${r.definition}`).join(" | ") || "never";
  const notificationUnion = model.notifications.map((n) => `T.${n.definition}`).join(" | ") || "never";
  file.add(`${jsDoc("A message `parseMessage` accepts: a request or notification of this revision, or a response envelope.")}export type McpMessage = ${requestUnion} | ${notificationUnion} | T.${resultResponse} | T.${errorResponse};`);
  file.add(
    `${jsDoc(
      "Parses (if given text) and validates one incoming JSON-RPC message, choosing its definition from `method`. Failures are JSON-RPC errors ready to send: -32700 unparsable, -32600 not a JSON-RPC message, -32601 unknown method, -32602 invalid params (with the failing paths). Responses are checked as envelopes; use `parseResponse` for their results.",
    )}export function parseMessage(input: unknown): ParseResult<McpMessage> {\n  return parseMessageWith(TABLES, input) as ParseResult<McpMessage>;\n}`,
  );
  file.add(
    `${jsDoc("A response to a request of method `M`: its result (discriminated on resultType) or an error.")}export type ResponseOf<M extends RequestMethod & keyof ResultByMethod> =\n  | { jsonrpc: "2.0"; id: T.RequestId; result: ResultByMethod[M] }\n  | T.${errorResponse};`,
  );
  file.add(
    `${jsDoc(
      "Parses and validates a response to a request of `method`. The result is checked against the definition its resultType selects; a missing resultType (older servers) is read as \"complete\" and filled in; an unrecognized one is -32602.",
    )}export function parseResponse<M extends RequestMethod & keyof ResultByMethod>(input: unknown, method: M): ParseResult<ResponseOf<M>> {\n  return parseResponseWith(TABLES, input, method) as ParseResult<ResponseOf<M>>;\n}`,
  );
  return file.build(bannerText);
}
