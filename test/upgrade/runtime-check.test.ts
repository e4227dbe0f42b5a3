/**
 * The upgrade's runtime check on its own: the messages the runtime builds,
 * Tasks' included, against a revision's definitions. With the Tasks
 * extension the task a tool call creates and tasks/get's answer are
 * checked beside the core messages; without it they are skipped, since the
 * runtime never sends them there. A target whose GetTaskResult requires a
 * field the runtime does not set is named with the message and the field;
 * a target without a definition for a message the runtime sends (here
 * DiscoverResult) cannot be served, and says so.
 */
import { describe, expect, it } from "vitest";
import { loadModel } from "../../generator/index.js";
import type { McpModel } from "../../generator/model/types.js";
import { checkRuntimeMessages } from "../../generator/upgrade/runtime-check.js";
import { testSources } from "../helpers/index.js";

const CORE = [
  "error response (-32601, unknown method)",
  "error response (-32602, invalid params)",
  "invalid-arguments result (tools/call)",
  "discover result (server/discover)",
  "MRTR result (tools/call asking for input)",
];
const TASKS = ["task created (tools/call as a task)", "task result (tasks/get)"];

async function model(extensions: string[]): Promise<McpModel> {
  return (await loadModel({ spec: "2026-07-28", extensions, sources: testSources() })).model;
}

/** `model` with one more required property on a definition's validator schema. */
function requiring(base: McpModel, definition: string, property: string): McpModel {
  return {
    ...base,
    declarations: base.declarations.map((d) => {
      if (d.name !== definition) return d;
      const schema = d.validatorSchema as Record<string, unknown>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      return {
        ...d,
        validatorSchema: {
          ...schema,
          properties: {
            ...(schema.properties as object),
            [property]: { type: "string" },
          },
          required: [...required, property],
        },
      };
    }),
  };
}

describe("the upgrade's runtime check", () => {
  it("with Tasks: the task messages are checked beside the core ones, and all are valid", async () => {
    const check = await checkRuntimeMessages(await model(["tasks"]));
    expect(check.checked.map((c) => c.message)).toEqual([...CORE, ...TASKS]);
    expect(check.checked.slice(-2).map((c) => c.definition)).toEqual([
      "CreateTaskResult",
      "GetTaskResult",
    ]);
    expect(check.skipped).toEqual([]);
    expect(check.problems).toEqual([]);
  });

  it("without Tasks: the task messages are skipped, the core ones checked", async () => {
    const check = await checkRuntimeMessages(await model([]));
    expect(check.checked.map((c) => c.message)).toEqual(CORE);
    expect(check.skipped).toEqual(TASKS);
    expect(check.problems).toEqual([]);
  });

  it("a GetTaskResult that requires a field the runtime does not set is named with tasks/get's answer", async () => {
    const check = await checkRuntimeMessages(
      requiring(await model(["tasks"]), "GetTaskResult", "lastTouched"),
    );
    expect(check.problems).toEqual([
      {
        message: "task result (tasks/get)",
        definition: "GetTaskResult",
        field: "/lastTouched",
        requiredBy: "GetTaskResult.lastTouched",
        reason:
          "GetTaskResult.lastTouched is required by the target revision, and the runtime does not set it",
      },
    ]);
  });

  it("a target without DiscoverResult cannot take the discover result the runtime sends", async () => {
    const base = await model([]);
    const check = await checkRuntimeMessages({
      ...base,
      declarations: base.declarations.filter((d) => d.name !== "DiscoverResult"),
    });
    expect(check.problems).toEqual([
      {
        message: "discover result (server/discover)",
        definition: "DiscoverResult",
        field: "",
        reason: "the target revision defines no DiscoverResult, and the runtime sends this message",
      },
    ]);
  });
});
