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
import { jsDoc, propertyKey, resultUnionName } from "./names.js";
import {
  RESULT_TYPES_FILE,
  SUPPORT_MODULE,
  TYPES_FILE,
  moduleSpecifier,
} from "../model/output-names.js";
import {
  arrayLiteral,
  printCode,
  printDeclaration,
  printInterface,
  stringLiteral as literal,
  tableLiteral,
} from "./ts-print.js";
import type { TsType } from "./ts-type.js";

/** Emits `result-types.gen.ts`. */
export function emitResultTypes(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(RESULT_TYPES_FILE)
    .importNamespace(moduleSpecifier(TYPES_FILE), "T", true)
    .importValues(SUPPORT_MODULE, "resultTypeWith");
  const values = model.resultTypes.map((t) => t.value);
  file.add(
    `${jsDoc("Every resultType this revision (with its extensions) defines, in declaration order.")}${printCode(
      ["export const RESULT_TYPES = ", arrayLiteral(values.map(literal)), " as const;"],
    )}`,
  );
  file.add(
    `${jsDoc("A resultType this revision defines.")}export type KnownResultType = (typeof RESULT_TYPES)[number];`,
  );
  if (model.mrtrResultType !== undefined)
    file.add(
      `${jsDoc("The resultType of this revision's MRTR result (Multi Round-Trip Requests), read from the schema: the runtime answers and recognises input requests with it.")}export const MRTR_RESULT_TYPE = ${literal(model.mrtrResultType)};`,
    );
  file.add(resultTypeInfo(model));
  const requests = model.requests.filter((r) => r.direction !== "input-request");
  for (const request of requests) file.add(resultUnion(request));
  file.add(
    `${jsDoc("What each request method may return, discriminated on resultType.")}${printInterface(
      "ResultByMethod",
      requests.map((r) => [propertyKey(r.method), resultUnionName(r)] as const),
    )}`,
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
  return `${RESULT_TYPE_INFO_TYPE}\n\n${jsDoc("What each resultType means and which result definitions carry it.")}export const RESULT_TYPE_INFO: { readonly [K in KnownResultType]: ResultTypeInfo } = ${printCode(tableLiteral(entries))};`;
}

/**
 * A request's result union: each result definition, intersected with
 * its resultType where the schema pins one.
 */
export function resultUnion(request: RequestNode): string {
  const doc = jsDoc(
    `What \`${request.method}\` may return${request.results.some((b) => b.resultType) ? ", discriminated on resultType" : ""}.`,
  );
  const branches = request.results.map((b): TsType => {
    const definition: TsType = { kind: "name", name: `T.${b.definition}` };
    if (b.resultType === undefined) return definition;
    const pin: TsType = {
      kind: "object",
      inline: true,
      members: [
        { key: "resultType", optional: false, type: { kind: "literal", value: b.resultType } },
      ],
    };
    return { kind: "intersection", members: [definition, pin] };
  });
  const type: TsType = branches.length === 1 ? branches[0]! : { kind: "union", members: branches };
  return `${doc}${printDeclaration({ name: resultUnionName(request), form: "alias", type })}`;
}
