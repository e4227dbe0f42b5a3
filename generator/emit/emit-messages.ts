/**
 * emitMessages: `parseMessage` and `parseResponse`, wired to the compiled
 * validators through tables keyed by method (and, for results, by
 * resultType), so each message is checked against exactly one definition.
 */
import type { McpModel, RequestNode } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import type { Doc } from "./doc.js";
import { messageDefinitions } from "./emit-validators.js";
import { branchKey, jsDoc, propertyKey, validatorName } from "./names.js";
import {
  COMPILED_VALIDATORS_FILE,
  MESSAGES_FILE,
  METHODS_FILE,
  PROBLEM_VALIDATORS_FILE,
  RESULT_TYPES_FILE,
  SUPPORT_MODULE,
  TYPES_FILE,
  moduleSpecifier,
} from "../model/output-names.js";
import {
  arrayLiteral,
  objectLiteral,
  printCode,
  printDeclaration,
  stringLiteral as literal,
  valueDoc,
} from "./ts-print.js";

/**
 * The `markers` entry of the tables, only for revisions whose results are
 * told apart by shape: per method, each such branch's key and the
 * properties whose presence selects it.
 */
function markerTable(wire: readonly RequestNode[]): [string, Doc][] {
  const entries = wire.flatMap((r) => {
    const marked = r.results.filter((b) => b.markers);
    if (marked.length === 0) return [];
    const branches = marked.map((b) =>
      arrayLiteral([literal(branchKey(b)), arrayLiteral(b.markers!.map(literal))]),
    );
    return [[propertyKey(r.method), arrayLiteral(branches)] as const];
  });
  return entries.length === 0 ? [] : [["markers", objectLiteral(entries, true)]];
}

/** Emits `messages.gen.ts`. */
export function emitMessages(model: McpModel, bannerText: string): EmittedFile {
  const wire = model.requests.filter((r) => r.direction !== "input-request");
  const file = new TsFileBuilder(MESSAGES_FILE)
    .importNamespace(moduleSpecifier(COMPILED_VALIDATORS_FILE), "compiled", false)
    .importNamespace(moduleSpecifier(PROBLEM_VALIDATORS_FILE), "problems", false)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(moduleSpecifier(METHODS_FILE), "METHOD_AVAILABILITY")
    .importTypes(moduleSpecifier(METHODS_FILE), "RequestMethod")
    .importTypes(moduleSpecifier(RESULT_TYPES_FILE), "ResultByMethod")
    .importValues(SUPPORT_MODULE, "parseMessageWith", "parseResponseWith")
    .importTypes(SUPPORT_MODULE, "MessageTables", "ParseResult");
  const requestEntries = wire.map((r) => [r.method, r.definition] as const);
  const notificationEntries = model.notifications.map((n) => [n.method, n.definition] as const);
  const resultEntries = wire.map(
    (r) =>
      [
        propertyKey(r.method),
        valueDoc({
          object: r.results.map(
            (b) => [propertyKey(branchKey(b)), `compiled.${validatorName(b.definition)}`] as const,
          ),
        }),
      ] as const,
  );
  // The model check (checkEnvelopes) has made sure both are defined.
  const errorResponse = model.envelopes.errorResponse!;
  const resultResponse = model.envelopes.resultResponse!;
  const tables = objectLiteral(
    [
      ["revision", literal(model.revision)],
      ["requests", mapOf(requestEntries)],
      ["notifications", mapOf(notificationEntries)],
      ["results", objectLiteral(resultEntries, true)],
      ["errorResponse", `compiled.${validatorName(errorResponse)}`],
      ["availability", "METHOD_AVAILABILITY"],
      ["problemValidators", problemValidatorMap(messageDefinitions(model))],
      ...markerTable(wire),
    ],
    true,
  );
  file.add(printCode(["const TABLES: MessageTables = ", tables, ";"]));
  const requests = wire.length > 0 ? wire.map((r) => `T.${r.definition}`) : ["never"];
  const notifications =
    model.notifications.length > 0
      ? model.notifications.map((n) => `T.${n.definition}`)
      : ["never"];
  file.add(
    `${jsDoc("A message `parseMessage` accepts: a request or notification of this revision, or a response envelope.")}${unionOf(
      "McpMessage",
      [...requests, ...notifications, `T.${resultResponse}`, `T.${errorResponse}`],
    )}`,
  );
  file.add(
    `${jsDoc(
      "Parses (if given text) and validates one incoming JSON-RPC message, choosing its definition from `method`. Failures are JSON-RPC errors ready to send: -32700 unparsable, -32600 not a JSON-RPC message, -32601 unknown method, -32602 invalid params (with the failing paths). Responses are checked as envelopes; use `parseResponse` for their results.",
    )}export function parseMessage(input: unknown): ParseResult<McpMessage> {\n  return parseMessageWith(TABLES, input) as ParseResult<McpMessage>;\n}`,
  );
  file.add(
    `${jsDoc("A successful response to a request of method `M`, its result discriminated on resultType.")}export type ResultResponseOf<M extends RequestMethod & keyof ResultByMethod> = {\n  jsonrpc: "2.0";\n  id: T.RequestId;\n  result: ResultByMethod[M];\n};`,
  );
  file.add(
    `${jsDoc("A response to a request of method `M`: its result (discriminated on resultType) or an error.")}${unionOf(
      "ResponseOf<M extends RequestMethod & keyof ResultByMethod>",
      ["ResultResponseOf<M>", `T.${errorResponse}`],
    )}`,
  );
  file.add(
    `${jsDoc(
      'Parses and validates a response to a request of `method`. The result is checked against the definition its resultType selects; a missing resultType (older servers) is read as "complete" and filled in; an unrecognized one is -32602.',
    )}export function parseResponse<M extends RequestMethod & keyof ResultByMethod>(\n  input: unknown,\n  method: M,\n): ParseResult<ResponseOf<M>> {\n  return parseResponseWith(TABLES, input, method) as ParseResult<ResponseOf<M>>;\n}`,
  );
  return file.build(bannerText);
}

/** `export type name = A | B | …;` of named types. */
function unionOf(name: string, members: readonly string[]): string {
  return printDeclaration({
    name,
    form: "alias",
    type: { kind: "union", members: members.map((m) => ({ kind: "name", name: m })) },
  });
}

/** `new Map([[compiled.validateX, problems.validateX], …])`: each message validator's problem-listing twin. */
function problemValidatorMap(definitions: readonly string[]): Doc {
  return [
    "new Map(",
    arrayLiteral(
      definitions.map((d) =>
        arrayLiteral([`compiled.${validatorName(d)}`, `problems.${validatorName(d)}`]),
      ),
    ),
    ")",
  ];
}

/** `new Map([[method, compiled.validateX], …])`. */
function mapOf(entries: ReadonlyArray<readonly [method: string, definition: string]>): Doc {
  return [
    "new Map(",
    arrayLiteral(
      entries.map(([method, definition]) =>
        arrayLiteral([literal(method), `compiled.${validatorName(definition)}`]),
      ),
    ),
    ")",
  ];
}
