/**
 * Reading a body from a peer this process does not trust: chunks are
 * counted as they arrive and the reading stops as soon as they pass the
 * limit, so a body is never held past it whatever the peer announced.
 * The one reader for bodies that come in (the authorization server's
 * answers, an MCP server's replies to the client).
 */

/** A body larger than its limit. */
export class BodyTooLarge extends Error {
  override readonly name = "BodyTooLarge";
  constructor(
    /** The limit, in bytes. */
    readonly maxBytes: number,
    /** What the body said it had (Content-Length), when it said so. */
    readonly declared?: number,
  ) {
    super(
      declared !== undefined
        ? `the body has ${declared} bytes, more than ${maxBytes}`
        : `the body has more than ${maxBytes} bytes`,
    );
  }
}

/**
 * The chunks as UTF-8 text, at most `maxBytes` of them; `declared` (a
 * Content-Length) is checked first. Throws BodyTooLarge past the limit,
 * after calling `stop` so the rest is not received.
 */
export async function readTextWithin(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  options: { readonly declared?: number; readonly stop?: () => void } = {},
): Promise<string> {
  if (options.declared !== undefined && options.declared > maxBytes) {
    options.stop?.();
    throw new BodyTooLarge(maxBytes, options.declared);
  }
  const received: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > maxBytes) {
      options.stop?.();
      throw new BodyTooLarge(maxBytes);
    }
    received.push(chunk);
  }
  // One decode of the whole body: a big tools/list arrives in dozens of chunks, and a streaming
  // decode of each plus a join took about 1.3x as long. The bytes are held either way.
  if (received.length === 1) return new TextDecoder().decode(received[0]);
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of received) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(body);
}

/** A Content-Length header's value as a number, or undefined when it is absent or not one. */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}
