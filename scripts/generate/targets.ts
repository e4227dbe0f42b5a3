/**
 * What generated/ holds: every known revision, and every known extension
 * with each revision it targets (`2026-07-28+tasks`).
 */
import { knownRevisions, readRegistry } from "../../generator/index.js";
import { knownExtensions } from "../../generator/load/extensions.js";

/** One folder of generated/ (TypeScript) or generated-python/ (a Python package). */
export interface GeneratedTarget {
  readonly folder: string;
  readonly spec: string;
  readonly extensions: readonly string[];
  readonly language: "typescript" | "python";
}

/** The folders of generated/ (and, for "python" in `languages`, of generated-python/), in a stable order. */
export function generatedTargets(
  languages: ReadonlyArray<GeneratedTarget["language"]> = ["typescript"],
): GeneratedTarget[] {
  const revisions = knownRevisions(readRegistry());
  const plain = revisions.map((spec) => ({ folder: spec, spec, extensions: [] as string[] }));
  const extended = knownExtensions().flatMap(({ manifest }) =>
    manifest.revisions
      .filter((r) => revisions.includes(r))
      .map((spec) => ({ folder: `${spec}+${manifest.name}`, spec, extensions: [manifest.name] })),
  );
  return languages.flatMap((language) =>
    [...plain, ...extended].map((target) => ({ ...target, language })),
  );
}
