/**
 * What a server's handler stubs throw until they are written.
 */
import { Codes, McpError } from "../core/errors.js";
import type { MethodHandler } from "./definitions.js";

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

/** Runs a handler; a stub not written yet (NotImplemented) becomes -32603 with its own message. */
export async function notImplementedAsError<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NotImplemented) throw new McpError(Codes.InternalError, error.message);
    throw error;
  }
}

/** A method handler whose stub not written yet answers with its own message rather than a bare "Internal error". */
export function answeringStubs(handler: MethodHandler | undefined): MethodHandler | undefined {
  return handler && ((params, ctx) => notImplementedAsError(() => handler(params, ctx)));
}
