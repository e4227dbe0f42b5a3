/**
 * node:http for the HTTP core: a request listener (the body read in full,
 * refused past the size limit while it arrives), and `serveHttp`, which
 * listens with it. This path builds no Fetch objects, the fastest on Node.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Codes, McpError } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import type { HttpReply } from "./http-reply.js";
import { McpHttpHandler, type HttpOptions } from "./http.js";
import type { ServedSide } from "./served.js";

/** A node:http request listener over the core. */
export function nodeListener(
  handler: McpHttpHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > handler.maxBodyBytes) {
        refused = true;
        const payload = JSON.stringify(
          errorResponse(
            null,
            new McpError(Codes.InvalidRequest, "Request body too large").toJSON(),
          ),
        );
        res
          .writeHead(413, { "content-type": "application/json", connection: "close" })
          .end(payload);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => controller.abort());
    req.on("end", () => {
      if (refused) return;
      const path = (req.url ?? "/").split("?")[0]!;
      const header = (name: string) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      void handler
        .handle({
          method: req.method ?? "GET",
          path,
          header,
          body: Buffer.concat(chunks).toString("utf8"),
          signal: controller.signal,
        })
        .then((reply) => write(res, reply));
    });
  };
}

function write(res: ServerResponse, reply: HttpReply): void {
  if (res.destroyed) {
    if (reply.kind === "stream") reply.stream.end();
    return;
  }
  if (reply.kind === "body") {
    res.writeHead(reply.status, {
      ...reply.headers,
      "content-length": Buffer.byteLength(reply.body),
    });
    res.end(reply.body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  reply.stream.attach(
    (chunk) => res.write(chunk),
    () => res.end(),
  );
  res.on("close", () => reply.stream.end());
}

/** Serves `side` (an McpServer) over Streamable HTTP on node:http; resolves once it listens. */
export async function serveHttp(
  side: ServedSide,
  options: HttpOptions & { readonly port?: number; readonly host?: string } = {},
): Promise<{ readonly url: string; readonly http: Server; readonly close: () => Promise<void> }> {
  const handler = new McpHttpHandler(side, options);
  const http = createServer({ keepAliveTimeout: 65_000 }, nodeListener(handler));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${handler.endpoint}`,
    http,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
