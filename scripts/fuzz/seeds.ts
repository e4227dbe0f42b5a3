/**
 * The valid messages `npm run fuzz:server` starts from, read off the live
 * server (its tools, resources, templates and prompts), in both eras: the
 * 2026-07-28 form (per-request `_meta`, the mirrored headers) and the
 * 2025-11-25 form (initialize, then requests in its session).
 */
import type { HttpMessage } from "./http.js";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1.0.0" },
};

/** A JSON-RPC request body. */
export type Body = { jsonrpc: "2.0"; id: number; method: string; params?: Record<string, unknown> };

/** A 2026-07-28 request with its envelope. */
export function modernBody(method: string, params: Record<string, unknown> = {}, id = 1): Body {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } };
}

/** A POST to /mcp with the headers every request carries, then `extra`. */
function post(port: number, body: Body, extra: Array<[string, string]>): HttpMessage {
  return {
    method: "POST",
    path: "/mcp",
    headers: [
      ["host", `127.0.0.1:${port}`],
      ["content-type", "application/json"],
      ["accept", "application/json, text/event-stream"],
      ...extra,
    ],
    body: Buffer.from(JSON.stringify(body)),
    wellFramed: true,
  };
}

/** The headers a conforming 2026-07-28 client sends with a body. */
export function modernMessage(port: number, body: Body): HttpMessage {
  const name = body.method === "resources/read" ? body.params?.uri : body.params?.name;
  return post(port, body, [
    ["mcp-protocol-version", MODERN],
    ["mcp-method", body.method],
    ...(typeof name === "string" ? [["mcp-name", name] as [string, string]] : []),
  ]);
}

/** A 2025-11-25 request in a session (no session for initialize). */
export function legacyMessage(port: number, body: Body, session?: string): HttpMessage {
  return post(
    port,
    body,
    session
      ? [
          ["mcp-protocol-version", LEGACY],
          ["mcp-session-id", session],
        ]
      : [],
  );
}

/** The legacy handshake's first request. */
export const INITIALIZE: Body = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LEGACY,
    capabilities: { elicitation: {}, sampling: {}, roots: {} },
    clientInfo: { name: "fuzz", version: "1.0.0" },
  },
};

interface Listed {
  tools: Array<{ name: string; inputSchema?: Schema }>;
  resources: Array<{ uri: string }>;
  templates: Array<{ uriTemplate: string }>;
  prompts: Array<{ name: string; arguments?: Array<{ name: string }> }>;
}

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
}

/** A plausible value for a schema: enough to get past the first checks and into handlers. */
function sample(schema: Schema | undefined): unknown {
  if (schema?.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  switch (type) {
    case "string":
      return "text";
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return Object.fromEntries(
        Object.entries(schema?.properties ?? {}).map(([k, v]) => [k, sample(v)]),
      );
    default:
      return null;
  }
}

/** Request bodies for every method and every listed tool, resource, template and prompt. */
export function seedBodies(listed: Listed): Body[] {
  const bodies: Body[] = [
    modernBody("server/discover"),
    modernBody("tools/list"),
    modernBody("resources/list"),
    modernBody("resources/templates/list"),
    modernBody("prompts/list"),
    modernBody("completion/complete", {
      ref: { type: "ref/prompt", name: listed.prompts[0]?.name ?? "x" },
      argument: { name: "a", value: "" },
    }),
  ];
  for (const tool of listed.tools)
    bodies.push(
      modernBody("tools/call", {
        name: tool.name,
        arguments: sample(tool.inputSchema ?? { type: "object" }),
      }),
    );
  for (const resource of listed.resources)
    bodies.push(modernBody("resources/read", { uri: resource.uri }));
  for (const template of listed.templates)
    bodies.push(
      modernBody("resources/read", { uri: template.uriTemplate.replace(/\{[^}]*\}/g, "a") }),
    );
  for (const prompt of listed.prompts)
    bodies.push(
      modernBody("prompts/get", {
        name: prompt.name,
        arguments: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, "text"])),
      }),
    );
  return bodies;
}

/** The method names the mutations may swap in. */
export function methodNames(bodies: readonly Body[]): string[] {
  return [
    ...new Set([
      ...bodies.map((b) => b.method),
      "initialize",
      "ping",
      "notifications/initialized",
      "subscriptions/listen",
      "tasks/get",
      "logging/setLevel",
    ]),
  ];
}

/** The same request as 2025-11-25 sends it (no `_meta` envelope). */
export function legacyBody(body: Body): Body {
  const params = { ...(body.params ?? {}) };
  delete params._meta;
  return { ...body, params };
}

export type { Listed };
