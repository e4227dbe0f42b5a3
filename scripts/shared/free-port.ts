/**
 * A free TCP port on 127.0.0.1, for the scripts and tests that start
 * servers: listen on port 0, read the port the system chose, close.
 */
import { createServer } from "node:net";

/** A port nothing listens on right now (it was free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
