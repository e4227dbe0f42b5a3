/**
 * Limits on incoming messages, checked before anything parses or
 * validates them, so hostile input costs little and cannot exhaust the
 * stack of the recursive validators.
 */

/** The deepest nesting of objects and arrays a message may have (default). */
export const MAX_DEPTH = 64;

/** The largest message accepted, in bytes (default; the HTTP transport's body limit). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Whether JSON text nests deeper than `limit` objects and arrays. Scans the
 * text once, skipping strings; the text need not be valid JSON.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
