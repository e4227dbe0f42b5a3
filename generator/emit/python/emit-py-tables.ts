/**
 * The tables of a generated package, each the Python twin of a TypeScript
 * module: result_types.py (resultType set, per-method result unions,
 * result_type_of), error_codes.py (ErrorCode IntEnum, ERROR_CODES, ranges,
 * typed builders), methods.py (METHODS, NOTIFICATIONS, availability) and
 * protocol.py (PROTOCOL_VERSION, EXTENSIONS, `_meta` key rules).
 */
import type { ErrorCodeNode, McpModel, NotificationNode, RequestNode } from "../../model/types.js";
import type { EmittedFile } from "../file.js";
import { branchKey, resultUnionName } from "../names.js";
import { PyFileBuilder } from "./py-file.js";
import { className, PY_MODULES } from "./py-names.js";
import {
  call,
  docstring,
  pyString,
  pyValue,
  seq,
  statement,
  subscript,
  tuple,
  type PyDoc,
} from "./py-print.js";
import type { PyDeclarations, PyType } from "./py-type.js";

/** The wire requests: input requests are answered inside inputResponses, never parsed as results. */
export function wireRequests(model: McpModel): RequestNode[] {
  return model.requests.filter((r) => r.direction !== "input-request");
}

function assignment(
  name: string,
  annotation: string | undefined,
  value: PyDoc,
  doc?: string,
): string {
  const target = annotation ? `${name}: ${annotation} = ` : `${name} = `;
  const code = statement([target, value]);
  return doc ? `${code}\n${docstring(doc, 0)}` : code;
}

/** Emits result_types.py. */
export function emitPyResultTypes(model: McpModel, banner: readonly string[]): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.resultTypes,
    `resultType values and what each request method may return, MCP ${model.revision}.`,
  );
  const values = model.resultTypes.map((t) => t.value);
  file.from("typing", "Final");
  file.add(
    assignment(
      "RESULT_TYPES",
      "Final[tuple[str, ...]]",
      tuple(values.map(pyString)),
      "Every resultType this revision (with its extensions) defines, in declaration order.",
    ),
  );
  if (values.length > 0) {
    file.from("typing", "Literal");
    file.add(
      assignment(
        "KnownResultType",
        undefined,
        ["Literal", seq("[", values.map(pyString), "]")],
        "A resultType this revision defines.",
      ),
    );
  } else {
    file.from("typing_extensions", "Never");
    file.add(
      assignment(
        "KnownResultType",
        undefined,
        "Never",
        "A resultType this revision defines (it defines none).",
      ),
    );
  }
  if (model.mrtrResultType !== undefined)
    file.add(
      assignment(
        "MRTR_RESULT_TYPE",
        "Final",
        pyString(model.mrtrResultType),
        "The resultType of this revision's MRTR result (Multi Round-Trip Requests).",
      ),
    );
  file.from("typing_extensions", "TypedDict");
  file.add(
    `class ResultTypeInfo(TypedDict):\n${docstring("What RESULT_TYPE_INFO records of a resultType.", 1)}\n\n    doc: str\n    definitions: tuple[str, ...]`,
  );
  file.add(
    assignment(
      "RESULT_TYPE_INFO",
      "Final[dict[str, ResultTypeInfo]]",
      seq(
        "{",
        model.resultTypes.map((t) => [
          pyString(t.value),
          ": ",
          seq(
            "{",
            [
              ['"doc": ', pyString(t.doc ?? "")],
              ['"definitions": ', tuple(t.definitions.map(pyString))],
            ],
            "}",
          ),
        ]),
        "}",
      ),
      "What each resultType means and which result definitions carry it.",
    ),
  );
  const requests = wireRequests(model);
  if (requests.length > 0)
    file.from(
      ".models",
      ...new Set(requests.flatMap((r) => r.results.map((b) => className(b.definition)))),
    );
  for (const r of requests) {
    const members = r.results.map((b) => className(b.definition));
    const type: PyDoc = members.length === 1 ? members[0]! : subscript("Union", members);
    if (members.length > 1) file.from("typing", "Union");
    file.add(
      assignment(
        resultUnionName(r),
        undefined,
        type,
        `What \`${r.method}\` may return${r.results.some((b) => b.resultType) ? ", told apart by resultType" : ""}.`,
      ),
    );
  }
  file.from("._support", "result_type_with");
  file.add(
    `def result_type_of(result: object) -> str | None:\n${docstring('The resultType of a result, per the spec: a missing resultType is "complete" (results from servers of earlier revisions); an unrecognized one is None.', 1)}\n    return result_type_with(RESULT_TYPES, result)`,
  );
  return file.build(banner);
}

/** JSON-RPC 2.0's standard messages, the builders' default messages. */
const STANDARD_MESSAGES: Readonly<Record<number, string>> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
};

function defaultMessage(code: ErrorCodeNode): string {
  const words = code.name
    .replace(/Error$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return STANDARD_MESSAGES[code.code] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** Emits error_codes.py. */
export function emitPyErrorCodes(
  model: McpModel,
  declarations: PyDeclarations,
  banner: readonly string[],
  print: (type: PyType, file: PyFileBuilder) => PyDoc,
): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.errorCodes,
    `The JSON-RPC error codes of MCP ${model.revision}, their ranges and builders.`,
  );
  file.from("enum", "IntEnum");
  const members = model.errorCodes.map((c) => {
    const line = `    ${c.constant} = ${c.code}`;
    const doc = [
      c.doc,
      c.policy === "legacy"
        ? `Legacy (${c.revisions.join(", ")}): accept it from older peers, never send it.`
        : undefined,
    ]
      .filter((x): x is string => !!x)
      .join("\n\n");
    return doc ? `${line}\n${docstring(doc, 1)}` : line;
  });
  file.add(
    `class ErrorCode(IntEnum):\n${docstring("Every error code this revision defines or must still accept.", 1)}\n\n${members.join("\n") || "    pass"}`,
  );
  file.from("typing", "Final", "Literal").from("typing_extensions", "NotRequired", "TypedDict");
  file.add(
    `class ErrorCodeInfo(TypedDict):\n${docstring("What ERROR_CODES records of a code. policy: json-rpc (JSON-RPC 2.0 standard), spec (defined by this revision), legacy (defined only by earlier revisions: accept it, never send it), extension (defined by an extension merged here).", 1)}\n\n    name: str\n    code: int\n    policy: Literal["json-rpc", "spec", "legacy", "extension"]\n    receive_only: bool\n    revisions: tuple[str, ...]\n    definition: NotRequired[str]\n    doc: NotRequired[str]`,
  );
  const info = (c: ErrorCodeNode): PyDoc => [
    String(c.code),
    ": ",
    seq(
      "{",
      [
        ['"name": ', pyString(c.name)],
        ['"code": ', String(c.code)],
        ['"policy": ', pyString(c.policy)],
        ['"receive_only": ', c.policy === "legacy" ? "True" : "False"],
        ['"revisions": ', tuple(c.revisions.map(pyString))],
        ...(c.definition ? [['"definition": ', pyString(c.definition.name)] as PyDoc] : []),
        ...(c.doc ? [['"doc": ', pyString(c.doc)] as PyDoc] : []),
      ],
      "}",
    ),
  ];
  file.add(
    assignment(
      "ERROR_CODES",
      "Final[dict[int, ErrorCodeInfo]]",
      seq("{", model.errorCodes.map(info), "}"),
      "Metadata of every error code, by code.",
    ),
  );
  file.add(
    `def is_spec_reserved_code(code: int) -> bool:\n${docstring("Whether code is in -32020..-32099, the part of JSON-RPC's server-error range that MCP reserves for codes its specification defines.", 1)}\n    return -32099 <= code <= -32020\n\n\ndef is_implementation_defined_code(code: int) -> bool:\n${docstring("Whether code is in -32000..-32019, which MCP leaves to implementations.", 1)}\n    return -32019 <= code <= -32000`,
  );
  for (const code of model.errorCodes.filter((c) => c.definition && c.policy !== "legacy"))
    file.add(builder(code, declarations, file, print));
  return file.build(banner);
}

/** The type of a definition's error `data`, read from its model. */
function dataType(code: ErrorCodeNode, declarations: PyDeclarations): PyType | undefined {
  const def = code.definition!;
  const model = (name: string) => declarations.models.find((m) => m.name === name);
  let errorModel = model(className(def.name));
  if (def.form === "response") {
    const error = errorModel?.fields.find((f) => f.name === "error")?.type;
    errorModel = error?.kind === "ref" ? model(error.name) : undefined;
  }
  return errorModel?.fields.find((f) => f.name === "data")?.type;
}

function builder(
  code: ErrorCodeNode,
  declarations: PyDeclarations,
  file: PyFileBuilder,
  print: (type: PyType, file: PyFileBuilder) => PyDoc,
): string {
  const def = code.definition!;
  const type = dataType(code, declarations);
  file.from("._support", "JsonRpcError", "to_wire");
  const dataAnnotation = type ? print(type, file) : (file.from("typing", "Any"), "Any");
  const message = `message: str = ${pyString(defaultMessage(code))}`;
  const params: PyDoc[] =
    def.data === "required"
      ? [["data: ", dataAnnotation], message]
      : [message, ["data: ", dataAnnotation, " | None = None"]];
  const head = statement([
    "def ",
    snake(code.name.endsWith("Error") ? code.name : `${code.name}Error`),
    seq("(", params, ")"),
    " -> JsonRpcError:",
  ]);
  const body =
    def.data === "required"
      ? `    return {"code": ${code.code}, "message": message, "data": to_wire(data)}`
      : `    if data is None:\n        return {"code": ${code.code}, "message": message}\n    return {"code": ${code.code}, "message": message, "data": to_wire(data)}`;
  return `${head}\n${docstring(`Builds the error object of a ${def.name} (code ${code.code}), ready to send.`, 1)}\n${body}`;
}

/** Emits methods.py. */
export function emitPyMethods(model: McpModel, banner: readonly string[]): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.methods,
    `The request and notification methods of MCP ${model.revision}.`,
  );
  file.from("typing", "Final", "Literal").from("typing_extensions", "NotRequired", "TypedDict");
  file.add(
    `Direction = Literal["client-to-server", "server-to-client", "both", "input-request"]\n${docstring("Who sends a message. input-request: the server asks the client inside an InputRequiredResult (MRTR).", 0)}`,
  );
  file.add(
    `class MethodInfo(TypedDict):\n${docstring("What METHODS records of a request method: definitions by name, results by the resultType that selects them.", 1)}\n\n    method: str\n    direction: Direction\n    request: str\n    params: NotRequired[str]\n    params_presence: Literal["required", "optional", "absent"]\n    results: dict[str, str]\n    mrtr: bool\n    deprecated: NotRequired[str]`,
  );
  file.add(
    `class NotificationInfo(TypedDict):\n${docstring("What NOTIFICATIONS records of a notification method.", 1)}\n\n    method: str\n    direction: Direction\n    notification: str\n    params: NotRequired[str]\n    params_presence: Literal["required", "optional", "absent"]\n    deprecated: NotRequired[str]`,
  );
  file.add(
    assignment(
      "METHODS",
      "Final[dict[str, MethodInfo]]",
      seq("{", model.requests.map(methodEntry), "}"),
      "Every request method of this revision.",
    ),
  );
  file.add(
    assignment(
      "NOTIFICATIONS",
      "Final[dict[str, NotificationInfo]]",
      seq("{", model.notifications.map(notificationEntry), "}"),
      "Every notification method of this revision.",
    ),
  );
  const literal = (names: readonly string[]): PyDoc =>
    names.length > 0
      ? ["Literal", seq("[", names.map(pyString), "]")]
      : (file.from("typing_extensions", "Never"), "Never");
  file.add(
    assignment(
      "RequestMethod",
      undefined,
      literal(model.requests.map((r) => r.method)),
      "A request method of this revision.",
    ),
  );
  file.add(
    assignment(
      "NotificationMethod",
      undefined,
      literal(model.notifications.map((n) => n.method)),
      "A notification method of this revision.",
    ),
  );
  file.add(
    assignment(
      "METHOD_AVAILABILITY",
      "Final[dict[str, tuple[str, ...]]]",
      availability(model),
      "For every request and notification method of any known revision, the revisions that define it (oldest first).",
    ),
  );
  return file.build(banner);
}

function common(node: RequestNode | NotificationNode, key: string): PyDoc[] {
  return [
    ['"method": ', pyString(node.method)],
    ['"direction": ', pyString(node.direction)],
    [`"${key}": `, pyString(node.definition)],
    ...(node.paramsDefinition ? [['"params": ', pyString(node.paramsDefinition)] as PyDoc] : []),
    ['"params_presence": ', pyString(node.params)],
  ];
}

function methodEntry(r: RequestNode): PyDoc {
  const results = seq(
    "{",
    r.results.map((b) => [pyString(branchKey(b)), ": ", pyString(b.definition)]),
    "}",
  );
  const fields = [
    ...common(r, "request"),
    ['"results": ', results],
    ['"mrtr": ', r.mrtr ? "True" : "False"],
    ...(r.deprecated !== undefined ? [['"deprecated": ', pyString(r.deprecated)] as PyDoc] : []),
  ];
  return [pyString(r.method), ": ", seq("{", fields, "}")];
}

function notificationEntry(n: NotificationNode): PyDoc {
  const fields = [
    ...common(n, "notification"),
    ...(n.deprecated !== undefined ? [['"deprecated": ', pyString(n.deprecated)] as PyDoc] : []),
  ];
  return [pyString(n.method), ": ", seq("{", fields, "}")];
}

function availability(model: McpModel): PyDoc {
  const byMethod = new Map<string, string[]>();
  for (const summary of model.revisions)
    for (const method of [...summary.methods, ...summary.notifications])
      byMethod.set(method, [...(byMethod.get(method) ?? []), summary.revision]);
  const entries = [...byMethod.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return seq(
    "{",
    entries.map(([m, revs]) => [pyString(m), ": ", tuple(revs.map(pyString))]),
    "}",
  );
}

/** Emits protocol.py. */
export function emitPyProtocol(model: McpModel, banner: readonly string[]): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.protocol,
    `The identity of MCP ${model.revision}: versions, merged extensions, _meta key rules.`,
  );
  file
    .from("typing", "Any", "Final")
    .from("._support", "is_reserved_meta_key", "is_valid_meta_key");
  file.add(
    assignment(
      "PROTOCOL_VERSION",
      "Final",
      pyString(model.protocolVersion),
      "The protocol version of this revision.",
    ),
  );
  file.add(
    assignment(
      "JSONRPC_VERSION",
      "Final",
      pyString(model.jsonrpcVersion),
      "The JSON-RPC version every message carries.",
    ),
  );
  const revisions = model.revisions.map((r) => pyString(r.revision));
  file.add(
    assignment(
      "KNOWN_REVISIONS",
      "Final[tuple[str, ...]]",
      tuple(revisions),
      "Every MCP revision mcp-gen knows, oldest first.",
    ),
  );
  const extensions = Object.fromEntries(
    model.extensions.map((e) => [
      e.id,
      {
        id: e.id,
        name: e.name,
        requests: Object.fromEntries(e.requests.map((r) => [r.method, r.direction])),
        notifications: Object.fromEntries(e.notifications.map((n) => [n.method, n.direction])),
        resultTypes: e.resultTypes,
        ...(e.capability
          ? { capability: { definition: e.capability.definition, sides: e.capability.sides } }
          : {}),
        ...(e.names ? { names: Object.fromEntries(e.names.map((n) => [n.method, n.param])) } : {}),
        ...(e.undeclared ? { undeclared: e.undeclared } : {}),
      },
    ]),
  );
  file.add(
    assignment(
      "EXTENSIONS",
      "Final[dict[str, dict[str, Any]]]",
      pyValue(extensions),
      "The extensions merged into this package, by identifier: their methods and who sends them, the resultType values they add, and the definition of their settings under capabilities.extensions[id].",
    ),
  );
  file.add(
    `__all__ = [\n    "EXTENSIONS",\n    "JSONRPC_VERSION",\n    "KNOWN_REVISIONS",\n    "PROTOCOL_VERSION",\n    "is_reserved_meta_key",\n    "is_valid_meta_key",\n]`,
  );
  return file.build(banner);
}

export { call };
