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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Strings are most of a message: jump to their closing quote instead of stepping through.
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opening at `open`, or -1 when none does. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    // A quote after an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92 /* \\ */) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
