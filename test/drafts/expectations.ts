/**
 * What each draft state of the spec in ../shared/mcp-schema/drafts/ says,
 * written from its own schema.ts (not from mcp-gen's output):
 *
 * - `mrtr`: the methods that may answer with the MRTR result. From
 *   2026-03-09 on, the `<X>ResultResponse`s whose `result` names it
 *   (`IncompleteResult`, later `InputRequiredResult`); in 2026-02-23 it
 *   comes in an envelope of its own (`JSONRPCIncompleteResultResponse`, a
 *   member of `JSONRPCResponse`) for any request whose params extend
 *   `RequestParams` (which carries `inputResponses` and `requestState`),
 *   and `GetTaskPayloadResultResponse` names that envelope for tasks/result.
 * - `mrtrResultType`: the `ResultType` literal whose doc links the MRTR
 *   result; absent where the draft has no `ResultType`.
 * - `resultTypes`: the `ResultType` union's literals; a draft without one
 *   has only the implicit "complete".
 * - `errorCodes`: the `export const X = -32...` constants.
 * - `discriminant`: 2026-03-09 names the property `result_type`.
 *
 * A folder added to drafts/ later is generated and compiled by the test
 * with no change here; the test then fails saying its expectation is
 * missing, until one is written below.
 */
export interface DraftExpectation {
  readonly mrtr: readonly string[];
  readonly mrtrResultType?: string;
  readonly resultTypes: readonly string[];
  readonly errorCodes: readonly number[];
  /** The MRTR result's definition name (for a parse check), when there is one. */
  readonly mrtrResult?: string;
  /** The property that carries the literal on the wire, when it is not `resultType` (2026-03-09: `result_type`). */
  readonly discriminant?: string;
}

const JSON_RPC = [-32700, -32600, -32601, -32602, -32603];

export const EXPECTATIONS: Readonly<Record<string, DraftExpectation>> = {
  "2025-12-31-fad9db41": {
    mrtr: [],
    resultTypes: ["complete"],
    errorCodes: [...JSON_RPC, -32042],
  },
  "2026-02-23-ac8b3e6b": {
    // ClientRequest members whose params extend RequestParams, and tasks/result by name.
    mrtr: [
      "completion/complete",
      "initialize",
      "logging/setLevel",
      "ping",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/subscribe",
      "resources/templates/list",
      "resources/unsubscribe",
      "tasks/input_response",
      "tasks/list",
      "tasks/result",
      "tools/call",
      "tools/list",
    ],
    mrtrResult: "IncompleteResult",
    resultTypes: ["complete"],
    errorCodes: [...JSON_RPC, -32042],
  },
  "2026-03-09-a6eaf22a": {
    mrtr: [
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "tasks/result",
      "tools/call",
      "tools/list",
    ],
    mrtrResult: "IncompleteResult",
    mrtrResultType: "incomplete",
    discriminant: "result_type",
    resultTypes: ["complete", "incomplete"],
    errorCodes: JSON_RPC,
  },
  "2026-04-14-4f206f70": {
    mrtr: ["prompts/get", "resources/read", "tasks/result", "tools/call"],
    mrtrResult: "IncompleteResult",
    mrtrResultType: "incomplete",
    resultTypes: ["complete", "incomplete"],
    errorCodes: JSON_RPC,
  },
  "2026-05-06-0d217bba": {
    mrtr: [],
    resultTypes: ["complete"],
    errorCodes: [...JSON_RPC, -32042],
  },
  "2026-05-27-906af9df": {
    mrtr: ["prompts/get", "resources/read", "tools/call"],
    mrtrResult: "InputRequiredResult",
    mrtrResultType: "input_required",
    resultTypes: ["complete", "input_required"],
    errorCodes: [...JSON_RPC, -32003, -32004],
  },
  "2026-06-23-2ffc3fa2": {
    mrtr: ["prompts/get", "resources/read", "tools/call"],
    mrtrResult: "InputRequiredResult",
    mrtrResultType: "input_required",
    resultTypes: ["complete", "input_required"],
    errorCodes: [...JSON_RPC, -32020, -32021, -32022],
  },
};
