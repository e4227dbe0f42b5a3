/**
 * The Python emitter: a sibling of the TypeScript emitters over the same
 * model. `emitPythonFiles` maps the model's definitions to pydantic models
 * once (py-type.ts) and writes a package pip can install:
 *
 *   pyproject.toml
 *   mcp_gen_2026_07_28/__init__.py     what users import
 *                      models.py       a model per definition
 *                      messages.py     parse_message, parse_response, validate
 *                      result_types.py resultType set, per-method result unions
 *                      error_codes.py  ErrorCode, ERROR_CODES, builders
 *                      methods.py      METHODS, NOTIFICATIONS, METHOD_AVAILABILITY
 *                      protocol.py     PROTOCOL_VERSION, EXTENSIONS, _meta key rules
 *                      _support.py, _checks.py (copied), py.typed
 */
import { diagnostic, McpGenError } from "../../diagnostics.js";
import type { McpModel } from "../../model/types.js";
import { bannerLines, type BannerOptions, type EmittedFile } from "../file.js";
import { emitPyMessages } from "./emit-py-messages.js";
import { emitPyModels, printType } from "./emit-py-models.js";
import { emitPyInit, emitPyProject, emitPyStatic, emitPyTyped } from "./emit-py-package.js";
import {
  emitPyErrorCodes,
  emitPyMethods,
  emitPyProtocol,
  emitPyResultTypes,
  wireRequests,
} from "./emit-py-tables.js";
import { className, packageName, PY_MODULES } from "./py-names.js";
import { InexpressibleSchema, pythonDeclarations, type PyDeclarations } from "./py-type.js";
import { resultUnionName } from "../names.js";

/** The import name of the package generated for `model` (`mcp_gen_2026_07_28_tasks`). */
export function pythonPackageName(model: McpModel): string {
  return packageName(
    model.revision,
    model.extensions.map((e) => e.name),
  );
}

/** Every file of the Python package of `model`, paths relative to the output folder. */
export function emitPythonFiles(model: McpModel, options: BannerOptions): EmittedFile[] {
  const pkg = pythonPackageName(model);
  const declarations = mapDeclarations(model);
  const banner = bannerLines(model, options);
  const copied = (what: string) =>
    bannerLines(
      model,
      options,
      `Copied from mcp-gen's revision-independent Python support code; ${what} is the same for every revision.`,
    );
  const inPackage = (file: EmittedFile): EmittedFile => ({ ...file, path: `${pkg}/${file.path}` });
  return [
    emitPyProject(model, pkg, banner),
    emitPyTyped(pkg, banner),
    emitPyStatic(pkg, PY_MODULES.support, "support.py", copied(PY_MODULES.support)),
    emitPyStatic(pkg, PY_MODULES.checks, "checks.py", copied(PY_MODULES.checks)),
    inPackage(emitPyModels(model, declarations, banner)),
    inPackage(emitPyMessages(model, declarations, banner)),
    inPackage(emitPyResultTypes(model, banner)),
    inPackage(emitPyErrorCodes(model, declarations, banner, printType)),
    inPackage(emitPyMethods(model, banner)),
    inPackage(emitPyProtocol(model, banner)),
    emitPyInit(model, pkg, publicNames(model, declarations), banner),
  ];
}

function mapDeclarations(model: McpModel): PyDeclarations {
  try {
    return pythonDeclarations(model.declarations);
  } catch (error) {
    if (!(error instanceof InexpressibleSchema)) throw error;
    const origin = model.declarations.find((d) => d.name === error.definition)?.origin;
    throw new McpGenError([
      diagnostic(
        "MCPG420",
        { definition: error.definition, keywords: error.keyword },
        {
          file: origin?.file ?? "schema.json",
          ...(origin?.pointer ? { pointer: origin.pointer } : {}),
        },
      ),
    ]);
  }
}

/** What __init__.py re-exports, by module. */
function publicNames(model: McpModel, declarations: PyDeclarations): Record<string, string[]> {
  const wire = wireRequests(model);
  const builders = declarations; // the builders' names are read from error_codes.py's own table
  void builders;
  return {
    ".models": [
      ...declarations.models.map((m) => m.name),
      ...declarations.aliases.map((a) => a.name),
    ].filter((n, i, all) => all.indexOf(n) === i),
    ".messages": ["DEFINITIONS", "McpMessage", "parse_message", "parse_response", "validate"],
    ".result_types": [
      "RESULT_TYPES",
      "RESULT_TYPE_INFO",
      "KnownResultType",
      "result_type_of",
      ...(model.mrtrResultType !== undefined ? ["MRTR_RESULT_TYPE"] : []),
      ...wire.map(resultUnionName),
    ],
    ".error_codes": [
      "ERROR_CODES",
      "ErrorCode",
      "ErrorCodeInfo",
      "is_implementation_defined_code",
      "is_spec_reserved_code",
    ],
    ".methods": [
      "METHODS",
      "METHOD_AVAILABILITY",
      "NOTIFICATIONS",
      "MethodInfo",
      "NotificationInfo",
      "NotificationMethod",
      "RequestMethod",
    ],
    ".protocol": [
      "EXTENSIONS",
      "JSONRPC_VERSION",
      "KNOWN_REVISIONS",
      "PROTOCOL_VERSION",
      "is_reserved_meta_key",
      "is_valid_meta_key",
    ],
    "._support": [
      "JsonRpcError",
      "ParseFailure",
      "ParseResult",
      "Parsed",
      "ResultMessage",
      "ValidationProblem",
      "WireModel",
      "to_wire",
    ],
  };
}

export { className };
