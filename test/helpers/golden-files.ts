/**
 * The one golden helper: compares every emitted file of a case with
 * test/golden/<case>/<path> (real .ts files, reviewable), and fails on
 * golden files the case no longer emits. Update with `npx vitest -u`,
 * read the diff, commit.
 */
import { join } from "node:path";
import { expect } from "vitest";
import type { EmittedFile } from "../../generator/index.js";
import { listFiles } from "../../generator/write/write-output.js";
import { ROOT } from "./index.js";

/** Asserts that `files` equal the goldens of `caseName`, byte for byte. */
export async function expectGoldenFiles(
  caseName: string,
  files: readonly EmittedFile[],
): Promise<void> {
  const dir = join(ROOT, "test", "golden", caseName);
  for (const file of files) await expect(file.contents).toMatchFileSnapshot(join(dir, file.path));
  const emitted = new Set(files.map((f) => f.path));
  const leftovers = listFiles(dir).filter((p) => !emitted.has(p));
  expect(leftovers, `golden files of ${caseName} that are no longer emitted; delete them`).toEqual(
    [],
  );
}
