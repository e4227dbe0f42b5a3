/**
 * A server that cannot listen says why in one line its user can act on:
 * the port in use names the port and how to move it (PORT), with node's
 * code kept on the error; nothing is left listening.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { serveHttp } from "../../../templates/runtime/index.js";
import { testServer } from "../../helpers/mcp-client.js";

describe("serveHttp when it cannot listen", () => {
  it("a port in use is named, with the PORT that moves the server, and no stack to read", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const error = await serveHttp(testServer(), { port, host: "127.0.0.1" }).then(
        () => undefined,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(error?.message).toBe(
        `port ${port} of 127.0.0.1 is in use (EADDRINUSE): stop what listens there, or start this server on another port (PORT=${port + 1} npm start)`,
      );
      expect(error?.code).toBe("EADDRINUSE");
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
