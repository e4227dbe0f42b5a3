/**
 * `mcp-gen types`: the module over the official SDK's client and the
 * code-mode API description, made from a fixture of 124 tools of our own
 * (nested objects, anyOf with null, enums, formats, oneOf, $ref, a tuple,
 * draft-07, output schemas), compiled under the strictest settings with a
 * use of them that must type-check (and `@ts-expect-error` lines that must
 * not); from hostile tool names; run against a real server over stdio
 * through the SDK's client; and `--check` against a server whose tools
 * change. The official reference servers are the slow suite's
 * (tool-types.e2e.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { BANNER_MARK } from "../../generator/emit/file.js";
import { planToolTypes, writeToolTypes } from "../../generator/types/tool-types.js";
import { ROOT } from "../helpers/index.js";
import { STRICTEST, typedProject as project } from "../helpers/typed-project.js";
import { runCli } from "../helpers/run-cli.js";
import { strictErrors } from "../helpers/typecheck.js";

const PLATFORM = join(ROOT, "test", "fixtures", "types", "platform-tools.json");
const WEATHER = join(ROOT, "test", "fixtures", "tool-histories", "weather", "v7.json");
const SERVER = join(ROOT, "test", "types", "fixtures", "typed-server.mjs");

/** What the run-time test uses of a generated module (its own types are checked by tsc above). */
interface TypedModule {
  callTool(client: unknown, name: string, args: unknown): Promise<{ structuredContent?: unknown }>;
  toolFunctions(client: unknown): Record<string, (args?: unknown) => Promise<unknown>>;
  ToolSchemaError: abstract new (...args: never[]) => Error;
  ToolCallError: abstract new (...args: never[]) => Error;
  TOOL_SCHEMAS: Record<
    string,
    {
      arguments: {
        "~standard": {
          validate(value: unknown): { issues?: readonly unknown[] };
          jsonSchema: { input(options: { target: string }): Record<string, unknown> };
        };
      };
    }
  >;
}

async function writeTypes(source: string, out: string) {
  const plan = await planToolTypes({ source, out });
  writeToolTypes(plan);
  return plan;
}

describe("the module and API description of 124 tools", () => {
  it("compile under the strictest settings, with calls typed end to end", async () => {
    const dir = project("types-platform");
    const plan = await writeTypes(PLATFORM, join(dir, "src", "platform.ts"));
    expect(plan.tools).toHaveLength(124);
    writeFileSync(
      join(dir, "src", "use.ts"),
      `import type { Client } from "@modelcontextprotocol/client";
import { callTool, toolFunctions, TOOL_SCHEMAS, type ToolName } from "./platform.js";
import type { ToolApi } from "./platform.api.js";

export async function use(client: Client, codeMode: ToolApi): Promise<string[]> {
  const out: string[] = [];
  const order = await callTool(client, "get_order", { id: "0b9a6c2e-5f4e-4d1a-9a59-3c1f0b8e2d11" });
  if (!order.isError) {
    const status: "draft" | "placed" | "paid" | "shipped" | "delivered" | "cancelled" | undefined = order.structuredContent.status;
    const notes: string | null | undefined = order.structuredContent.notes;
    out.push(String(status), String(notes), order.structuredContent.lines[0]?.product_id ?? "");
  }
  const created = await callTool(client, "create_payment", {
    invoice_id: "0b9a6c2e-5f4e-4d1a-9a59-3c1f0b8e2d11",
    amount: { amount: 100, currency: "EUR" },
    method: { type: "card", last4: "4242", brand: "visa" },
  });
  if (!created.isError) out.push(created.structuredContent.id);
  const exported = await callTool(client, "export_data", { kinds: ["order"], since: null, compression: "gzip" });
  if (!exported.isError) out.push(exported.structuredContent.url);
  const found = await codeMode.searchOrders({ query: "late", limit: 10 });
  out.push(String(found.total), found.hits[0]?.item.customer_id ?? "");
  const pong = await toolFunctions(client).ping();
  out.push(String(pong.ok));
  const checked = TOOL_SCHEMAS.create_ticket.arguments["~standard"].validate({ subject: "x" });
  if (checked.issues) out.push(checked.issues.map((i) => i.message).join());
  const name: ToolName = "delete_webhook";
  out.push(name);
  // @ts-expect-error an unknown tool
  await callTool(client, "get_orders", { id: "x" });
  // @ts-expect-error a required argument missing
  await callTool(client, "get_order", {});
  // @ts-expect-error an argument of the wrong type
  await callTool(client, "create_product", { sku: 1, title: "t", price: { amount: 1, currency: "EUR" } });
  // @ts-expect-error a value the enum does not have
  await callTool(client, "create_ticket", { subject: "abc", body: "b", requester_email: "a@example.com", priority: "critical" });
  // @ts-expect-error an argument the schema does not allow (additionalProperties: false)
  await callTool(client, "get_customer", { id: "x", expand: [], extra: true });
  // @ts-expect-error a oneOf branch mixed with another
  await callTool(client, "create_payment", { invoice_id: "x", amount: { amount: 1, currency: "EUR" }, method: { type: "card", iban: "NL00" } });
  // @ts-expect-error code mode: a required argument missing
  await codeMode.getOrder({});
  return out;
}
`,
    );
    const errors = strictErrors(
      [
        join(dir, "src", "platform.ts"),
        join(dir, "src", "platform.api.d.ts"),
        join(dir, "src", "use.ts"),
      ],
      STRICTEST,
      dir,
    );
    expect(errors).toEqual([]);
  });

  it("are the same bytes from the same tools, each starting with the banner", async () => {
    const dir = project("types-determinism");
    const out = join(dir, "src", "platform.ts");
    const [a, b] = await Promise.all([
      planToolTypes({ source: PLATFORM, out }),
      planToolTypes({ source: PLATFORM, out }),
    ]);
    expect(b.files).toEqual(a.files);
    for (const file of a.files) expect(file.contents.split("\n")[1]).toContain(BANNER_MARK);
    expect(a.files.map((f) => f.path)).toEqual([out, join(dir, "src", "platform.api.d.ts")]);
    expect(a.files[0]!.contents).toContain(" * Tools: 124 (list fingerprint sha256:");
  });
});

describe("hostile and colliding tool names", () => {
  it("become namespaces and functions that compile and shadow nothing", async () => {
    const dir = project("types-hostile");
    const tool = (name: string, description = "") => ({
      name,
      description,
      inputSchema: {
        type: "object",
        properties: { ["__proto__"]: { type: "string" }, 'say "*/" ': { type: "integer" } },
        required: ["__proto__"],
      },
      outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    const tools = [
      tool("__proto__", "*/ export const broken = 1; /*"),
      tool("constructor"),
      tool("ToolApi"),
      tool("callTool"),
      tool("client"),
      tool("tool_schemas"),
      tool("standard_schema"),
      tool("tools"),
      tool("get-item"),
      tool("get_item"),
      tool("1st"),
      tool("TOOLS"),
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify(tools));
    const plan = await writeTypes(join(dir, "tools.json"), join(dir, "src", "hostile.ts"));
    writeFileSync(
      join(dir, "src", "use.ts"),
      `import type { Client } from "@modelcontextprotocol/client";
import { callTool, toolFunctions } from "./hostile.js";
export async function use(client: Client): Promise<boolean[]> {
  const a = await callTool(client, "__proto__", { ["__proto__"]: "x" });
  const api = toolFunctions(client);
  const b = await api.getItem_2({ ["__proto__"]: "y", 'say "*/" ': 1 });
  const c = await api.toolSchemas_2({ ["__proto__"]: "z" });
  return [a.isError !== true && a.structuredContent.ok, b.ok, c.ok];
}
`,
    );
    const errors = strictErrors(
      [
        join(dir, "src", "hostile.ts"),
        join(dir, "src", "hostile.api.d.ts"),
        join(dir, "src", "use.ts"),
      ],
      STRICTEST,
      dir,
    );
    expect(errors).toEqual([]);
    // The description is a string and a comment, never code: the module declares no `broken`.
    const declared = ts
      .createSourceFile("hostile.ts", plan.files[0]!.contents, ts.ScriptTarget.Latest, true)
      .statements.flatMap((s) =>
        ts.isVariableStatement(s)
          ? s.declarationList.declarations.map((d) => d.name.getText())
          : [],
      );
    expect(declared).not.toContain("broken");
    expect(declared).toContain("TOOLS");
  });

  it("an empty list makes a module that compiles", async () => {
    const dir = project("types-empty");
    writeFileSync(join(dir, "tools.json"), "[]");
    await writeTypes(join(dir, "tools.json"), join(dir, "src", "none.ts"));
    expect(
      strictErrors(
        [join(dir, "src", "none.ts"), join(dir, "src", "none.api.d.ts")],
        STRICTEST,
        dir,
      ),
    ).toEqual([]);
  });
});

describe("the module at run time, through the SDK's client, against a server over stdio", () => {
  it("checks arguments before sending and structuredContent on return; code mode gives the structured result", async () => {
    const dir = project("types-runtime");
    const tools = join(dir, "tools.json");
    const results = join(dir, "results.json");
    const calls = join(dir, "calls.jsonl");
    writeFileSync(tools, readFileSync(WEATHER, "utf8"));
    writeFileSync(calls, "");
    const forecast = {
      place: { name: "Utrecht", lat: 52.09, lon: 5.12 },
      days: [{ date: "2030-01-01", high: 7.5, low: null, conditions: "fog" }],
    };
    writeFileSync(
      results,
      JSON.stringify({
        get_forecast: { content: [{ type: "text", text: "fog" }], structuredContent: forecast },
        geocode: { content: [{ type: "text", text: "?" }], structuredContent: { results: "none" } },
        get_alerts: { content: [{ type: "text", text: "no such region" }], isError: true },
      }),
    );
    await writeTypes(tools, join(dir, "src", "weather.ts"));
    const errors = strictErrors(
      [join(dir, "src", "weather.ts")],
      {
        ...STRICTEST,
        noEmit: false,
        outDir: join(dir, "dist"),
        rootDir: join(dir, "src"),
        module: ts.ModuleKind.NodeNext,
      },
      dir,
    );
    expect(errors).toEqual([]);
    const typed = (await import(
      pathToFileURL(join(dir, "dist", "weather.js")).href
    )) as TypedModule;
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const client = new Client({ name: "types-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVER, tools, results, calls],
      }),
    );
    try {
      const location = { kind: "city", name: "Utrecht" };
      const result = await typed.callTool(client, "get_forecast", { location, days: 1 });
      expect(result.structuredContent).toEqual(forecast);

      // Refused before sending: days is at most 16.
      const refused = await typed
        .callTool(client, "get_forecast", { location, days: 40 })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(typed.ToolSchemaError);
      expect((refused as { part: string }).part).toBe("arguments");

      // A structuredContent the outputSchema refuses is never returned as typed: the SDK's client,
      // given the tool's definition, refuses it first (the module's own check stands behind it).
      const wrong = await typed
        .callTool(client, "geocode", { query: "Utrecht" })
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(Error);
      expect((wrong as Error).message).toMatch(/output ?schema/i);

      const api = typed.toolFunctions(client);
      expect(await api.getForecast!({ location, days: 1 })).toEqual(forecast);
      const failed = await api.getAlerts!({ region: "nowhere" }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(typed.ToolCallError);

      const sent = readFileSync(calls, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { name: string; arguments: { days?: number } });
      expect(sent.map((c) => c.name)).toEqual([
        "get_forecast",
        "geocode",
        "get_forecast",
        "get_alerts",
      ]);
      expect(sent.some((c) => c.arguments.days === 40)).toBe(false);

      const schema = typed.TOOL_SCHEMAS.get_forecast!.arguments["~standard"];
      expect(schema.validate({ location, days: 0 }).issues?.length).toBeGreaterThan(0);
      expect(schema.jsonSchema.input({ target: "draft-07" }).$schema).toBe(
        "http://json-schema.org/draft-07/schema#",
      );
    } finally {
      await client.close();
    }
  });
});

describe("mcp-gen types --check against a server whose tools change", () => {
  it("passes while the tools are the same, fails with the tool diff when they change, passes after writing", async () => {
    const dir = project("types-drift");
    const tools = join(dir, "tools.json");
    writeFileSync(tools, readFileSync(WEATHER, "utf8"));
    writeFileSync(join(dir, "results.json"), "{}");
    const command = [
      process.execPath,
      SERVER,
      tools,
      join(dir, "results.json"),
      join(dir, "calls.jsonl"),
    ]
      .map((w) => JSON.stringify(w))
      .join(" ");
    const types = (...more: string[]) =>
      runCli(["types", "--from-server", command, "--out", "src/weather.ts", ...more], { cwd: dir });
    const written = await types();
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe("src/weather.ts and src/weather.api.d.ts: 4 tools\n");
    const same = await types("--check");
    expect(same.code, same.stderr).toBe(0);
    const list = JSON.parse(readFileSync(tools, "utf8")) as Array<Record<string, unknown>>;
    writeFileSync(tools, JSON.stringify(list.filter((t) => t.name !== "geocode")));
    const drifted = await types("--check");
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain("  geocode: removed\n");
    expect(drifted.stdout).toContain(
      "src/weather.ts and src/weather.api.d.ts are not what the tools of",
    );
    expect((await types()).code).toBe(0);
    expect((await types("--check")).code).toBe(0);
  }, 240_000);
});

describe("what mcp-gen types refuses", () => {
  it("an --out that is not a .ts module (MCPG740), and a file it did not write (MCPG741), writing nothing", async () => {
    const dir = project("types-refusals");
    const error = await planToolTypes({ source: WEATHER, out: join(dir, "x.d.ts") }).catch(
      (e: unknown) => e,
    );
    expect((error as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG740"]);
    const mine = join(dir, "src", "mine.ts");
    writeFileSync(mine, "export const mine = 1;\n");
    const plan = await planToolTypes({ source: WEATHER, out: mine });
    const refused = (() => {
      try {
        writeToolTypes(plan);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect((refused as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG741"]);
    expect(readFileSync(mine, "utf8")).toBe("export const mine = 1;\n");
    expect(existsSync(join(dir, "src", "mine.api.d.ts"))).toBe(false);
  });

  it("a list the protocol refuses, whole (exit 2); a tool a tools file's checks refuse is left out with MCPG720", async () => {
    const dir = project("types-bad-lists");
    writeFileSync(join(dir, "null.json"), JSON.stringify([{ name: "get_me", inputSchema: null }]));
    const run = await runCli(["types", "--tools", "null.json", "--out", "src/me.ts"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("null.json#/0/inputSchema");
    expect(existsSync(join(dir, "src", "me.ts"))).toBe(false);
    writeFileSync(
      join(dir, "odd.json"),
      JSON.stringify([
        { name: "fine", inputSchema: { type: "object" } },
        { name: "has space", inputSchema: { type: "object" } },
      ]),
    );
    const plan = await planToolTypes({
      source: join(dir, "odd.json"),
      out: join(dir, "src", "odd.ts"),
    });
    expect(plan.tools.map((t) => t.name)).toEqual(["fine"]);
    expect(plan.diagnostics.map((d) => d.code)).toEqual(["MCPG720"]);
    const usage = await runCli(["types", "--out", "src/x.ts"], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--tools <file> or --from-server <server>");
  });
});
