/**
 * The Mcp-* request headers of Streamable HTTP (spec: Streamable HTTP,
 * request metadata): which body fields a 2026-07-28 request mirrors into
 * headers, how values are encoded, how a client writes them and how a
 * server checks them against the body. Header names are written and read
 * in lower case (HTTP names are case-insensitive); values are
 * case-sensitive.
 */
import { Codes, McpError } from "./errors.js";
import { META } from "./era.js";
import { isJsonObject, metaOf, paramsOf, type JsonRpcMessage } from "./jsonrpc.js";
import type { ProtocolModule } from "./protocol.js";

/** The header names. */
export const HEADERS = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
  sessionId: "mcp-session-id",
  /** `Mcp-Param-{name}` for a tool parameter annotated with `x-mcp-header`. */
  paramPrefix: "mcp-param-",
} as const;

/** The core's requests that mirror a name into `Mcp-Name`, and the param it is taken from. */
const CORE_NAMED: ReadonlyMap<string, "name" | "uri"> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);

/**
 * The params member a request mirrors into `Mcp-Name`: the core's, or the
 * one a merged extension's manifest names for its request (`names`; the
 * Tasks extension's requests on one task name taskId, so that a load
 * balancer can route by task).
 */
export function nameParameterOf(
  protocol: Pick<ProtocolModule, "EXTENSIONS"> | undefined,
  method: string,
): string | undefined {
  const core = CORE_NAMED.get(method);
  if (core !== undefined) return core;
  for (const extension of Object.values(protocol?.EXTENSIONS ?? {}))
    if (extension.names && Object.hasOwn(extension.names, method)) return extension.names[method];
  return undefined;
}

/** What a header value may hold as is: visible ASCII, space and tab (spec: value encoding). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
/** What a client may send without encoding: header-safe, no whitespace at either end, not empty. */
const PLAIN = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A decimal number, as clients write integer parameters into headers. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** An HTTP token (RFC 9110), what `x-mcp-header` may name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A tool parameter mirrored into an HTTP header (spec: tools, x-mcp-header). */
export interface HeaderParameter {
  /** The `{name}` of `Mcp-Param-{name}`. */
  readonly header: string;
  /** The chain of `properties` keys from the schema root. */
  readonly path: readonly string[];
}

/**
 * The `x-mcp-header` annotations of a tool's inputSchema, checked against
 * the spec's constraints (token syntax, case-insensitively unique, only on
 * string, integer and boolean parameters reachable through a chain of
 * `properties` alone: an annotation under `items`, a composition or
 * conditional keyword, or `$defs` makes the tool invalid). Throws an Error
 * naming the tool and the problem; a bad annotation on the chain is named
 * before one off it.
 */
export function headerParametersOf(tool: {
  readonly name: string;
  readonly inputSchema: unknown;
}): HeaderParameter[] {
  const walk = new AnnotationWalk(tool.name);
  walk.schema(tool.inputSchema, true);
  if (walk.misplaced !== undefined)
    throw new Error(
      `tool ${tool.name}: x-mcp-header at ${walk.misplaced || "the schema root"} is not on a chain of properties from the root`,
    );
  return walk.found;
}

/** Keywords whose value is a subschema, an array of them, or a map of them (JSON Schema 2020-12 and draft-07). */
const SUBSCHEMA_KEYWORDS: ReadonlyMap<string, "one" | "array" | "map"> = new Map([
  ["additionalProperties", "one"],
  ["unevaluatedProperties", "one"],
  ["propertyNames", "one"],
  ["items", "one"],
  ["additionalItems", "one"],
  ["unevaluatedItems", "one"],
  ["contains", "one"],
  ["not", "one"],
  ["if", "one"],
  ["then", "one"],
  ["else", "one"],
  ["prefixItems", "array"],
  ["allOf", "array"],
  ["anyOf", "array"],
  ["oneOf", "array"],
  ["patternProperties", "map"],
  ["dependentSchemas", "map"],
  ["$defs", "map"],
  ["definitions", "map"],
]);

/**
 * One walk over a tool's inputSchema, through every subschema: annotations
 * on the chain of `properties` from the root are checked and collected as
 * they are met (the first bad one throws), and the first annotation off
 * the chain is noted, as a JSON pointer ("" for the root).
 *
 * Every tool of every tools/list page goes through here, so it visits each
 * node once, only the keywords the node has, and builds a path or pointer
 * only for an annotation it found: `at` is the way down, one entry per
 * keyword, key or index.
 */
class AnnotationWalk {
  readonly found: HeaderParameter[] = [];
  /** Where the first annotation off the chain is, once one was met. */
  misplaced?: string;
  private readonly at: (string | number)[] = [];

  constructor(private readonly tool: string) {}

  /** A subschema; `onChain` when it is the root or reached through `properties` alone. */
  schema(schema: unknown, onChain: boolean): void {
    if (!isJsonObject(schema)) return;
    const header = schema["x-mcp-header"];
    if (header !== undefined) {
      if (onChain && this.at.length > 0) this.annotated(schema, header);
      else this.misplaced ??= this.pointer();
    }
    for (const keyword of Object.keys(schema)) {
      const shape = keyword === "properties" ? "map" : SUBSCHEMA_KEYWORDS.get(keyword);
      if (shape === undefined) continue;
      this.at.push(keyword);
      const value = schema[keyword];
      if (shape === "map") this.map(value, onChain && keyword === "properties");
      // draft-07 `items` may be an array; a lone schema under an array keyword is walked too
      else if (Array.isArray(value)) this.array(value);
      else this.schema(value, false);
      this.at.pop();
    }
  }

  private map(schemas: unknown, onChain: boolean): void {
    if (!isJsonObject(schemas)) return;
    for (const key of Object.keys(schemas)) {
      this.at.push(key);
      this.schema(schemas[key], onChain);
      this.at.pop();
    }
  }

  private array(schemas: readonly unknown[]): void {
    for (let i = 0; i < schemas.length; i++) {
      this.at.push(i);
      this.schema(schemas[i], false);
      this.at.pop();
    }
  }

  /** An annotation on the chain: checked, and recorded with its chain of property names. */
  private annotated(schema: Record<string, unknown>, header: unknown): void {
    // On the chain, `at` alternates "properties" and a property name.
    const path = this.at.filter((_, i) => i % 2 === 1) as string[];
    if (typeof header !== "string" || !TOKEN.test(header))
      throw new Error(
        `tool ${this.tool}: x-mcp-header ${JSON.stringify(header)} at ${path.join(".")} is not an HTTP token`,
      );
    if (!["string", "integer", "boolean"].includes(schema.type as string))
      throw new Error(
        `tool ${this.tool}: x-mcp-header on ${path.join(".")} needs a string, integer or boolean parameter`,
      );
    if (this.found.some((f) => f.header.toLowerCase() === header.toLowerCase()))
      throw new Error(`tool ${this.tool}: x-mcp-header ${header} is used twice`);
    this.found.push({ header, path });
  }

  private pointer(): string {
    return this.at.map((segment) => `/${pointerSegment(String(segment))}`).join("");
  }
}

function pointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A value as a client writes it into a header: as is when it is plain
 * visible ASCII, else the `=?base64?…?=` sentinel (also for a plain value
 * that looks like the sentinel, and for the empty string).
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !SENTINEL.test(value)) return value;
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** Decodes the `=?base64?…?=` sentinel; plain values pass through; undefined for bad base64. */
export function decodeHeaderValue(value: string): string | undefined {
  const match = SENTINEL.exec(value);
  if (!match) return value;
  const encoded = match[1]!;
  if (!BASE64.test(encoded)) return undefined;
  return Buffer.from(encoded, "base64").toString("utf8");
}

/**
 * The Mcp-* headers a client sends with a 2026-07-28 request:
 * MCP-Protocol-Version (from `_meta`), Mcp-Method, Mcp-Name for named
 * requests (the core's, or an extension's whose `nameParameter` is given), and an `Mcp-Param-{name}` for each of the tool's `mirrored`
 * parameters present in the arguments (spec: client behavior).
 */
export function requestHeaders(
  message: JsonRpcMessage,
  mirrored: readonly HeaderParameter[] = [],
  nameParameter?: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const version = metaOf(message)?.[META.protocolVersion];
  if (typeof version === "string") headers[HEADERS.protocolVersion] = version;
  if (typeof message.method !== "string") return headers;
  headers[HEADERS.method] = message.method;
  const params = paramsOf(message);
  const key = CORE_NAMED.get(message.method) ?? nameParameter;
  const name = key === undefined ? undefined : params[key];
  if (typeof name === "string") headers[HEADERS.name] = encodeHeaderValue(name);
  if (message.method !== "tools/call") return headers;
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  for (const { header, path } of mirrored) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    headers[`${HEADERS.paramPrefix}${header.toLowerCase()}`] = encodeHeaderValue(headerText(value));
  }
  return headers;
}

/**
 * Checks a 2026-07-28 request's headers against its body (spec: server
 * validation): -32020 when a required header is missing, malformed, or
 * disagrees with the body after decoding. A malformed envelope passes
 * here, so that validating the body reports it (-32602).
 *
 * @param header a header's value by lower-case name
 * @param mirrored the `x-mcp-header` parameters of a tool, by tool name
 * @param nameParameter the params member a method mirrors into Mcp-Name (nameParameterOf)
 */
export function headerMismatch(
  message: JsonRpcMessage,
  header: (name: string) => string | undefined,
  mirrored: (tool: string) => readonly HeaderParameter[],
  nameParameter: (method: string) => string | undefined = (method) => CORE_NAMED.get(method),
): McpError | undefined {
  const reason = mismatchReason(message, header, mirrored, nameParameter);
  return reason === undefined
    ? undefined
    : new McpError(Codes.HeaderMismatch, `Header mismatch: ${reason}`);
}

function mismatchReason(
  message: JsonRpcMessage,
  header: (name: string) => string | undefined,
  mirrored: (tool: string) => readonly HeaderParameter[],
  nameParameter: (method: string) => string | undefined,
): string | undefined {
  const meta = metaOf(message);
  const version = meta?.[META.protocolVersion];
  if (typeof version !== "string" || !isJsonObject(meta![META.clientCapabilities]))
    return undefined;
  const declared = header(HEADERS.protocolVersion);
  if (declared === undefined) return "the MCP-Protocol-Version header is missing";
  if (declared !== version)
    return `MCP-Protocol-Version header ${JSON.stringify(declared)} does not match _meta protocolVersion ${JSON.stringify(version)}`;
  if (typeof message.method !== "string" || !("id" in message)) return undefined;
  const method = header(HEADERS.method);
  if (method === undefined) return "the Mcp-Method header is missing";
  if (method !== message.method)
    return `Mcp-Method header ${JSON.stringify(method)} does not match body method ${JSON.stringify(message.method)}`;
  const key = nameParameter(message.method);
  if (key === undefined) return undefined;
  const params = paramsOf(message);
  const expected = params[key];
  const name = header(HEADERS.name);
  if (name === undefined)
    return typeof expected === "string" ? "the Mcp-Name header is missing" : undefined;
  if (!HEADER_SAFE.test(name)) return unsafeHeader("Mcp-Name");
  const decoded = decodeHeaderValue(name.trim());
  if (decoded === undefined) return "the Mcp-Name header is not valid base64";
  if (decoded !== expected)
    return `Mcp-Name header ${JSON.stringify(decoded)} does not match body value ${JSON.stringify(expected)}`;
  return message.method === "tools/call"
    ? paramMismatch(params, header, mirrored(params.name as string))
    : undefined;
}

/** `Mcp-Param-{Name}` headers of a tool's `x-mcp-header` parameters must mirror the arguments. */
function paramMismatch(
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
  mirrored: readonly HeaderParameter[],
): string | undefined {
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  for (const { header: name, path } of mirrored) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    const raw = header(`${HEADERS.paramPrefix}${name.toLowerCase()}`);
    if (raw === undefined) return `the Mcp-Param-${name} header is missing`;
    if (!HEADER_SAFE.test(raw)) return unsafeHeader(`Mcp-Param-${name}`);
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) return `the Mcp-Param-${name} header is not valid base64`;
    // Numerically ("42.0" is 42), but only decimal numbers: Number() also reads "", "0x2A" and "1e1".
    const matches =
      typeof value === "number"
        ? DECIMAL.test(decoded) && Number(decoded) === value
        : typeof value === "boolean"
          ? decoded === String(value)
          : decoded === value;
    if (!matches) return `Mcp-Param-${name} header does not match the ${path.join(".")} argument`;
  }
  return undefined;
}

/** A parameter value as header text (spec: value encoding): strings as is, integers in decimal, booleans in lower case. */
function headerText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function valueAt(root: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = root;
  for (const key of path)
    value = isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

function unsafeHeader(name: string): string {
  return `the ${name} header has characters outside visible ASCII (send it as =?base64?...?=)`;
}
