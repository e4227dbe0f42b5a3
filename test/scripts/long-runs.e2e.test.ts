/**
 * The fuzzer and the soak as CI runs them: short and seeded, but the real
 * scripts end to end (`npm run fuzz:server` scaffolds and installs the
 * everything server; `npm run soak:tasks` runs two instances on a real
 * redis-server). Each must end with no finding, nothing lost or duplicated,
 * and say so in its own summary line.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/index.js";
import { projectEnv } from "../helpers/project.js";

const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function script(
  file: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, join(ROOT, "scripts", file), ...args],
      {
        cwd: ROOT,
        // tsx keeps a cache in the temporary folder: one of this test's own, removed with it.
        env: projectEnv({ TMPDIR: tempDir("long-runs") }),
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

describe("the long-running scripts, short", () => {
  it("fuzz:server with seed 7: 3,000 HTTP messages and 3,000 stdio lines, no finding", async () => {
    const run = await script("fuzz/index.ts", ["--seed=7", "--http=3000", "--stdio=3000"], 480_000);
    expect(run.output).toMatch(/\[http\] 3000 messages in/);
    expect(run.output).toMatch(/\nfuzz: no findings\n/);
    expect(run.code, run.output).toBe(0);
  }, 500_000);

  it("soak:tasks for 20 seconds: tasks created, none lost or duplicated", async () => {
    const run = await script("soak/index.ts", ["--minutes=0.34", "--clients=4"], 180_000);
    const redis =
      /Redis: (\d+) task keys, jobs started (\d+), for (\d+) tasks created; lost 0, duplicated 0, unexpected 0/.exec(
        run.output,
      );
    expect(redis, run.output).not.toBe(null);
    expect(Number(redis![3])).toBeGreaterThan(50);
    expect(run.code, run.output).toBe(0);
  }, 200_000);
});
