/**
 * `mcp-gen diff`: what changed between two models (two revisions, or a
 * revision and a folder), one {@link Change} per fact: methods,
 * notifications, resultType values, error codes, capabilities and
 * definitions. Each change names the sides it breaks.
 *
 * A change breaks servers when a server written against `from` may stop
 * compiling or conforming against `to`: it must now send something, may no
 * longer send something, or may receive something it does not handle.
 * Likewise for clients. Who sends what follows from the model: a request's
 * direction says who sends its params and who its result, and a
 * definition is sent by whoever sends a message that reaches it through
 * `$ref`s (both sides when no message reaches it).
 */
import type { McpModel } from "../model/types.js";
import { type DiffSide, type ModelDiff, sortChanges } from "./changes.js";
import type { SchemaContext } from "./compare-schemas.js";
import { diffDefinitions } from "./diff-definitions.js";
import { diffMessages } from "./diff-messages.js";
import {
  diffCapabilities,
  diffErrorCodes,
  diffResultTypes,
  resultTypesIntroduced,
} from "./diff-tables.js";

export type { Change, ChangeCategory, DiffSide, ModelDiff, Side } from "./changes.js";

/** Compares two models; `fromSpec` and `toSpec` are the arguments as given. */
export function diffModels(
  from: McpModel,
  to: McpModel,
  fromSpec: string = from.revision,
  toSpec: string = to.revision,
): ModelDiff {
  const context: SchemaContext = {
    from: new Map(from.declarations.map((d) => [d.name, d.schema])),
    to: new Map(to.declarations.map((d) => [d.name, d.schema])),
  };
  const definitions = diffDefinitions(from, to, context);
  const changes = sortChanges([
    ...diffMessages(
      "method",
      from.requests,
      to.requests,
      definitions,
      resultTypesIntroduced(from, to),
    ),
    ...diffMessages("notification", from.notifications, to.notifications, definitions, false),
    ...diffResultTypes(from, to),
    ...diffErrorCodes(from, to),
    ...diffCapabilities(from, to),
    ...definitions.changes,
  ]);
  return {
    format: 1,
    from: sideOf(from, fromSpec),
    to: sideOf(to, toSpec),
    summary: {
      changes: changes.length,
      breakingServers: changes.filter((c) => c.breaking.includes("servers")).length,
      breakingClients: changes.filter((c) => c.breaking.includes("clients")).length,
    },
    changes,
  };
}

function sideOf(model: McpModel, spec: string): DiffSide {
  return {
    spec,
    revision: model.revision,
    protocolVersion: model.protocolVersion,
    known: model.known,
    extensions: model.extensions.map((e) => e.id),
    sources: model.sources.map((s) => ({ name: s.name, sha256: s.sha256 })),
  };
}
