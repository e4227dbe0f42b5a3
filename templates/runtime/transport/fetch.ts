/**
 * The Fetch adapter: mounts the HTTP core in anything that speaks
 * `Request` and `Response` (Bun.serve, Deno.serve, a Cloudflare Worker,
 * Hono and the like). Uses no node: module.
 */
import { Codes, McpError } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import { BodyTooLarge, declaredLength, readTextWithin } from "./bounded-read.js";
import type { HttpReply } from "./http-reply.js";
import type { McpHttpHandler } from "./http.js";

/** What a Fetch adapter may know beyond the Request. */
export interface FetchOptions {
  /**
   * The client's address (Bun: `server.requestIP(request)?.address`, Deno:
   * `info.remoteAddr.hostname`), so that the streams one client holds are
   * bounded when authorization does not say who it is; without it only the
   * count in all applies (MCP_MAX_LISTEN_STREAMS).
   */
  readonly peer?: (request: Request) => string | undefined;
}

/** A Fetch handler over the core. */
export function fetchHandler(
  handler: McpHttpHandler,
  options: FetchOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    const reply = await replyOf(handler, request, options.peer?.(request));
    try {
      return responseOf(reply);
    } catch (error) {
      // A reply that cannot become a Response (a header Fetch refuses): reported, answered 500.
      if (!(reply instanceof Response) && reply.kind === "stream") reply.stream.end();
      handler.side.onError(error, "HTTP transport (writing a response)");
      return new Response(
        JSON.stringify(
          errorResponse(null, new McpError(Codes.InternalError, "Internal error").toJSON()),
        ),
        { status: 500, headers: { "content-type": "application/json" } },
      );
    }
  };
}

/** The core's reply to a Request, its body read within the size limit. */
async function replyOf(
  handler: McpHttpHandler,
  request: Request,
  peer: string | undefined,
): Promise<HttpReply | Response> {
  const url = new URL(request.url);
  let text = "";
  if (request.method === "POST" && request.body !== null) {
    // Read as it arrives and stopped at the limit: a chunked body announces no length.
    try {
      text = await readTextWithin(chunksOf(request.body), handler.maxBodyBytes, {
        declared: declaredLength(request.headers.get("content-length")),
      });
    } catch (error) {
      if (error instanceof BodyTooLarge) return tooLarge();
      throw error;
    }
  }
  return handler.handle({
    method: request.method,
    path: url.pathname,
    query: url.search.slice(1),
    // A Request made in process has no Host header: its URL says where it was sent.
    header: (n) => request.headers.get(n) ?? (n === "host" ? url.host : undefined),
    body: text,
    signal: request.signal,
    ...(peer === undefined ? {} : { peer }),
  });
}

/**
 * A body's chunks, read with its reader (not every runtime makes a
 * ReadableStream async-iterable); a reader that stops early (past the
 * limit) cancels the rest.
 */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}

/** The Response that carries a reply: its body, or its event stream. */
function responseOf(reply: HttpReply | Response): Response {
  if (reply instanceof Response) return reply;
  if (reply.kind === "body")
    return new Response(reply.body === "" ? null : reply.body, {
      status: reply.status,
      headers: reply.headers,
    });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        reply.stream.attach({
          write: (chunk) => controller.enqueue(encoder.encode(chunk)),
          finish: () => controller.close(),
          // With a high-water mark of 0 bytes, -desiredSize is what waits for the client.
          buffered: () => Math.max(0, -(controller.desiredSize ?? 0)),
          abort: () => controller.error(new Error("the client fell too far behind")),
        });
      },
      cancel() {
        reply.stream.end();
      },
    },
    { highWaterMark: 0, size: (chunk?: Uint8Array) => chunk?.byteLength ?? 0 },
  );
  return new Response(stream, { status: reply.status, headers: reply.headers });
}

function tooLarge(): Response {
  return new Response(
    JSON.stringify(
      errorResponse(null, new McpError(Codes.InvalidRequest, "Request body too large").toJSON()),
    ),
    { status: 413, headers: { "content-type": "application/json" } },
  );
}
