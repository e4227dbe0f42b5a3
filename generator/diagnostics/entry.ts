/** The shape of one entry of the diagnostics catalog. */

/** How serious a diagnostic is. Errors stop generation; warnings and notes do not. */
export type Severity = "error" | "warning" | "note";

/** A message and its fix, as functions of the diagnostic's parameters. */
export interface CatalogEntry<P> {
  readonly severity: Severity;
  readonly message: (params: P) => string;
  readonly fix?: (params: P) => string;
}

/** An entry with its parameters' type `P` kept for {@link diagnostic}'s typing. */
export function entry<P>(e: CatalogEntry<P>): CatalogEntry<P> {
  return e;
}
