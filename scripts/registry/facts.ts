/**
 * Computes, from a revision's schemas, the facts schema/revisions.json
 * records about it (its methods, notifications and error code constants),
 * so generating one revision knows what the others define.
 */
import { checkSources } from "../../generator/check/check-sources.js";
import { throwIfErrors } from "../../generator/diagnostics.js";
import { loadSources } from "../../generator/load/load-sources.js";
import type { SchemaSources } from "../../generator/load/resolve-spec.js";
import { buildModel } from "../../generator/model/build.js";

/** What the registry records of one revision. */
export interface RevisionFacts {
  readonly methods: string[];
  readonly notifications: string[];
  readonly errorCodes: Record<string, number>;
}

/** JSON-RPC 2.0 reserves -32768..-32000 for errors. */
const ERROR_RANGE = { min: -32768, max: -32000 };

/** The facts of a known revision, read from its schema.json and schema.ts. */
export async function revisionFacts(
  revision: string,
  sources: SchemaSources,
): Promise<RevisionFacts> {
  const loaded = await loadSources({ spec: revision, sources });
  throwIfErrors(checkSources(loaded));
  const { model } = buildModel(loaded);
  const errorCodes: Record<string, number> = {};
  for (const [name, { value }] of Object.entries(loaded.schemaTs?.constants ?? {})) {
    if (typeof value === "number" && value >= ERROR_RANGE.min && value <= ERROR_RANGE.max)
      errorCodes[name] = value;
  }
  return {
    methods: model.requests.map((r) => r.method),
    notifications: model.notifications.map((n) => n.method),
    errorCodes: Object.fromEntries(Object.entries(errorCodes).sort(([, a], [, b]) => b - a)),
  };
}
