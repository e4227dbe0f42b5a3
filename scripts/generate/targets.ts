/**
 * What generated/ holds: every known revision, and every known extension
 * with each revision it targets (`2026-07-28+tasks`).
 */
import { knownRevisions, readRegistry } from "../../generator/index.js";
import { knownExtensions } from "../../generator/load/extensions.js";

/** One folder of generated/. */
export interface GeneratedTarget {
  readonly folder: string;
  readonly spec: string;
  readonly extensions: readonly string[];
}

/** The folders of generated/, in a stable order. */
export function generatedTargets(): GeneratedTarget[] {
  const revisions = knownRevisions(readRegistry());
  const plain = revisions.map((spec) => ({ folder: spec, spec, extensions: [] }));
  const extended = knownExtensions().flatMap(({ manifest }) =>
    manifest.revisions
      .filter((r) => revisions.includes(r))
      .map((spec) => ({ folder: `${spec}+${manifest.name}`, spec, extensions: [manifest.name] })),
  );
  return [...plain, ...extended];
}
