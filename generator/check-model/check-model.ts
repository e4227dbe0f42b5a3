/**
 * The model check: runs on every generation, after the passes and before
 * any emitter, and returns every reason the model would give code that
 * does not compile or does not work. Generation stops with these
 * diagnostics instead of writing such code.
 *
 * Rules, each named as it appears in test titles:
 * - each method's results carry distinct resultType values;
 * - each request and each notification method has one definition;
 * - every name a generated module declares is declared once;
 * - every `$ref` of the model names a definition of the model;
 * - every method has its request, params and result definitions;
 * - the JSON-RPC response envelopes are defined.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { forEachSchema } from "../shared/schema-walk.js";
import { refName } from "../model/build-declarations.js";
import { COMPLETE } from "../model/passes/pin-result-types.js";
import type { Declaration, McpModel, Origin, RequestNode, ResultBranch } from "../model/types.js";
import { declaredProperties } from "../model/passes/discriminate-results.js";
import {
  builderName,
  EXTENSION_ERROR_CLASS,
  extensionErrorGroups,
  extensionErrorsName,
  guardName,
  resultUnionName,
  validatorName,
  ERROR_CODES_FILE,
  INDEX_FILE,
  MESSAGES_FILE,
  METHODS_FILE,
  PROTOCOL_FILE,
  RESULT_TYPES_FILE,
  STANDARD_SCHEMAS_FILE,
  TYPES_FILE,
  VALIDATE_API_FILE,
  COMPILED_VALIDATORS_FILE,
} from "../model/output-names.js";

/** Runs every model rule and returns all diagnostics. */
export function checkModel(model: McpModel): Diagnostic[] {
  return [
    ...checkDistinctResultTypes(model),
    ...checkUniqueMethods(model),
    ...checkUniqueNames(model),
    ...checkRefsResolve(model),
    ...checkMethodDefinitions(model),
    ...checkEnvelopes(model),
  ];
}

/**
 * Rule: each method's results carry distinct resultType values (a result
 * without one counts as "complete"), or, without a resultType, are told
 * apart by shape (the discriminate pass gives such branches markers).
 */
export function checkDistinctResultTypes(model: McpModel): Diagnostic[] {
  const byName = new Map(
    model.declarations.map((d) => [d.name, { ...d, schema: d.validatorSchema }]),
  );
  return model.requests.flatMap((request) => {
    const byType = new Map<string, ResultBranch[]>();
    for (const branch of request.results) {
      if (branch.markers) continue;
      const type = branch.resultType ?? COMPLETE;
      byType.set(type, [...(byType.get(type) ?? []), branch]);
    }
    return [...byType]
      .filter(([, branches]) => branches.length > 1)
      .map(([resultType, branches]) => {
        const definitions = branches.map((b) => b.definition);
        if (branches.some((b) => b.resultType !== undefined))
          return diagnostic(
            "MCPG405",
            { method: request.method, resultType, definitions },
            request.origin,
          );
        const [first, second] = definitions as [string, string];
        const shared = [...declaredProperties(byName.get(first)?.schema, byName)]
          .filter((p) => declaredProperties(byName.get(second)?.schema, byName).has(p))
          .sort();
        return diagnostic(
          "MCPG409",
          { method: request.method, first, second, shared },
          request.origin,
        );
      });
  });
}

/**
 * The names each module re-exported by index.ts declares at its top level
 * that do not depend on the model; test/check/check-model.test.ts compares
 * these lists with the emitted modules.
 */
export const FIXED_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  [VALIDATE_API_FILE]: ["DefinitionTypes", "DefinitionName", "VALIDATORS", "validate"],
  [MESSAGES_FILE]: [
    "McpMessage",
    "parseMessage",
    "ResultResponseOf",
    "ResponseOf",
    "parseResponse",
  ],
  [RESULT_TYPES_FILE]: [
    "RESULT_TYPES",
    "KnownResultType",
    "ResultTypeInfo",
    "RESULT_TYPE_INFO",
    "ResultByMethod",
    "resultTypeOf",
  ],
  [ERROR_CODES_FILE]: [
    "ErrorCode",
    "ErrorCodeInfo",
    "ERROR_CODES",
    "isSpecReservedCode",
    "isImplementationDefinedCode",
  ],
  [METHODS_FILE]: [
    "Direction",
    "MethodInfo",
    "NotificationInfo",
    "METHODS",
    "NOTIFICATIONS",
    "RequestMethod",
    "NotificationMethod",
    "RequestByMethod",
    "ParamsByMethod",
    "NotificationByMethod",
    "NotificationParamsByMethod",
    "ResultOf",
    "METHOD_AVAILABILITY",
  ],
  [PROTOCOL_FILE]: [
    "PROTOCOL_VERSION",
    "JSONRPC_VERSION",
    "KNOWN_REVISIONS",
    "EXTENSIONS",
    "ExtensionId",
    "isReservedMetaKey",
    "isValidMetaKey",
  ],
  [STANDARD_SCHEMAS_FILE]: ["JSON_SCHEMAS", "STANDARD_SCHEMAS"],
  [INDEX_FILE]: [
    "JsonRpcErrorObject",
    "ParseResult",
    "ValidationError",
    "ValidationResult",
    "JsonSchemaTarget",
    "StandardIssue",
    "StandardResult",
    "StandardSchema",
  ],
};

/** A name a module declares, what it stands for, and where that is (for the diagnostic). */
type Named = readonly [name: string, owner: string, origin?: Origin];

/** The builders' objects of extensions with error codes, and the class they return. */
function extensionErrorNames(model: McpModel): Named[] {
  const groups = extensionErrorGroups(model);
  if (groups.length === 0) return [];
  return [
    [EXTENSION_ERROR_CLASS, `mcp-gen's ${EXTENSION_ERROR_CLASS}`],
    ...groups.map(({ extension }): Named => [
      extensionErrorsName(extension),
      `the error builders of extension ${extension.id}`,
      { file: extension.manifestFile },
    ]),
  ];
}

/** The names the model gives each module's top level and its keyed tables. */
function namesByScope(model: McpModel): Array<{ scope: string; names: readonly Named[] }> {
  const fixed = (module: string): Named[] =>
    FIXED_EXPORTS[module]!.map((n) => [n, `mcp-gen's ${n}`]);
  const definitions = model.declarations.map((d): Named => [
    d.name,
    `definition ${d.name}`,
    d.origin,
  ]);
  const wire = model.requests.filter((r) => r.direction !== "input-request");
  const modules: Record<string, Named[]> = {
    [TYPES_FILE]: definitions,
    [VALIDATE_API_FILE]: [
      ...fixed(VALIDATE_API_FILE),
      ...model.declarations.map((d): Named => [
        guardName(d.name),
        `definition ${d.name}`,
        d.origin,
      ]),
    ],
    [MESSAGES_FILE]: fixed(MESSAGES_FILE),
    [RESULT_TYPES_FILE]: [
      ...fixed(RESULT_TYPES_FILE),
      ...wire.map((r): Named => [resultUnionName(r), `method ${r.method}`, r.origin]),
    ],
    [ERROR_CODES_FILE]: [
      ...fixed(ERROR_CODES_FILE),
      ...model.errorCodes
        .filter((c) => c.definition && c.policy !== "legacy")
        .map((c): Named => [builderName(c), `error code ${c.code}`, c.origin]),
      ...extensionErrorNames(model),
    ],
    [METHODS_FILE]: fixed(METHODS_FILE),
    [PROTOCOL_FILE]: fixed(PROTOCOL_FILE),
    [STANDARD_SCHEMAS_FILE]: fixed(STANDARD_SCHEMAS_FILE),
    [INDEX_FILE]: fixed(INDEX_FILE),
  };
  return [
    ...Object.entries(modules).map(([scope, names]) => ({ scope, names })),
    // index.ts re-exports every module: a name two modules declare is ambiguous there.
    {
      scope: `${INDEX_FILE} (re-exporting every module)`,
      names: Object.values(modules).flatMap((names) => [
        ...new Map(names.map((n) => [n[0], n] as const)).values(),
      ]),
    },
    {
      scope: COMPILED_VALIDATORS_FILE,
      names: model.declarations.map((d): Named => [
        validatorName(d.name),
        `definition ${d.name}`,
        d.origin,
      ]),
    },
    {
      scope: `${ERROR_CODES_FILE} ErrorCode`,
      names: model.errorCodes.map((c): Named => [c.name, `error code ${c.code}`, c.origin]),
    },
    {
      scope: `${ERROR_CODES_FILE} ERROR_CODES`,
      names: model.errorCodes.map((c): Named => [
        String(c.code),
        `constant ${c.constant}`,
        c.origin,
      ]),
    },
    {
      scope: `${RESULT_TYPES_FILE} RESULT_TYPES`,
      names: model.resultTypes.map((t): Named => [t.value, `resultType ${t.value}`]),
    },
    {
      scope: `${PROTOCOL_FILE} EXTENSIONS`,
      names: model.extensions.map((e): Named => [e.id, `extension ${e.manifestFile}`]),
    },
  ];
}

/** Rule: each request and each notification method has one definition. */
export function checkUniqueMethods(model: McpModel): Diagnostic[] {
  return [model.requests, model.notifications].flatMap((nodes) => {
    const byMethod = new Map<string, string[]>();
    for (const n of nodes)
      byMethod.set(n.method, [...(byMethod.get(n.method) ?? []), n.definition]);
    return [...byMethod]
      .filter(([, definitions]) => definitions.length > 1)
      .map(([method, definitions]) =>
        diagnostic(
          "MCPG401",
          { method, definitions },
          nodes.find((n) => n.method === method)!.origin,
        ),
      );
  });
}

/** Rule: every name a generated module declares (or a table holds as a key) is declared once. */
export function checkUniqueNames(model: McpModel): Diagnostic[] {
  const schemaFile = { file: model.sources[0]?.name ?? "schema.json" };
  return namesByScope(model).flatMap(({ scope, names }) => {
    const byName = new Map<string, Named[]>();
    for (const named of names) byName.set(named[0], [...(byName.get(named[0]) ?? []), named]);
    return [...byName]
      .filter(([, list]) => list.length > 1)
      .map(([name, list]) =>
        diagnostic(
          "MCPG406",
          { name, module: scope, owners: list.map(([, owner]) => owner) },
          list.find(([, , origin]) => origin)?.[2] ?? schemaFile,
        ),
      );
  });
}

/** Rule: every `$ref` of the model (in the type and the validator view) names a definition of the model. */
export function checkRefsResolve(model: McpModel): Diagnostic[] {
  const names = new Set(model.declarations.map((d) => d.name));
  const found: Diagnostic[] = [];
  for (const decl of model.declarations) {
    const seen = new Set<string>();
    for (const schema of [decl.schema, decl.validatorSchema]) {
      forEachSchema(schema, "", (node) => {
        if (typeof node.$ref !== "string" || seen.has(node.$ref)) return;
        const target = refName(node.$ref);
        if (target !== undefined && names.has(target)) return;
        seen.add(node.$ref);
        found.push(diagnostic("MCPG407", { ref: node.$ref, definition: decl.name }, decl.origin));
      });
    }
  }
  return found;
}

/** Rule: every method has its request, params and result definitions. */
export function checkMethodDefinitions(model: McpModel): Diagnostic[] {
  const byName = new Map<string, Declaration>(model.declarations.map((d) => [d.name, d]));
  const missing = (
    node: RequestNode | McpModel["notifications"][number],
    role: string,
    definition: string | undefined,
  ): Diagnostic[] =>
    definition === undefined || byName.has(definition)
      ? []
      : [diagnostic("MCPG408", { method: node.method, role, definition }, node.origin)];
  return [
    ...model.requests.flatMap((r) => [
      ...missing(r, "request", r.definition),
      ...missing(r, "params", r.paramsDefinition),
      ...missing(r, "result response", r.responseDefinition),
      ...r.results.flatMap((b) => missing(r, "result", b.definition)),
    ]),
    ...model.notifications.flatMap((n) => [
      ...missing(n, "notification", n.definition),
      ...missing(n, "params", n.paramsDefinition),
    ]),
  ];
}

/** Rule: the JSON-RPC response envelopes that parseMessage and parseResponse check are defined. */
export function checkEnvelopes(model: McpModel): Diagnostic[] {
  const { errorResponse, resultResponse } = model.envelopes;
  const where = { file: model.sources[0]?.name ?? "schema.json" };
  return [
    ...(errorResponse
      ? []
      : [diagnostic("MCPG404", { missing: "JSON-RPC error response" }, where)]),
    ...(resultResponse
      ? []
      : [diagnostic("MCPG404", { missing: "JSON-RPC result response" }, where)]),
  ];
}
