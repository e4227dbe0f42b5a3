/**
 * The HTTP side of `npm run fuzz:server`: requests written byte for byte on
 * a raw socket (so headers and framing can be broken too) and answers read
 * and judged. A finding is anything a server must never do: a 5xx, no
 * answer to a well-framed request, an answer after the deadline, a JSON
 * body that is not a JSON-RPC message or echoes an id that is neither a
 * string nor an integer.
 */
import { connect } from "node:net";
import { mutateBytes, mutateJson, oddHeaderValue, type Random } from "./mutate.js";

/** A message before it is written: request line, headers (in order, repeats allowed) and body. */
export interface HttpMessage {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
  /** False when a mutation broke the framing (the server may close without answering). */
  wellFramed: boolean;
  /** Content-Length as sent, when it was changed to disagree with the body. */
  contentLength?: number;
}

/** What came back. */
export interface HttpOutcome {
  status?: number;
  /** The response's header lines (empty without an answer). */
  head: string;
  contentType?: string;
  body: string;
  timedOut: boolean;
  closedWithoutAnswer: boolean;
}

/** Writes one message on a new connection and reads the answer (the first event of an event stream). */
export function exchange(
  port: number,
  message: HttpMessage,
  timeoutMs: number,
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks), timedOut));
    };
    // A message whose body is shorter than its Content-Length waits for bytes
    // that never come; the server's request timeout is tested elsewhere.
    const incomplete =
      message.contentLength !== undefined && message.contentLength > message.body.length;
    const timer = setTimeout(() => finish(!incomplete), incomplete ? 1000 : timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("latin1");
      const head = text.indexOf("\r\n\r\n");
      // An event stream stays open: its first event is answer enough. A GET's stream (a
      // session's standalone stream) carries only what the server has to say, which may be
      // nothing for a long time: its headers are the answer.
      if (head >= 0 && /content-type:\s*text\/event-stream/i.test(text.slice(0, head))) {
        if (message.method === "GET" || text.indexOf("\n\n", head + 4) >= 0) finish(false);
      }
    });
    socket.on("end", () => finish(false));
    socket.on("error", () => finish(false));
    socket.on("connect", () => socket.write(serialize(message)));
  });
}

function serialize(message: HttpMessage): Buffer {
  const lines = [`${message.method} ${message.path} HTTP/1.1`];
  for (const [name, value] of message.headers) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${message.contentLength ?? message.body.length}`);
  lines.push("connection: close", "", "");
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), message.body]);
}

function parseResponse(raw: Buffer, timedOut: boolean): HttpOutcome {
  const text = raw.toString("utf8");
  const head = text.indexOf("\r\n\r\n");
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (!status || head < 0)
    return { head: "", body: "", timedOut, closedWithoutAnswer: !timedOut && raw.length === 0 };
  const contentType = /\r\ncontent-type:\s*([^\r;]+)/i.exec(text.slice(0, head))?.[1]?.trim();
  return {
    status: Number(status[1]),
    head: text.slice(0, head),
    ...(contentType ? { contentType } : {}),
    body: text.slice(head + 4),
    timedOut,
    closedWithoutAnswer: false,
  };
}

/** Builds a mutated message from a valid one: JSON, bytes, headers or framing broken. */
export function mutateHttp(
  seed: HttpMessage,
  random: Random,
  methods: readonly string[],
): HttpMessage {
  const message: HttpMessage = { ...seed, headers: [...seed.headers] };
  // A quarter go out unchanged: valid requests racing broken ones reach the handlers.
  const rounds = random.below(4);
  for (let i = 0; i < rounds; i++) {
    switch (random.below(10)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        const parsed = tryParse(message.body);
        if (parsed !== undefined)
          message.body = Buffer.from(JSON.stringify(mutateJson(parsed as never, random, methods)));
        break;
      }
      case 4:
        message.body = mutateBytes(message.body, random);
        break;
      case 5: {
        const at = random.below(message.headers.length || 1);
        message.headers.splice(at, 1);
        break;
      }
      case 6: {
        if (message.headers.length === 0) break;
        const at = random.below(message.headers.length);
        message.headers[at] = [message.headers[at]![0], oddHeaderValue(random)];
        break;
      }
      case 7:
        message.headers.push([
          random.pick([
            "host",
            "origin",
            "mcp-session-id",
            "mcp-method",
            "mcp-name",
            "content-type",
          ]),
          oddHeaderValue(random),
        ]);
        break;
      case 8:
        message.method = random.pick(["GET", "DELETE", "PUT", "OPTIONS", "PATCH", "HEAD"]);
        break;
      default:
        if (random.chance(0.5)) {
          message.path = random.pick(["/", "/mcp/", "/mcp?x=1", "/MCP", "/health", "/%", "//mcp"]);
        } else {
          message.contentLength = message.body.length + (random.chance(0.5) ? 10 : -1);
          message.wellFramed = false;
        }
    }
  }
  return message;
}

function tryParse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** What is wrong with an answer, if anything (undefined: nothing). */
export function judgeHttp(message: HttpMessage, outcome: HttpOutcome): string | undefined {
  if (outcome.timedOut) return "no answer within the deadline";
  if (outcome.closedWithoutAnswer)
    return message.wellFramed ? "closed without an answer" : undefined;
  if (outcome.status !== undefined && outcome.status >= 500) return `status ${outcome.status}`;
  // Only the MCP endpoint speaks JSON-RPC (the health endpoint answers JSON too).
  if (message.path === "/mcp" && outcome.contentType === "application/json" && outcome.body) {
    const problem = judgeJsonRpc(outcome.body);
    if (problem) return problem;
  }
  return undefined;
}

/** Checks one JSON-RPC message from the server: its shape and its id. */
export function judgeJsonRpc(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "a body that is not JSON";
  }
  const messages = Array.isArray(value) ? value : [value];
  for (const m of messages) {
    if (!m || typeof m !== "object") return "an answer that is not an object";
    const { jsonrpc, id, error } = m as { jsonrpc?: unknown; id?: unknown; error?: unknown };
    if (jsonrpc !== "2.0") return "an answer without jsonrpc 2.0";
    if (id !== undefined && id !== null && typeof id !== "string" && !Number.isInteger(id))
      return `an answer with id ${JSON.stringify(id)}`;
    if (error !== undefined && !Number.isInteger((error as { code?: unknown }).code))
      return "an error without an integer code";
  }
  return undefined;
}
