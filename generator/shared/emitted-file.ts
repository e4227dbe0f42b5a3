/**
 * The record of a generated file, which every stage from load (committed
 * output, load/committed-output.ts) to write passes around.
 */

/** A file an emitter produces: a path relative to the output folder and its text. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}
