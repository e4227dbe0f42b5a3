/**
 * The compiled-code cache copies code into generated files, so it is
 * trusted only as far as no one else could have written it: an entry is
 * used under the key it was written with, and not when the entry or its
 * folder belongs to another user or is writable by group or others; and
 * `generate --check` never takes code from it, so a planted entry makes a
 * project stale instead of being called up to date.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compiledCodeCacheIn } from "../../generator/load/code-cache.js";
import { tempDir } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

describe("the compiled-code cache", () => {
  const KEY = "a".repeat(64);

  it("gives an entry back only under the key it was written with", () => {
    const dir = tempDir("cache-key");
    const cache = compiledCodeCacheIn(dir);
    cache.set(KEY, "code");
    expect(cache.get(KEY)).toBe("code");
    const other = "b".repeat(64);
    writeFileSync(
      join(dir, "compiled", `${other}.json`),
      readFileSync(join(dir, "compiled", `${KEY}.json`)),
    );
    expect(cache.get(other)).toBeUndefined();
  });

  it.skipIf(typeof process.getuid !== "function")(
    "does not read an entry, or a folder, that another user could have written",
    () => {
      const dir = tempDir("cache-mode");
      const cache = compiledCodeCacheIn(dir);
      cache.set(KEY, "code");
      const entry = join(dir, "compiled", `${KEY}.json`);
      chmodSync(entry, 0o666);
      expect(cache.get(KEY)).toBeUndefined();
      chmodSync(entry, 0o644);
      expect(cache.get(KEY)).toBe("code");
      chmodSync(join(dir, "compiled"), 0o777);
      expect(cache.get(KEY)).toBeUndefined();
      chmodSync(join(dir, "compiled"), 0o755);
    },
  );

  it("--check never trusts it: code planted in an entry makes a project stale", async () => {
    const cwd = tempDir("cache-plant");
    const cacheDir = tempDir("cache-plant-cache");
    writeFileSync(
      join(cwd, "tools.json"),
      JSON.stringify([
        { name: "t", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
      ]),
    );
    const made = await runCli(["server", "out", "--tools", "tools.json", "--quiet"], {
      cwd,
      cacheDir,
    });
    expect(made.code, made.stderr).toBe(0);
    const project = join(cwd, "out");
    // Plant: every compiled entry's code replaced, hash and key kept consistent.
    const folder = join(cacheDir, "compiled");
    const { createHash } = await import("node:crypto");
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const entry = JSON.parse(readFileSync(path, "utf8")) as { key: string; code: string };
      const code = `${entry.code}\nglobalThis.planted = true;`;
      const sha256 = createHash("sha256").update(code).digest("hex");
      writeFileSync(path, JSON.stringify({ key: entry.key, sha256, code }), { mode: 0o644 });
    }
    const checked = await runCli(["generate", "--check", "--quiet"], { cwd: project, cacheDir });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    // A regeneration that trusts its own cache writes the planted code; --check then says so.
    const regenerated = await runCli(["generate", "--quiet"], { cwd: project, cacheDir });
    expect(regenerated.code, regenerated.stderr).toBe(0);
    const validators = readFileSync(
      join(project, "src/generated/tool-validators-2020.gen.js"),
      "utf8",
    );
    expect(validators).toContain("globalThis.planted");
    const stale = await runCli(["generate", "--check", "--quiet"], { cwd: project, cacheDir });
    expect(stale.code).not.toBe(0);
    expect(stale.stdout + stale.stderr).toContain("tool-validators-2020.gen.js");
  });
});
