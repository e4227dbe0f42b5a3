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
import {
  block,
  expandedObject,
  firstFitting,
  indent,
  list,
  stringLiteral as literal,
  unionAlias,
} from "./layout.js";
import { jsDoc, propertyKey, resultUnionName } from "./names.js";
import { RESULT_TYPES_FILE, SUPPORT_MODULE, TYPES_FILE, moduleSpecifier } from "./paths.js";

/** Emits `result-types.gen.ts`, laid out as prettier would (see layout.ts). */
export function emitResultTypes(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(RESULT_TYPES_FILE)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(SUPPORT_MODULE, "resultTypeWith");
  const values = model.resultTypes.map((t) => t.value);
  file.add(
    `${jsDoc("Every resultType this revision (with its extensions) defines, in declaration order.")}${list(0, "export const RESULT_TYPES = ", "[", values.map(literal), "]", " as const;", false)}`,
  );
  file.add(
    `${jsDoc("A resultType this revision defines.")}export type KnownResultType = (typeof RESULT_TYPES)[number];`,
  );
  file.add(resultTypeInfo(model));
  const requests = model.requests.filter((r) => r.direction !== "input-request");
  for (const request of requests) file.add(resultUnion(request));
  file.add(
    `${jsDoc("What each request method may return, discriminated on resultType.")}export interface ResultByMethod ${block(requests.map((r) => `  ${propertyKey(r.method)}: ${resultUnionName(r)};`))}`,
  );
  file.add(
    `${jsDoc(
      'The resultType of a result, per the spec: a missing resultType is `"complete"` (results from servers of earlier revisions); an unrecognized one is invalid and yields `undefined`.',
    )}export function resultTypeOf(result: unknown): KnownResultType | undefined {\n  return resultTypeWith(RESULT_TYPES, result);\n}`,
  );
  return file.build(bannerText);
}

const RESULT_TYPE_INFO_TYPE = `${jsDoc("What RESULT_TYPE_INFO records of a resultType.")}export interface ResultTypeInfo {
  readonly doc: string;
  readonly definitions: readonly string[];
}`;

function resultTypeInfo(model: McpModel): string {
  const entries = model.resultTypes.map(
    (t) =>
      [
        propertyKey(t.value),
        {
          object: [
            ["doc", literal(t.doc ?? "")],
            ["definitions", { array: t.definitions.map(literal) }],
          ],
        },
      ] as const,
  );
  return `${RESULT_TYPE_INFO_TYPE}\n\n${jsDoc("What each resultType means and which result definitions carry it.")}export const RESULT_TYPE_INFO: { readonly [K in KnownResultType]: ResultTypeInfo } = ${expandedObject(entries)};`;
}

/**
 * A request's result union. Each branch pinned to a resultType is an
 * intersection with an object type, which prettier breaks inside its
 * braces before it moves a lone branch below the `=`.
 */
export function resultUnion(request: RequestNode): string {
  const doc = jsDoc(
    `What \`${request.method}\` may return${request.results.some((b) => b.resultType) ? ", discriminated on resultType" : ""}.`,
  );
  const alias = `export type ${resultUnionName(request)}`;
  const head = `${alias} =`;
  const pinned = (definition: string, resultType: string, depth: number) => [
    `T.${definition} & { resultType: ${literal(resultType)} }`,
    `T.${definition} & {\n${indent(`resultType: ${literal(resultType)};`, depth + 1)}\n${indent("}", depth)}`,
  ];
  if (request.results.length === 1) {
    const [only] = request.results;
    if (only!.resultType === undefined)
      return `${doc}${firstFitting(`${head} T.${only!.definition};`, `${head}\n  T.${only!.definition};`)}`;
    const [flat, broken] = pinned(only!.definition, only!.resultType, 0);
    const [, brokenBelow] = pinned(only!.definition, only!.resultType, 1);
    return `${doc}${firstFitting(`${head} ${flat};`, `${head} ${broken};`, `${head}\n  ${flat};`, `${head}\n  ${brokenBelow};`)}`;
  }
  const members = request.results.map((b) =>
    b.resultType === undefined
      ? [`T.${b.definition}`, `T.${b.definition}`]
      : pinned(b.definition, b.resultType, 1).map((t) => `(${t})`),
  );
  return `${doc}${unionAlias(
    alias,
    members.map(([flat]) => flat!),
    members.map(([, broken]) => broken!),
  )}`;
}
