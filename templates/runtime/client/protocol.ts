/**
 * What a client needs of a generated protocol module: core's ProtocolModule
 * (tables and validators) and `parseResponse`, which checks a response
 * against the result definition its resultType selects.
 */
import type { ParseOutcome, ProtocolModule } from "../core/protocol.js";

/** A generated module as a client uses it. */
export interface ClientProtocol extends ProtocolModule {
  /** Every revision mcp-gen knew when it generated the module, oldest first. */
  readonly KNOWN_REVISIONS?: readonly string[];
  parseResponse(input: unknown, method: never): ParseOutcome;
}

/** `parseResponse` with a plain string method (the client names methods at run time). */
export function parseResponseOf(
  protocol: ClientProtocol,
  response: unknown,
  method: string,
): ParseOutcome {
  return (protocol.parseResponse as (input: unknown, method: string) => ParseOutcome)(
    response,
    method,
  );
}
