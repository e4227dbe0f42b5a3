/**
 * The runtime on a draft of the spec: a server and a client made against
 * the 2026-04-14 draft (its generated module and the runtime a scaffold
 * copies) complete a Multi Round-Trip Request over HTTP on 127.0.0.1, and
 * the draft's own literal, "incomplete", is what goes over the wire.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.js";
import { writeOutput } from "../../generator/write/write-output.js";
import { connectHttp, McpClient, type ClientProtocol } from "../../templates/runtime/client.js";
import {
  McpServer,
  RequestStateCodec,
  serveHttp,
  type ProtocolModule,
} from "../../templates/runtime/index.js";
import { DRAFTS_DIR, tempDir, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

const DRAFT = "2026-04-14-4f206f70";

let module: ProtocolModule & ClientProtocol;
let url: string;
let close: () => Promise<void>;
/** Each request the client sent, with the response it got, as JSON-RPC messages. */
const wire: Array<{ sent: Record<string, unknown>; received: Record<string, unknown> }> = [];

beforeAll(async () => {
  const result = await generate({
    spec: join(DRAFTS_DIR!, DRAFT),
    out: "out",
    sources: testSources(),
    stampVersion: false,
  });
  const out = join(tempDir("draft-round-trip"), "mcp");
  writeOutput(out, result.files);
  writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
  expect(strictErrors([join(out, "index.ts")], { noEmit: false })).toEqual([]);
  module = (await import(pathToFileURL(join(out, "index.js")).href)) as typeof module;
  const server = new McpServer({
    protocol: module,
    info: { name: "draft-server", version: "1.0.0" },
    requestState: new RequestStateCodec(
      createHash("sha256").update("draft round trip").digest(),
      60_000,
    ),
  });
  server.tool(
    { name: "book", inputSchema: { type: "object", properties: {} } },
    async (_args, ctx) => {
      const seat = await ctx.elicit("seat", {
        mode: "form",
        message: "Which seat?",
        requestedSchema: { type: "object", properties: { seat: { type: "string" } } },
      });
      return { content: [{ type: "text", text: `booked ${String(seat.content?.seat)}` }] };
    },
  );
  ({ url, close } = await serveHttp(server, { port: 0 }));
}, 300_000);
afterAll(() => close?.());

describe(`a server and a client of the ${DRAFT} draft`, () => {
  it("complete an MRTR round trip with the draft's literal on the wire", async () => {
    const channel = connectHttp(url);
    const send = channel.request.bind(channel);
    channel.request = async (message, options) => {
      const response = await send(message, options);
      wire.push({
        sent: message,
        received: response,
      });
      return response;
    };
    const client = new McpClient({
      protocol: module,
      legacy: module,
      channel,
      info: { name: "draft-client", version: "1.0.0" },
      handlers: { elicitation: () => ({ action: "accept", content: { seat: "12A" } }) },
    });
    const result = await client.callTool("book", {});
    expect(result.content).toEqual([{ type: "text", text: "booked 12A" }]);
    await client.close();
    const calls = wire.filter((w) => w.sent.method === "tools/call");
    expect(calls).toHaveLength(2);
    const [asked, answered] = calls as [(typeof wire)[number], (typeof wire)[number]];
    const first = asked.received.result as Record<string, unknown>;
    expect(first.resultType).toBe("incomplete");
    expect(Object.keys(first.inputRequests as object)).toEqual(["seat"]);
    expect(typeof first.requestState).toBe("string");
    const retry = answered.sent.params as Record<string, unknown>;
    expect(retry.inputResponses).toMatchObject({ seat: { action: "accept" } });
    expect(retry.requestState).toBe(first.requestState);
    expect((answered.received.result as Record<string, unknown>).resultType).toBe("complete");
    // 2026-07-28's literal never appears: the draft speaks its own.
    expect(JSON.stringify(wire)).not.toContain("input_required");
  });
});
