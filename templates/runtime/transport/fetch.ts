/**
 * The Fetch adapter: mounts the HTTP core in anything that speaks
 * `Request` and `Response` (Deno, Bun, Hono and the like).
 */
import { Codes, McpError } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import type { McpHttpHandler } from "./http.js";

/** A Fetch handler over the core. */
export function fetchHandler(handler: McpHttpHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > handler.maxBodyBytes) return tooLarge();
    const text = request.method === "POST" ? await request.text() : "";
    if (Buffer.byteLength(text) > handler.maxBodyBytes) return tooLarge();
    const reply = await handler.handle({
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      // A Request made in process has no Host header: its URL says where it was sent.
      header: (n) => request.headers.get(n) ?? (n === "host" ? url.host : undefined),
      body: text,
      signal: request.signal,
    });
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
  };
}

function tooLarge(): Response {
  return new Response(
    JSON.stringify(
      errorResponse(null, new McpError(Codes.InvalidRequest, "Request body too large").toJSON()),
    ),
    { status: 413, headers: { "content-type": "application/json" } },
  );
}
