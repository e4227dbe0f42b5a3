/**
 * Builds dist/ once before the suite, so tests that run the CLI as a child
 * process test the code under review, not a stale build.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], {
    cwd: resolve(import.meta.dirname, ".."),
    stdio: "inherit",
  });
}
