/**
 * Pass: merge extensions into the revision.
 *
 * For each extension, in the order given:
 * - its definitions join the model; a copy of a core (or earlier
 *   extension's) definition that is structurally equal is folded into the
 *   original, one that differs is a conflict (MCPG612), never a shadow;
 * - its requests and notifications join METHODS / NOTIFICATIONS, with the
 *   manifest's directions; a method that exists already is a conflict;
 * - `returns` adds result branches to core methods (tools/call may return
 *   CreateTaskResult), and to their `<X>ResultResponse` definitions;
 * - its capability definition types `capabilities.extensions[<id>]`;
 * - `augments` adds properties to core definitions, `members` types
 *   members below their top level (extension-members.ts);
 * - messages the manifest places on another channel than the MCP
 *   connection become channel messages, never methods (extension-channels.ts);
 * - its resultType values and error codes join the model's sets, and may
 *   not collide with the core revision's or another extension's.
 *
 * Runs before the patch overlay, so copies are compared with the upstream
 * definitions they were copied from.
 *
 *   before: tools/call → [InputRequiredResult, CallToolResult]
 *   after:  tools/call → [InputRequiredResult, CallToolResult, CreateTaskResult]; tasks/get, … added
 */
import { diagnostic, McpGenError, type Diagnostic } from "../../diagnostics.js";
import { escapePointerSegment, isJsonObject, jsonEqual, type JsonObject } from "../../load/json.js";
import type { ExtensionSource } from "../../load/types.js";
import { buildDeclarations, refName } from "../build-declarations.js";
import { describeErrorDefinition, pascalFromConstant } from "../build-error-codes.js";
import { methodNodes, propertyOf } from "../build-methods.js";
import { channelsOf, checkChannelCollisions, splitByChannel } from "./extension-channels.js";
import { addAugments, addMembers } from "./extension-members.js";
import { editSchemas, ref, structure } from "./merge-helpers.js";
import type {
  Declaration,
  ErrorCodeNode,
  McpModel,
  MergedExtension,
  NotificationNode,
  Pass,
  RequestNode,
  ResultTypeNode,
} from "../types.js";

/** The pass. */
export const mergeExtensions: Pass = {
  name: "merge extensions into the revision",
  run(model, context) {
    const problems: Diagnostic[] = [];
    const merged = context.extensions.reduce(
      (current, ext) => mergeExtension(current, ext, problems),
      model,
    );
    if (problems.length > 0) throw new McpGenError(problems);
    return merged;
  },
};

/** Where each name in the model came from, for conflict messages. */
function ownerOf(model: McpModel, decl: Declaration): string {
  const ext = model.extensions.find((e) => e.definitions.includes(decl.name));
  return ext ? `extension ${ext.id}` : `${decl.origin.file}#${decl.origin.pointer ?? ""}`;
}

function mergeExtension(model: McpModel, ext: ExtensionSource, problems: Diagnostic[]): McpModel {
  const existing = new Map(model.declarations.map((d) => [d.name, d]));
  const added: Declaration[] = [];
  for (const decl of buildDeclarations({
    schema: ext.schema,
    ...(ext.schemaTs ? { schemaTs: ext.schemaTs } : {}),
  })) {
    const original = existing.get(decl.name);
    if (!original) added.push(decl);
    else if (!jsonEqual(structure(original.schema), structure(decl.schema))) {
      problems.push(
        diagnostic("MCPG612", { name: decl.name, other: ownerOf(model, original) }, decl.origin),
      );
    }
  }
  const byName = new Map([...existing, ...added.map((d) => [d.name, d] as const)]);
  const methods = splitByChannel(ext, extensionMethods(ext, added, byName), byName);
  checkMethodCollisions(model, ext, methods, problems);
  checkChannelCollisions(model, methods.channelMessages, problems);
  checkNameParameters(ext, methods.requests, byName, problems);

  let declarations = [...model.declarations, ...added];
  let requests = [...model.requests, ...methods.requests];
  ({ declarations, requests } = addReturns(ext, declarations, requests, problems));
  declarations = addCapability(ext, declarations, problems);
  declarations = addAugments(ext, declarations, problems);
  declarations = addMembers(ext, declarations, problems);
  const resultTypes = addResultTypes(model, ext, added, problems);
  declarations = widenResultTypeUnion(declarations, resultTypes);
  const errorCodes = addErrorCodes(model, ext, byName, problems);
  const files = [ext.schema.file, ...(ext.schemaTs ? [ext.schemaTs.file] : [])].map((f) => ({
    name: f.name,
    sha256: f.sha256,
  }));
  return {
    ...model,
    sources: [...model.sources, ...files],
    declarations,
    requests: sortByMethod(requests),
    notifications: sortByMethod([...model.notifications, ...methods.notifications]),
    channelMessages: [...model.channelMessages, ...methods.channelMessages],
    channels: [...model.channels, ...channelsOf(ext)],
    resultTypes,
    errorCodes,
    revisions: model.revisions.map((r) =>
      ext.manifest.revisions.includes(r.revision)
        ? {
            ...r,
            methods: [...r.methods, ...methods.requests.map((m) => m.method)],
            notifications: [...r.notifications, ...methods.notifications.map((n) => n.method)],
          }
        : r,
    ),
    extensions: [...model.extensions, describeMerged(ext, added, methods, resultTypes)],
  };
}

/** What the model records about a merged extension (emitted as EXTENSIONS). */
function describeMerged(
  ext: ExtensionSource,
  added: readonly Declaration[],
  methods: { requests: readonly RequestNode[]; notifications: readonly NotificationNode[] },
  resultTypes: readonly ResultTypeNode[],
): MergedExtension {
  const capability = ext.manifest.capability;
  return {
    id: ext.manifest.id,
    name: ext.manifest.name,
    manifestFile: ext.manifestFile,
    definitions: added.map((d) => d.name),
    requests: sortByMethod(methods.requests).map((r) => ({
      method: r.method,
      direction: r.direction,
    })),
    notifications: sortByMethod(methods.notifications).map((n) => ({
      method: n.method,
      direction: n.direction,
    })),
    ...namesOf(ext, methods.requests),
    resultTypes: resultTypes.filter((t) => t.origin.file === ext.manifestFile).map((t) => t.value),
    ...(capability
      ? {
          capability: {
            ...(capability.definition ? { definition: capability.definition } : {}),
            sides: capability.sides ?? ["client", "server"],
          },
        }
      : {}),
    ...(ext.manifest.undeclared ? { undeclared: ext.manifest.undeclared } : {}),
    ...(ext.manifest.negotiation ? { negotiation: ext.manifest.negotiation } : {}),
  };
}

function sortByMethod<T extends { method: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

/**
 * The extension's own requests and notifications. Extensions have no
 * container unions, so the manifest says who sends what (requests default
 * to client-to-server, notifications to server-to-client), and results
 * follow the manifest or `<Name>Request` → `<Name>Result`.
 */
function extensionMethods(
  ext: ExtensionSource,
  added: readonly Declaration[],
  byName: ReadonlyMap<string, Declaration>,
): { requests: RequestNode[]; notifications: NotificationNode[] } {
  const manifest = ext.manifest;
  const methodOfDecl = (decl: Declaration) => propertyOf(decl.schema, "method", byName)?.const;
  return methodNodes(
    added,
    byName,
    (decl) => {
      const method = methodOfDecl(decl);
      if (typeof method !== "string") return undefined;
      const isRequest =
        Object.hasOwn(manifest.requests ?? {}, method) ||
        (!Object.hasOwn(manifest.notifications ?? {}, method) &&
          (decl.name.endsWith("Request") || propertyOf(decl.schema, "id", byName) !== undefined));
      const declared = isRequest
        ? manifest.requests?.[method]?.direction
        : manifest.notifications?.[method]?.direction;
      return {
        isRequest,
        direction: declared ?? (isRequest ? "client-to-server" : "server-to-client"),
      };
    },
    (decl) => {
      const method = methodOfDecl(decl) as string;
      const result =
        manifest.requests?.[method]?.result ?? `${decl.name.replace(/Request$/, "")}Result`;
      return { results: [{ definition: byName.has(result) ? result : "Result" }] };
    },
  );
}

function checkMethodCollisions(
  model: McpModel,
  ext: ExtensionSource,
  methods: { requests: RequestNode[]; notifications: NotificationNode[] },
  problems: Diagnostic[],
): void {
  const taken = new Map<string, string>(
    [...model.requests, ...model.notifications].map((m) => [
      m.method,
      ownerOfMethod(model, m.definition, m.origin.file),
    ]),
  );
  for (const m of [...methods.requests, ...methods.notifications]) {
    const owner = taken.get(m.method);
    if (owner) problems.push(diagnostic("MCPG609", { method: m.method, owner }, m.origin));
  }
}

/** The params members the extension's requests mirror into Mcp-Name (`requests[m].name`), by method. */
function namesOf(
  ext: ExtensionSource,
  requests: readonly RequestNode[],
): { names?: ReadonlyArray<{ method: string; param: string }> } {
  const names = sortByMethod(requests).flatMap((r) => {
    const param = ext.manifest.requests?.[r.method]?.name;
    return param === undefined ? [] : [{ method: r.method, param }];
  });
  return names.length > 0 ? { names } : {};
}

/** A request's `name` must be a string property of its params: the header mirrors a string. */
function checkNameParameters(
  ext: ExtensionSource,
  requests: readonly RequestNode[],
  byName: ReadonlyMap<string, Declaration>,
  problems: Diagnostic[],
): void {
  for (const [method, entry] of Object.entries(ext.manifest.requests ?? {})) {
    if (entry.name === undefined) continue;
    const request = requests.find((r) => r.method === method);
    const params = request && propertyOf(byName.get(request.definition)?.schema, "params", byName);
    const member = params && propertyOf(params, entry.name, byName);
    if (referencedSchema(member, byName)?.type === "string") continue;
    problems.push(
      diagnostic(
        "MCPG619",
        { method, param: entry.name },
        {
          file: ext.manifestFile,
          pointer: `/requests/${escapePointerSegment(method)}/name`,
        },
      ),
    );
  }
}

/** A schema, or the definition it names when it is only a `$ref` (followed a few times: a name may name another). */
function referencedSchema(
  schema: JsonObject | undefined,
  byName: ReadonlyMap<string, Declaration>,
): JsonObject | undefined {
  let current = schema;
  for (let hops = 0; hops < 4 && current && typeof current.$ref === "string"; hops++) {
    const target = refName(current.$ref);
    const next = target === undefined ? undefined : byName.get(target)?.schema;
    current = isJsonObject(next) ? next : undefined;
  }
  return current;
}

function ownerOfMethod(model: McpModel, definition: string, file: string): string {
  const ext = model.extensions.find((e) => e.definitions.includes(definition));
  return ext ? `extension ${ext.id}` : `the core revision (${file})`;
}

/** `returns`: core methods gain result branches, and their result-response definitions gain the alternatives. */
function addReturns(
  ext: ExtensionSource,
  declarations: Declaration[],
  requests: RequestNode[],
  problems: Diagnostic[],
): { declarations: Declaration[]; requests: RequestNode[] } {
  let decls = declarations;
  let reqs = requests;
  for (const [method, definitions] of Object.entries(ext.manifest.returns ?? {})) {
    const request = reqs.find((r) => r.method === method);
    if (!request) {
      problems.push(
        diagnostic(
          "MCPG614",
          { method },
          { file: ext.manifestFile, pointer: `/returns/${escapePointerSegment(method)}` },
        ),
      );
      continue;
    }
    const branches = definitions
      .filter((d) => !request.results.some((b) => b.definition === d))
      .map((definition) => ({ definition }));
    reqs = reqs.map((r) => (r === request ? { ...r, results: [...r.results, ...branches] } : r));
    const response = request.responseDefinition;
    if (!response) continue;
    decls = decls.map((d) => {
      if (d.name !== response) return d;
      const edited = editSchemas(d, (schema) => {
        const result = isJsonObject(schema.properties) ? schema.properties.result : undefined;
        if (!isJsonObject(result)) return "it has no result property";
        const alternatives = Array.isArray(result.anyOf) ? result.anyOf : [result];
        (schema.properties as JsonObject).result = {
          ...(Array.isArray(result.anyOf) ? result : {}),
          anyOf: [...alternatives, ...branches.map((b) => ref(b.definition))],
        };
        return schema;
      });
      if (typeof edited === "string")
        problems.push(diagnostic("MCPG616", { definition: d.name, why: edited }, d.origin));
      return typeof edited === "string" ? d : edited;
    });
  }
  return { declarations: decls, requests: reqs };
}

/** The capability definition types `capabilities.extensions[<id>]` on the sides the manifest names. */
function addCapability(
  ext: ExtensionSource,
  declarations: Declaration[],
  problems: Diagnostic[],
): Declaration[] {
  const capability = ext.manifest.capability;
  // Without a definition the settings keep the core's open type (Skills' page types none).
  if (!capability?.definition) return declarations;
  const definition = capability.definition;
  const sides = new Set(capability.sides ?? ["client", "server"]);
  const targets = new Set([
    ...(sides.has("client") ? ["ClientCapabilities"] : []),
    ...(sides.has("server") ? ["ServerCapabilities"] : []),
  ]);
  return declarations.map((d) => {
    if (!targets.has(d.name)) return d;
    const edited = editSchemas(d, (schema) => {
      const extensions = isJsonObject(schema.properties) ? schema.properties.extensions : undefined;
      if (!isJsonObject(extensions)) return "it has no extensions property";
      extensions.properties = {
        ...(isJsonObject(extensions.properties) ? extensions.properties : {}),
        [ext.manifest.id]: ref(definition),
      };
      return schema;
    });
    if (typeof edited === "string")
      problems.push(diagnostic("MCPG616", { definition: d.name, why: edited }, d.origin));
    return typeof edited === "string" ? d : edited;
  });
}

/**
 * The extension's resultType values: those its manifest documents and
 * those its definitions pin with a `const`, other than values the revision
 * already has. A value another extension added is a conflict.
 */
function addResultTypes(
  model: McpModel,
  ext: ExtensionSource,
  added: readonly Declaration[],
  problems: Diagnostic[],
): ResultTypeNode[] {
  const byName = new Map([...model.declarations, ...added].map((d) => [d.name, d]));
  const pinnedBy = new Map<string, Declaration>();
  for (const d of added) {
    const value = propertyOf(d.validatorSchema, "resultType", byName)?.const;
    if (typeof value === "string" && !pinnedBy.has(value)) pinnedBy.set(value, d);
  }
  const documented = Object.keys(ext.manifest.resultTypes ?? {});
  // Only the core revision's own values may be pinned again (a result of "complete"); another extension's may not.
  const extensionManifests = new Set(model.extensions.map((e) => e.manifestFile));
  const core = new Set(
    model.resultTypes.filter((t) => !extensionManifests.has(t.origin.file)).map((t) => t.value),
  );
  const fresh = [...new Set([...documented, ...pinnedBy.keys()])].filter(
    (v) => !core.has(v) || documented.includes(v),
  );
  const nodes: ResultTypeNode[] = [];
  for (const value of fresh.sort()) {
    const existing = model.resultTypes.find((t) => t.value === value);
    if (existing) {
      const owner = model.extensions.find((e) => existing.origin.file === e.manifestFile);
      const where = documented.includes(value)
        ? { file: ext.manifestFile, pointer: `/resultTypes/${escapePointerSegment(value)}` }
        : pinnedBy.get(value)!.origin;
      problems.push(
        diagnostic(
          "MCPG608",
          {
            value,
            owner: owner ? `extension ${owner.id}` : `the core revision (${existing.origin.file})`,
          },
          where,
        ),
      );
      continue;
    }
    const doc = ext.manifest.resultTypes?.[value];
    nodes.push({
      kind: "result-type",
      value,
      ...(doc ? { doc } : {}),
      definitions: [],
      origin: { file: ext.manifestFile, pointer: `/resultTypes/${escapePointerSegment(value)}` },
    });
  }
  return [...model.resultTypes, ...nodes];
}

/** `ResultType = "complete" | "input_required" | string` also names the extensions' values. */
function widenResultTypeUnion(
  declarations: Declaration[],
  resultTypes: readonly ResultTypeNode[],
): Declaration[] {
  return declarations.map((d) => {
    if (d.name !== "ResultType" || !d.literalMembers) return d;
    const values = [
      ...d.literalMembers.values,
      ...resultTypes.map((t) => t.value).filter((v) => !d.literalMembers!.values.includes(v)),
    ];
    return { ...d, literalMembers: { ...d.literalMembers, values } };
  });
}

/** The extension's error codes; a code the revision or another extension defines is a conflict. */
function addErrorCodes(
  model: McpModel,
  ext: ExtensionSource,
  byName: ReadonlyMap<string, Declaration>,
  problems: Diagnostic[],
): ErrorCodeNode[] {
  const nodes: ErrorCodeNode[] = [];
  (ext.manifest.errorCodes ?? []).forEach((c, i) => {
    const where = { file: ext.manifestFile, pointer: `/errorCodes/${i}/code` };
    const taken = [...model.errorCodes, ...nodes].find((e) => e.code === c.code);
    if (taken) {
      // An extension's codes carry its manifest as origin; the extension being merged is not in model.extensions yet.
      const owner =
        taken.policy === "extension"
          ? `extension ${model.extensions.find((e) => e.manifestFile === taken.origin.file)?.id ?? ext.manifest.id}`
          : `the core revision (${taken.constant})`;
      problems.push(diagnostic("MCPG611", { code: c.code, owner }, where));
      return;
    }
    const definition = c.definition ? byName.get(c.definition) : undefined;
    const described = definition ? describeErrorDefinition(definition, byName) : undefined;
    nodes.push({
      kind: "error-code",
      name: pascalFromConstant(c.constant),
      constant: c.constant,
      code: c.code,
      policy: "extension",
      revisions: [...ext.manifest.revisions],
      ...(described ? { definition: described } : {}),
      ...(c.doc ? { doc: c.doc } : {}),
      origin: { file: ext.manifestFile, pointer: `/errorCodes/${i}` },
    });
  });
  return [...model.errorCodes, ...nodes].sort((a, b) => b.code - a.code);
}
