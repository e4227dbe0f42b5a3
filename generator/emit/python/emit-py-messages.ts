/**
 * emitPyMessages: messages.py, `parse_message` and `parse_response` over
 * tables keyed by method (and, for results, by resultType), so each message
 * is checked against exactly one model, with the JSON-RPC error semantics
 * of the TypeScript messages module; and `validate(name, value)`.
 */
import type { McpModel } from "../../model/types.js";
import type { EmittedFile } from "../file.js";
import { branchKey, resultUnionName } from "../names.js";
import { PyFileBuilder } from "./py-file.js";
import { className, PY_MODULES } from "./py-names.js";
import { docstring, pyString, seq, statement, subscript, tuple, type PyDoc } from "./py-print.js";
import type { PyDeclarations } from "./py-type.js";
import { wireRequests } from "./emit-py-tables.js";

/** Emits messages.py. */
export function emitPyMessages(
  model: McpModel,
  declarations: PyDeclarations,
  banner: readonly string[],
): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.messages,
    `Parsing and validating MCP ${model.revision} messages.`,
  );
  const classes = new Set(declarations.models.map((m) => m.name));
  const models = new Set<string>();
  const validator = (definition: string): string => {
    const name = className(definition);
    models.add(name);
    return classes.has(name)
      ? `${name}.__pydantic_validator__.validate_python`
      : `_adapter(${name})`;
  };
  const wire = wireRequests(model);
  const requests = seq(
    "{",
    wire.map((r) => [pyString(r.method), ": ", validator(r.definition)]),
    "}",
  );
  const notifications = seq(
    "{",
    model.notifications.map((n) => [pyString(n.method), ": ", validator(n.definition)]),
    "}",
  );
  const results = seq(
    "{",
    wire.map((r) => [
      pyString(r.method),
      ": ",
      seq(
        "{",
        r.results.map((b) => [pyString(branchKey(b)), ": ", validator(b.definition)]),
        "}",
      ),
    ]),
    "}",
  );
  const markers = seq(
    "{",
    wire
      .filter((r) => r.results.some((b) => b.markers))
      .map((r) => [
        pyString(r.method),
        ": ",
        tuple(
          r.results
            .filter((b) => b.markers)
            .map((b) => tuple([pyString(branchKey(b)), tuple(b.markers!.map(pyString))])),
        ),
      ]),
    "}",
  );
  const errorResponse = model.envelopes.errorResponse!;
  const tables: PyDoc = [
    "_TABLES = MessageTables",
    seq(
      "(",
      [
        `revision=${pyString(model.revision)}`,
        ["requests=", requests],
        ["notifications=", notifications],
        ["results=", results],
        `error_response=${validator(errorResponse)}`,
        "availability=METHOD_AVAILABILITY",
        ["markers=", markers],
      ],
      ")",
    ),
  ];
  file.from(
    "._support",
    "MessageTables",
    "ParseResult",
    "ResultMessage",
    "parse_message_with",
    "parse_response_with",
    "validate_with",
    "ValidationProblem",
  );
  file.from(".methods", "METHOD_AVAILABILITY");
  file.from("typing", "Any", "Literal", "Union", "overload");
  if ([...models].some((m) => !classes.has(m))) {
    file.from("pydantic", "TypeAdapter");
    file.add(`def _adapter(type_: Any) -> Any:\n    return TypeAdapter(type_).validate_python`);
  }
  file.add(statement(tables));
  const members = [
    ...wire.map((r) => className(r.definition)),
    ...model.notifications.map((n) => className(n.definition)),
    "ResultMessage[dict[str, Any]]",
    className(errorResponse),
  ];
  file.add(
    `${statement(["McpMessage = ", subscript("Union", members)])}\n${docstring("A message parse_message accepts: a request or notification of this revision, or a response envelope.", 0)}`,
  );
  file.add(
    `def parse_message(input: object) -> ParseResult[McpMessage]:\n${docstring("Parses (if given str or bytes) and validates one incoming JSON-RPC message, choosing its model from method. Failures are JSON-RPC errors ready to send: -32700 unparsable, -32600 not a JSON-RPC message, -32601 unknown method, -32602 invalid params (every problem in data.errors). Responses are checked as envelopes; use parse_response for their results.", 1)}\n    return parse_message_with(_TABLES, input)`,
  );
  const taken = new Set(model.declarations.map((d) => className(d.name)));
  for (const r of wire) {
    models.add(resultUnionName(r));
    let response = `${className(r.definition)}Response`;
    while (taken.has(response)) response = `${response}_`;
    file.add(
      `${statement([response, " = ", subscript("Union", [subscript("ResultMessage", [resultUnionName(r)]), className(errorResponse)])])}\n${docstring(`A response to \`${r.method}\`: its result, or an error.`, 0)}`,
    );
    file.add(
      `@overload\n${statement(["def parse_response", seq("(", ["input: object", ["method: Literal[", pyString(r.method), "]"]], ")"), ` -> ParseResult[${response}]: ...`])}`,
    );
  }
  if (wire.length > 0) file.from(".result_types", ...wire.map((r) => resultUnionName(r)));
  file.add(
    `${wire.length > 0 ? "" : ""}def parse_response(input: object, method: str) -> ParseResult[Any]:\n${docstring('Parses and validates a response to a request of method. The result is checked against the model its resultType selects; a missing resultType (older servers) is read as "complete" and filled in; an unrecognized one is -32602.', 1)}\n    return parse_response_with(_TABLES, input, method)`,
  );
  const definitions = seq(
    "{",
    model.declarations.map((d) => [pyString(d.name), ": ", className(d.name)]),
    "}",
  );
  file.add(
    statement(["DEFINITIONS: dict[str, Any] = ", definitions]) +
      `\n${docstring("Every definition's model (or type), by definition name.", 0)}`,
  );
  file.add(
    `def validate(name: str, value: object) -> list[ValidationProblem]:\n${docstring("Validates value against the definition name: no problems, or each problem's JSON pointer and message. A name this revision does not define is a KeyError.", 1)}\n    return validate_with(DEFINITIONS, name, value)`,
  );
  for (const d of model.declarations) models.add(className(d.name));
  file.from(".models", ...[...models].filter((m) => !wire.some((r) => resultUnionName(r) === m)));
  return file.build(banner);
}
