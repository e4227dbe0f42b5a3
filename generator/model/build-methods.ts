/**
 * Requests and notifications: which definition defines each method, who
 * sends it, its params, and the result definitions it may return.
 *
 * Direction comes from MCP's container unions, whose names every revision
 * shares: ClientRequest / ServerRequest / ClientNotification /
 * ServerNotification, and, from 2026-07-28, InputRequest (requests the
 * server carries inside an InputRequiredResult). Their members come from
 * schema.ts when present, else from the `anyOf` in schema.json.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../load/json.js";
import type { SourceSet } from "../load/types.js";
import { refName } from "./build-declarations.js";
import type {
  Declaration,
  Direction,
  NotificationNode,
  ParamsPresence,
  RequestNode,
  ResultBranch,
} from "./types.js";

const REQUEST_CONTAINERS = {
  ClientRequest: "client",
  ServerRequest: "server",
  InputRequest: "input",
} as const;
const NOTIFICATION_CONTAINERS = {
  ClientNotification: "client",
  ServerNotification: "server",
} as const;
type Sender = "client" | "server" | "input";

/** Requests and notifications of a revision, sorted by method, plus any warnings. */
export function buildMethods(
  declarations: readonly Declaration[],
  sources: SourceSet,
): {
  requests: RequestNode[];
  notifications: NotificationNode[];
  diagnostics: Diagnostic[];
  inferences: string[];
} {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const containerNames = new Set([
    ...Object.keys(REQUEST_CONTAINERS),
    ...Object.keys(NOTIFICATION_CONTAINERS),
  ]);
  const senders = containerMembership(byName, sources);
  const diagnostics: Diagnostic[] = [];
  const classify: MethodClassifier = (decl) => {
    if (containerNames.has(decl.name)) return undefined;
    const sent = senders.get(decl.name) ?? new Set<Sender>();
    const isRequest =
      sent.has("input") || decl.name.endsWith("Request") || hasRequestId(decl, byName);
    return { isRequest, direction: directionOf(sent) };
  };
  const nodes = methodNodes(declarations, byName, classify, (decl) =>
    resultsOf(decl, byName, diagnostics),
  );
  const folded = foldInputForms(nodes.requests);
  return {
    requests: folded.requests,
    notifications: nodes.notifications,
    diagnostics,
    inferences: folded.inferences,
  };
}

/**
 * Drafts of 2026 (February) define a server request twice: as a JSON-RPC
 * request (`ElicitRequest`, a ServerRequest member) and as the same method
 * and params without `jsonrpc` and `id` (`ElicitationInputRequest`, an
 * InputRequest member) for the server to carry inside an MRTR result. Both
 * are one method: the wire definition is the method's, the other stays a
 * declaration (its type and validator are still emitted), and a note says
 * so. Two definitions whose params differ are not folded: the model check
 * refuses them (MCPG401).
 */
export function foldInputForms(requests: readonly RequestNode[]): {
  requests: RequestNode[];
  inferences: string[];
} {
  const inferences: string[] = [];
  const dropped = new Set<RequestNode>();
  for (const inner of requests.filter((r) => r.direction === "input-request")) {
    const twins = requests.filter((r) => r.method === inner.method && r !== inner);
    const wire = twins.length === 1 ? twins[0]! : undefined;
    if (!wire || wire.direction === "input-request" || !sameParams(wire, inner)) continue;
    dropped.add(inner);
    inferences.push(
      `${inner.definition} is "${inner.method}" as carried inside a result (no jsonrpc, no id; the same params as ${wire.definition}); the method's definition is ${wire.definition}`,
    );
  }
  return { requests: requests.filter((r) => !dropped.has(r)), inferences };
}

function sameParams(a: RequestNode, b: RequestNode): boolean {
  return (
    a.params === b.params &&
    a.paramsDefinition !== undefined &&
    a.paramsDefinition === b.paramsDefinition
  );
}

/** How a method definition is classified: request or notification, and who sends it. */
export type MethodClassifier = (
  decl: Declaration,
) => { isRequest: boolean; direction: Direction } | undefined;

/** What a request may return, and the `<X>ResultResponse` definition that says so, if any. */
export interface RequestResults {
  readonly results: ResultBranch[];
  readonly response?: string;
}

/**
 * The method nodes of `declarations` (each with a `method` const),
 * classified by `classify`; `resultsFor` names a request's results.
 * Shared by a revision and its extensions, which classify differently.
 */
export function methodNodes(
  declarations: readonly Declaration[],
  byName: ReadonlyMap<string, Declaration>,
  classify: MethodClassifier,
  resultsFor: (decl: Declaration) => RequestResults,
): { requests: RequestNode[]; notifications: NotificationNode[] } {
  const requests: RequestNode[] = [];
  const notifications: NotificationNode[] = [];
  for (const decl of declarations) {
    const method = methodOf(decl, byName);
    const kind = method === undefined ? undefined : classify(decl);
    if (method === undefined || !kind) continue;
    const params = paramsOf(decl, byName);
    const common = {
      method,
      definition: decl.name,
      ...(params.definition ? { paramsDefinition: params.definition } : {}),
      params: params.presence,
      ...(decl.deprecated !== undefined ? { deprecated: decl.deprecated } : {}),
      origin: decl.origin,
    };
    if (kind.isRequest) {
      const { results, response } = resultsFor(decl);
      requests.push({
        kind: "request",
        ...common,
        direction: kind.direction,
        results,
        ...(response ? { responseDefinition: response } : {}),
        mrtr: false,
      });
    } else {
      notifications.push({ kind: "notification", ...common, direction: kind.direction });
    }
  }
  return { requests: sortByMethod(requests), notifications: sortByMethod(notifications) };
}

function sortByMethod<T extends { method: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

function directionOf(sent: ReadonlySet<Sender>): Direction {
  if (sent.has("input")) return "input-request";
  if (sent.has("client") && sent.has("server")) return "both";
  if (sent.has("server")) return "server-to-client";
  return "client-to-server";
}

/** For each definition, which containers list it. */
function containerMembership(
  byName: ReadonlyMap<string, Declaration>,
  sources: SourceSet,
): Map<string, Set<Sender>> {
  const out = new Map<string, Set<Sender>>();
  const containers = { ...REQUEST_CONTAINERS, ...NOTIFICATION_CONTAINERS } as Record<
    string,
    Sender
  >;
  for (const [container, sender] of Object.entries(containers)) {
    for (const member of containerMembers(container, byName, sources)) {
      if (!out.has(member)) out.set(member, new Set());
      out.get(member)!.add(sender);
    }
  }
  return out;
}

/**
 * Members of a container union. schema.json inlines a one-member union
 * (2026-07-28's ClientNotification is a copy of CancelledNotification), so
 * without schema.ts such a container is matched to the definition it equals.
 */
function containerMembers(
  container: string,
  byName: ReadonlyMap<string, Declaration>,
  sources: SourceSet,
): string[] {
  const union = sources.schemaTs?.unions[container];
  if (union) return union.members.flatMap((m) => (m.kind === "reference" ? [m.name] : []));
  const decl = byName.get(container);
  if (!decl || typeof decl.schema !== "object") return [];
  const branches = decl.schema.anyOf ?? decl.schema.oneOf;
  if (Array.isArray(branches))
    return branches.flatMap((b) => (isJsonObject(b) && refName(b.$ref) ? [refName(b.$ref)!] : []));
  const single = refName(decl.schema.$ref);
  if (single) return [single];
  const twin = [...byName.values()].find(
    (d) => d.name !== container && jsonEqual(stripDoc(d.schema), stripDoc(decl.schema)),
  );
  return twin ? [twin.name] : [];
}

function stripDoc(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const { description: _d, ...rest } = schema;
  return rest;
}

/** The `method` const of a definition, looking through `allOf` (extension style) too. */
export function methodOf(
  decl: Declaration,
  byName: ReadonlyMap<string, Declaration>,
): string | undefined {
  const method = propertyOf(decl.schema, "method", byName);
  return method && typeof method.const === "string" ? method.const : undefined;
}

/** A property schema, found directly, in an `allOf` member, or through a `$ref` (a few levels deep). */
export function propertyOf(
  schema: unknown,
  property: string,
  byName: ReadonlyMap<string, Declaration>,
  depth = 0,
): JsonObject | undefined {
  if (!isJsonObject(schema) || depth > 4) return undefined;
  if (Array.isArray(schema.allOf)) {
    // Later allOf members refine earlier ones (`JSONRPCRequest`, then `{method: {const}}`): search from the end.
    for (const member of [...schema.allOf].reverse()) {
      const found = propertyOf(member, property, byName, depth + 1);
      if (found) return found;
    }
  }
  const direct = isJsonObject(schema.properties) ? schema.properties[property] : undefined;
  if (isJsonObject(direct)) return direct;
  const target = refName(schema.$ref);
  return target ? propertyOf(byName.get(target)?.schema, property, byName, depth + 1) : undefined;
}

function hasRequestId(decl: Declaration, byName: ReadonlyMap<string, Declaration>): boolean {
  return propertyOf(decl.schema, "id", byName) !== undefined;
}

function paramsOf(
  decl: Declaration,
  byName: ReadonlyMap<string, Declaration>,
): { definition?: string; presence: ParamsPresence } {
  const params = propertyOf(decl.schema, "params", byName);
  if (!params) return { presence: "absent" };
  const definition = refName(params.$ref);
  const presence = isRequired(decl.schema, "params", byName) ? "required" : "optional";
  return { ...(definition ? { definition } : {}), presence };
}

/** Whether `property` is in a `required` list of the schema or of one of its allOf members or references. */
export function isRequired(
  schema: unknown,
  property: string,
  byName: ReadonlyMap<string, Declaration>,
  depth = 0,
): boolean {
  if (!isJsonObject(schema) || depth > 4) return false;
  if (Array.isArray(schema.required) && schema.required.includes(property)) return true;
  if (
    Array.isArray(schema.allOf) &&
    schema.allOf.some((m) => isRequired(m, property, byName, depth + 1))
  )
    return true;
  const target = refName(schema.$ref);
  return target ? isRequired(byName.get(target)?.schema, property, byName, depth + 1) : false;
}

/**
 * The result definitions a `<X>ResultResponse` names: its `result`'s refs,
 * or, when the response is a union of envelopes (a draft's
 * `JSONRPCIncompleteResultResponse | JSONRPCResultResponse & {result: X}`),
 * each member's.
 */
function responseResults(schema: unknown, byName: ReadonlyMap<string, Declaration>): string[] {
  if (!isJsonObject(schema)) return [];
  const direct = isJsonObject(schema.properties) ? schema.properties.result : undefined;
  const result = isJsonObject(direct)
    ? direct
    : Array.isArray(schema.anyOf)
      ? undefined
      : propertyOf(schema, "result", byName);
  if (result) {
    const refs = Array.isArray(result.anyOf) ? result.anyOf : [result];
    return refs.flatMap((r) => (isJsonObject(r) && refName(r.$ref) ? [refName(r.$ref)!] : []));
  }
  if (!Array.isArray(schema.anyOf)) return [];
  return schema.anyOf.flatMap((member) => {
    const own = propertyOf(member, "result", byName);
    return own && refName(own.$ref) ? [refName(own.$ref)!] : [];
  });
}

/**
 * What a request may return. 2026-07-28 names it: `<X>ResultResponse`'s
 * `result` lists the definitions. Earlier revisions pair `<X>Request` with
 * `<X>Result`, and requests with no result of their own (ping,
 * logging/setLevel, resources/subscribe) return EmptyResult.
 */
function resultsOf(
  decl: Declaration,
  byName: ReadonlyMap<string, Declaration>,
  diagnostics: Diagnostic[],
): RequestResults {
  const base = decl.name.replace(/Request$/, "");
  const response = byName.get(`${base}ResultResponse`);
  if (response && typeof response.schema === "object") {
    const names = responseResults(response.schema, byName);
    if (names.length > 0)
      return { results: names.map((definition) => ({ definition })), response: response.name };
  }
  for (const candidate of [`${base}Result`, "EmptyResult"]) {
    if (byName.has(candidate)) return { results: [{ definition: candidate }] };
  }
  diagnostics.push(diagnostic("MCPG402", { request: decl.name }, decl.origin));
  return { results: [{ definition: byName.has("EmptyResult") ? "EmptyResult" : "Result" }] };
}
