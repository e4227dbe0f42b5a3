/**
 * emitResultTypes: the resultType set, each method's result union
 * discriminated on resultType, and `resultTypeOf`.
 *
 *   tools/call → export type CallToolRequestResult =
 *     | (T.InputRequiredResult & { resultType: "input_required" })
 *     | (T.CallToolResult & { resultType: "complete" });
 */
import type { McpModel, RequestNode } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { jsDoc, literal, propertyKey, stringArray } from "./names.js";
import { RESULT_TYPES_FILE, SUPPORT_MODULE, TYPES_FILE, moduleSpecifier } from "./paths.js";


/** The name of a request's result union: `CallToolRequest` → `CallToolRequestResult`. */
export function resultUnionName(request: RequestNode): string {
  return `${request.definition}Result`;
}

/** Emits `result-types.gen.ts`. */
export function emitResultTypes(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(RESULT_TYPES_FILE)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(SUPPORT_MODULE, "resultTypeWith");
  const values = model.resultTypes.map((t) => t.value);
  file.add(`${jsDoc("Every resultType this revision (with its extensions) defines, in declaration order.")}export const RESULT_TYPES = ${stringArray(values)} as const;`);
  file.add(`${jsDoc("A resultType this revision defines.")}export type KnownResultType = (typeof RESULT_TYPES)[number];`);
  file.add(resultTypeInfo(model));
  const requests = model.requests.filter((r) => r.direction !== "input-request");
  for (const request of requests) file.add(resultUnion(request));
  file.add(
    `${jsDoc("What each request method may return, discriminated on resultType.")}export interface ResultByMethod {\n${requests.map((r) => `  ${propertyKey(r.method)}: ${resultUnionName(r)};`).join("\n")}\n}`,
  );
  file.add(
    `${jsDoc(
      "The resultType of a result, per the spec: a missing resultType is `\"complete\"` (results from servers of earlier revisions); an unrecognized one is invalid and yields `undefined`.",
    )}export function resultTypeOf(result: unknown): KnownResultType | undefined {\n  return resultTypeWith(RESULT_TYPES, result);\n}`,
  );
  return file.build(bannerText);
}

function resultTypeInfo(model: McpModel): string {
  const entries = model.resultTypes.map(
    (t) => `  ${propertyKey(t.value)}: { doc: ${literal(t.doc ?? "")}, definitions: ${stringArray(t.definitions)} },`,
  );
  return `${jsDoc("What each resultType means and which result definitions carry it.")}export const RESULT_TYPE_INFO: { readonly [K in KnownResultType]: { readonly doc: string; readonly definitions: readonly string[] } } = {\n${entries.join("\n")}\n};`;
}

function resultUnion(request: RequestNode): string {
  const branches = request.results.map((b) => (b.resultType === undefined ? `T.${b.definition}` : `(T.${b.definition} & { resultType: ${literal(b.resultType)} })`));
  const doc = jsDoc(`What \`${request.method}\` may return${request.results.some((b) => b.resultType) ? ", discriminated on resultType" : ""}.`);
  return `${doc}export type ${resultUnionName(request)} = ${branches.length > 1 ? branches.map((b) => `\n  | ${b}`).join("") : branches[0]};`;
}
