/**
 * What a server's handler stubs throw until they are written.
 */

/**
 * Thrown by a handler stub that has not been written yet. Tools answer
 * with a tool error result (isError), everything else with -32603, so an
 * unfilled handler never crashes the server.
 */
export class NotImplemented extends Error {
  constructor(readonly what: string) {
    super(`${what} is not implemented yet`);
    this.name = "NotImplemented";
  }
}
