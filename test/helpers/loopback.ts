/**
 * node:http servers the tests stand up as peers (an authorization server,
 * a JWKS endpoint, one that never answers): listening on 127.0.0.1 only,
 * on a port the system picks, and closed with whatever is still open.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens on 127.0.0.1 and gives the origin (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server, ending the connections still open (a peer left hanging, a silent one). */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
