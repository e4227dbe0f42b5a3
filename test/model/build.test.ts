/**
 * The build stage on the real revisions: directions, params, results,
 * error codes, capabilities and envelopes, as given/want tables.
 */
import { describe, expect, it } from "vitest";
import { checkSources } from "../../generator/check/check-sources.js";
import { loadSources } from "../../generator/load/load-sources.js";
import { buildModel } from "../../generator/model/build.js";
import { runPasses } from "../../generator/model/passes/index.js";
import type { McpModel } from "../../generator/model/types.js";
import { REVISIONS, testSources } from "../helpers/index.js";

async function model(revision: string, withoutSchemaTs = false): Promise<McpModel> {
  const sources = await loadSources({ spec: revision, sources: testSources(), withoutSchemaTs });
  expect(checkSources(sources)).toEqual([]);
  return runPasses(buildModel(sources).model, {
    patches: sources.patches,
    definitionsKey: sources.schema.definitionsKey,
    extensions: sources.extensions,
  });
}

const models = Object.fromEntries(
  await Promise.all(REVISIONS.map(async (r) => [r, await model(r)] as const)),
);

describe("requests", () => {
  it.each([
    ["2024-11-05", "ping", "both", "PingRequest", ["EmptyResult"]],
    ["2024-11-05", "initialize", "client-to-server", "InitializeRequest", ["InitializeResult"]],
    [
      "2024-11-05",
      "sampling/createMessage",
      "server-to-client",
      "CreateMessageRequest",
      ["CreateMessageResult"],
    ],
    ["2024-11-05", "logging/setLevel", "client-to-server", "SetLevelRequest", ["EmptyResult"]],
    ["2025-06-18", "elicitation/create", "server-to-client", "ElicitRequest", ["ElicitResult"]],
    ["2025-11-25", "tasks/get", "both", "GetTaskRequest", ["GetTaskResult"]],
    ["2026-07-28", "server/discover", "client-to-server", "DiscoverRequest", ["DiscoverResult"]],
    [
      "2026-07-28",
      "tools/call",
      "client-to-server",
      "CallToolRequest",
      ["InputRequiredResult", "CallToolResult"],
    ],
    [
      "2026-07-28",
      "resources/read",
      "client-to-server",
      "ReadResourceRequest",
      ["InputRequiredResult", "ReadResourceResult"],
    ],
    ["2026-07-28", "elicitation/create", "input-request", "ElicitRequest", ["ElicitResult"]],
    ["2026-07-28", "roots/list", "input-request", "ListRootsRequest", ["ListRootsResult"]],
  ] as const)("%s %s: %s, %s → %j", (revision, method, direction, definition, results) => {
    const request = models[revision]!.requests.find((r) => r.method === method);
    expect(request).toMatchObject({ direction, definition });
    expect(request!.results.map((b) => b.definition)).toEqual(results);
  });

  it("only tools/call, prompts/get and resources/read may answer with InputRequiredResult", () => {
    expect(models["2026-07-28"]!.requests.filter((r) => r.mrtr).map((r) => r.method)).toEqual([
      "prompts/get",
      "resources/read",
      "tools/call",
    ]);
    for (const revision of REVISIONS.slice(0, 4))
      expect(models[revision]!.requests.some((r) => r.mrtr)).toBe(false);
  });

  it("pins resultType on the 2026-07-28 results", () => {
    const call = models["2026-07-28"]!.requests.find((r) => r.method === "tools/call")!;
    expect(call.results).toEqual([
      { definition: "InputRequiredResult", resultType: "input_required" },
      { definition: "CallToolResult", resultType: "complete" },
    ]);
    expect(models["2026-07-28"]!.resultTypes.map((t) => [t.value, t.doc?.slice(0, 24)])).toEqual([
      ["complete", "the request completed su"],
      ["input_required", "the request requires add"],
    ]);
  });

  it("records params: named definition and presence", () => {
    const m = models["2026-07-28"]!;
    expect(m.requests.find((r) => r.method === "tools/call")).toMatchObject({
      paramsDefinition: "CallToolRequestParams",
      params: "required",
    });
    expect(models["2024-11-05"]!.requests.find((r) => r.method === "ping")).toMatchObject({
      params: "optional",
    });
    expect(
      models["2024-11-05"]!.requests.find((r) => r.method === "ping")!.paramsDefinition,
    ).toBeUndefined();
  });
});

describe("notifications", () => {
  it.each([
    ["2024-11-05", "notifications/initialized", "client-to-server"],
    ["2024-11-05", "notifications/cancelled", "both"],
    ["2024-11-05", "notifications/message", "server-to-client"],
    ["2026-07-28", "notifications/cancelled", "both"],
    ["2026-07-28", "notifications/subscriptions/acknowledged", "server-to-client"],
  ] as const)("%s %s: %s", (revision, method, direction) => {
    expect(models[revision]!.notifications.find((n) => n.method === method)?.direction).toBe(
      direction,
    );
  });

  it("does not mistake a container for a method definition", () => {
    const m = models["2026-07-28"]!;
    expect(
      m.notifications
        .filter((n) => n.method === "notifications/cancelled")
        .map((n) => n.definition),
    ).toEqual(["CancelledNotification"]);
  });

  it("finds 2026-07-28's inlined ClientNotification without schema.ts too", async () => {
    const bare = await model("2026-07-28", true);
    expect(bare.notifications.find((n) => n.method === "notifications/cancelled")?.direction).toBe(
      "both",
    );
    expect(bare.unknowns.length).toBeGreaterThan(0);
  });
});

describe("declarations", () => {
  it("keeps schema.ts's literal members and deprecations", () => {
    const m = models["2026-07-28"]!;
    expect(m.declarations.find((d) => d.name === "ResultType")?.literalMembers).toEqual({
      values: ["complete", "input_required"],
      open: true,
    });
    expect(m.declarations.find((d) => d.name === "CreateMessageRequest")?.deprecated).toMatch(
      /^Deprecated as of protocol version 2026-07-28/,
    );
    expect(
      m.declarations.find((d) => d.name === "RequestMetaObject")?.deprecatedMembers,
    ).toHaveProperty(["io.modelcontextprotocol~1logLevel"]);
  });

  it("marks types with schema.ts index signatures open, and only those", () => {
    const open = new Set(
      models["2026-07-28"]!.declarations.filter((d) => d.openType).map((d) => d.name),
    );
    expect(open.has("Result")).toBe(true);
    expect(open.has("CallToolResult")).toBe(true);
    expect(open.has("MetaObject")).toBe(true);
    expect(open.has("Tool")).toBe(false);
  });

  it("normalizes draft-07 refs to #/$defs/", () => {
    const ping = models["2024-11-05"]!.declarations.find((d) => d.name === "PingRequest")!;
    expect(JSON.stringify(ping.schema)).not.toContain("#/definitions/");
    expect(ping.origin).toEqual({
      file: "2024-11-05/schema.json",
      pointer: "/definitions/PingRequest",
    });
  });
});

describe("capabilities and envelopes", () => {
  it("lists capability paths of both sides", () => {
    const paths = models["2026-07-28"]!.capabilities.map((c) => `${c.side}:${c.path.join(".")}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "server:tools",
        "server:tools.listChanged",
        "client:elicitation",
        "client:elicitation.form",
        "server:extensions",
      ]),
    );
  });

  it.each([
    [
      "2024-11-05",
      {
        request: "JSONRPCRequest",
        notification: "JSONRPCNotification",
        resultResponse: "JSONRPCResponse",
        errorResponse: "JSONRPCError",
      },
    ],
    [
      "2026-07-28",
      {
        request: "JSONRPCRequest",
        notification: "JSONRPCNotification",
        resultResponse: "JSONRPCResultResponse",
        errorResponse: "JSONRPCErrorResponse",
      },
    ],
  ] as const)("%s envelopes", (revision, want) => {
    expect(models[revision]!.envelopes).toEqual(want);
  });
});
