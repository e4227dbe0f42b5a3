/**
 * emitMethods: the METHODS and NOTIFICATIONS tables, method → type maps,
 * and METHOD_AVAILABILITY across the known revisions.
 */
import type { McpModel, NotificationNode, RequestNode } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import {
  printCode,
  printInterface,
  stringLiteral as literal,
  tableLiteral,
  type TableValue,
} from "./ts-print.js";
import { branchKey, jsDoc, propertyKey } from "./names.js";
import {
  METHODS_FILE,
  RESULT_TYPES_FILE,
  TYPES_FILE,
  moduleSpecifier,
} from "../model/output-names.js";

const INFO_TYPES = `${jsDoc("Who sends a message. `input-request`: the server asks the client inside an InputRequiredResult (MRTR).")}export type Direction = "client-to-server" | "server-to-client" | "both" | "input-request";

${jsDoc("What the METHODS table records of a request method.")}export interface MethodInfo {
  readonly method: string;
  readonly direction: Direction;
  /** The request definition. */
  readonly request: string;
  /** The named params definition, if the schema has one. */
  readonly params?: string;
  /** Whether requests carry params: always, optionally, or never. */
  readonly paramsPresence: "required" | "optional" | "absent";
  /** Result definitions by the resultType that selects them. */
  readonly results: { readonly [resultType: string]: string };
  /** True when the method may answer with an InputRequiredResult (Multi Round-Trip Requests). */
  readonly mrtr: boolean;
  readonly deprecated?: string;
}

${jsDoc("What the NOTIFICATIONS table records of a notification method.")}export interface NotificationInfo {
  readonly method: string;
  readonly direction: Direction;
  readonly notification: string;
  readonly params?: string;
  readonly paramsPresence: "required" | "optional" | "absent";
  readonly deprecated?: string;
}`;

/** Emits `methods.gen.ts`. */
export function emitMethods(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(METHODS_FILE)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importTypes(moduleSpecifier(RESULT_TYPES_FILE), "ResultByMethod");
  file.add(INFO_TYPES);
  file.add(
    `${jsDoc("Every request method of this revision.")}export const METHODS = ${printCode(tableLiteral(model.requests.map(methodEntry)))} as const satisfies { readonly [method: string]: MethodInfo };`,
  );
  file.add(
    `${jsDoc("Every notification method of this revision.")}export const NOTIFICATIONS = ${printCode(tableLiteral(model.notifications.map(notificationEntry)))} as const satisfies { readonly [method: string]: NotificationInfo };`,
  );
  file.add(
    `${jsDoc("A request method of this revision.")}export type RequestMethod = keyof typeof METHODS;`,
  );
  file.add(
    `${jsDoc("A notification method of this revision.")}export type NotificationMethod = keyof typeof NOTIFICATIONS;`,
  );
  file.add(
    typeMap(
      "The request type of each request method.",
      "RequestByMethod",
      model.requests,
      (r) => `T.${r.definition}`,
    ),
  );
  file.add(
    typeMap(
      "The params type of each request method.",
      "ParamsByMethod",
      model.requests,
      paramsType,
    ),
  );
  file.add(
    typeMap(
      "The notification type of each notification method.",
      "NotificationByMethod",
      model.notifications,
      (n) => `T.${n.definition}`,
    ),
  );
  file.add(
    typeMap(
      "The params type of each notification method.",
      "NotificationParamsByMethod",
      model.notifications,
      paramsType,
    ),
  );
  file.add(
    `${jsDoc("The result union of a request method (wire requests only; input requests are answered inside inputResponses).")}export type ResultOf<M extends keyof ResultByMethod> = ResultByMethod[M];`,
  );
  file.add(availability(model));
  return file.build(bannerText);
}

type Entry = readonly [key: string, value: TableValue];

function methodEntry(r: RequestNode): Entry {
  const results: Entry[] = r.results.map((b) => [propertyKey(branchKey(b)), literal(b.definition)]);
  return tableEntry(r, "request", [
    ["results", { object: results }],
    ["mrtr", String(r.mrtr)],
  ]);
}

function notificationEntry(n: NotificationNode): Entry {
  return tableEntry(n, "notification", []);
}

/** The fields requests and notifications share, in table order, with `extra` before `deprecated`. */
function tableEntry(
  node: RequestNode | NotificationNode,
  definitionKey: string,
  extra: readonly Entry[],
): Entry {
  const fields: Entry[] = [
    ["method", literal(node.method)],
    ["direction", literal(node.direction)],
    [definitionKey, literal(node.definition)],
    ...(node.paramsDefinition ? [["params", literal(node.paramsDefinition)] as const] : []),
    ["paramsPresence", literal(node.params)],
    ...extra,
    ...(node.deprecated !== undefined ? [["deprecated", literal(node.deprecated)] as const] : []),
  ];
  return [propertyKey(node.method), { object: fields }];
}

function paramsType(node: RequestNode | NotificationNode): string {
  return node.params === "absent" ? "undefined" : `T.${node.definition}["params"]`;
}

function typeMap<N extends { method: string }>(
  doc: string,
  name: string,
  nodes: readonly N[],
  type: (n: N) => string,
): string {
  return `${jsDoc(doc)}${printInterface(
    name,
    nodes.map((n) => [propertyKey(n.method), type(n)] as const),
  )}`;
}

/** For every method and notification of any known revision, the revisions that define it. */
function availability(model: McpModel): string {
  const byMethod = new Map<string, string[]>();
  for (const summary of model.revisions) {
    for (const method of [...summary.methods, ...summary.notifications])
      byMethod.set(method, [...(byMethod.get(method) ?? []), summary.revision]);
  }
  const entries = [...byMethod.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([m, revs]): Entry => [propertyKey(m), { array: revs.map(literal) }]);
  return `${jsDoc("For every request and notification method of any known revision, the revisions that define it (oldest first).")}export const METHOD_AVAILABILITY: { readonly [method: string]: readonly string[] } = ${printCode(tableLiteral(entries))};`;
}
