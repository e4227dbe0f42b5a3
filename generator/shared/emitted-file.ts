/**
 * The record of a generated file, which every stage from load (committed
 * output, load/committed-output.ts) to write passes around.
 */

/** A file an emitter produces: a path relative to the output folder and its text. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}

/** Files sorted by path: the one order generated files are listed, compared and written in. */
export function byPath<F extends EmittedFile>(files: readonly F[]): F[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
