/**
 * Output writes survive a kill at any moment. The CLI regenerates a folder
 * (old output → new) and is killed with SIGKILL just before each rename the
 * write makes, and just after the last one (test/write/kill-at-rename.mjs
 * counts the renames): the folder is always there, every file in it whole
 * and either its old or its new version, and a later run completes the
 * output and removes what the killed one left. SIGTERM and SIGINT during a
 * write wait for it: the new output is complete, then the process ends.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BANNER_MARK } from "../../generator/emit/file.js";
import { ROOT } from "../helpers/index.js";
import { fixture, leftovers, runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";

const PRELOAD = join(ROOT, "test", "write", "kill-at-rename.mjs");
/** A file of the old output that the new one no longer emits: removed after the renames. */
const RETIRED = "retired.gen.ts";

let oldSpec: string;
let newSpec: string;
/** The old output (with RETIRED), and the new output as a fresh folder gets it. */
let before: Record<string, string>;
let after: Record<string, string>;
let pristine: string;
/** The renames one uninterrupted write from old to new makes. */
let renames: string[];

/** A fresh copy of the old output in a folder of its own: `<parent>/mcp`. */
function oldOutput(): { parent: string; out: string } {
  const parent = tempDir("kill");
  const out = join(parent, "mcp");
  cpSync(pristine, out, { recursive: true });
  return { parent, out };
}

function generate(out: string, options: Parameters<typeof runCli>[1] = {}) {
  return runCli(["generate", "--spec", newSpec, "--out", out, "--quiet"], options);
}

beforeAll(async () => {
  oldSpec = fixture("custom-schema");
  // The new revision adds a definition, so most generated files change.
  newSpec = join(tempDir("spec"), "custom-schema");
  mkdirSync(newSpec);
  const schema = JSON.parse(readFileSync(join(oldSpec, "schema.json"), "utf8")) as {
    $defs: Record<string, unknown>;
  };
  schema.$defs.Leaf = { type: "object", properties: { name: { type: "string" } } };
  writeFileSync(join(newSpec, "schema.json"), JSON.stringify(schema, null, 2));

  pristine = join(tempDir("pristine"), "mcp");
  expect((await runCli(["generate", "--spec", oldSpec, "--out", pristine, "--quiet"])).code).toBe(
    0,
  );
  writeFileSync(join(pristine, RETIRED), `// ${BANNER_MARK} (an older version)\nexport {};\n`);
  before = snapshotFolder(pristine);

  const fresh = join(tempDir("fresh"), "mcp");
  expect((await generate(fresh)).code).toBe(0);
  after = snapshotFolder(fresh);

  const { out } = oldOutput();
  const log = join(tempDir("log"), "renames.log");
  expect(
    (await generate(out, { nodeOptions: ["--import", PRELOAD], env: { RENAME_LOG: log } })).code,
  ).toBe(0);
  expect(snapshotFolder(out)).toEqual(after);
  renames = readFileSync(log, "utf8").split("\n").filter(Boolean);
}, 300_000);

/** Every file is its old or its new version, and no file both versions have is missing. */
function expectOldOrNew(out: string): void {
  const now = snapshotFolder(out);
  for (const [path, bytes] of Object.entries(now))
    expect([before[path], after[path]], `${path} is neither its old nor its new version`).toContain(
      bytes,
    );
  for (const path of Object.keys(after))
    if (path in before) expect(now, `${path} is missing`).toHaveProperty([path]);
}

describe("a kill at each rename", () => {
  it("renames the files that change, one by one, into the existing folder", () => {
    // Every file changes: each banner names the schema's sha256.
    const changed = Object.keys(after).filter((p) => before[p] !== after[p]);
    expect(changed.length).toBe(Object.keys(after).length);
    expect(renames.map((line) => line.split("\t")[1]!.split("/").pop()).sort()).toEqual(
      changed.sort(),
    );
  });

  it("SIGKILL before each rename leaves the folder, every file old or new; the next run completes it", async () => {
    for (let k = 1; k <= renames.length; k++) {
      const { parent, out } = oldOutput();
      const killed = await generate(out, {
        nodeOptions: ["--import", PRELOAD],
        env: { KILL_AT_RENAME: String(k) },
      });
      expect(killed.signal, `rename ${k}`).toBe("SIGKILL");
      expectOldOrNew(out);
      // The first k-1 changed files are new, the others still old.
      const renamed = new Set(
        renames.slice(0, k - 1).map((l) => l.split("\t")[1]!.split("/").pop()!),
      );
      for (const [path, bytes] of Object.entries(snapshotFolder(out)))
        expect(bytes, `rename ${k}: ${path}`).toBe(renamed.has(path) ? after[path] : before[path]);
      expect(leftovers(parent).length, `rename ${k}`).toBeGreaterThan(0);

      const again = await runCli(["generate", "--spec", newSpec, "--out", out]);
      expect(again.code, `rename ${k}`).toBe(0);
      expect(snapshotFolder(out), `rename ${k}`).toEqual(after);
      expect(leftovers(parent), `rename ${k}`).toEqual([]);
      expect(again.stderrLines.filter((l) => l.includes("MCPG507"))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${out}: note MCPG507: removed ${out}\\.mcp-gen-tmp-\\d+-[0-9a-f]+, left by an interrupted run$`,
          ),
        ) as string,
      ]);
    }
  }, 600_000);

  it("SIGKILL right after the last rename leaves the new files and the file no longer emitted; the next run removes it", async () => {
    const { parent, out } = oldOutput();
    const killed = await generate(out, {
      nodeOptions: ["--import", PRELOAD],
      env: { KILL_AT_RENAME: String(renames.length), KILL_WHEN: "after" },
    });
    expect(killed.signal).toBe("SIGKILL");
    expectOldOrNew(out);
    expect(snapshotFolder(out)).toEqual({ ...after, [RETIRED]: before[RETIRED] });
    expect((await generate(out)).code).toBe(0);
    expect(snapshotFolder(out)).toEqual(after);
    expect(leftovers(parent)).toEqual([]);
  });

  it.each(["SIGTERM", "SIGINT"])(
    "%s in the middle of the renames waits: the new output is complete, then the process ends",
    async (signal) => {
      const { parent, out } = oldOutput();
      const run = await generate(out, {
        nodeOptions: ["--import", PRELOAD],
        env: { KILL_AT_RENAME: String(Math.ceil(renames.length / 2)), KILL_SIGNAL: signal },
      });
      expect(run.signal).toBe(signal);
      expect(snapshotFolder(out)).toEqual(after);
      expect(leftovers(parent)).toEqual([]);
    },
  );

  it("SIGKILL while a new folder is renamed into place leaves no folder or the whole new one", async () => {
    for (const when of ["before", "after"]) {
      const parent = tempDir("kill");
      const out = join(parent, "mcp");
      const killed = await generate(out, {
        nodeOptions: ["--import", PRELOAD],
        env: { KILL_AT_RENAME: "1", KILL_WHEN: when },
      });
      expect(killed.signal).toBe("SIGKILL");
      expect(snapshotFolder(out)).toEqual(when === "before" ? {} : after);
      expect((await generate(out)).code).toBe(0);
      expect(snapshotFolder(out)).toEqual(after);
      expect(leftovers(parent)).toEqual([]);
    }
  });
});

describe("leftovers and the lock", () => {
  it("a run removes the staging folders of runs that are gone, and leaves a running one's alone", async () => {
    const { parent, out } = oldOutput();
    const dead = `${out}.mcp-gen-tmp-999999999-0a1b2c3d`;
    const older = `${out}.mcp-gen-old-999999999-0a1b`;
    const live = `${out}.mcp-gen-tmp-${process.pid}-00ff00ff`;
    for (const dir of [dead, older, live]) mkdirSync(join(dir, "sub"), { recursive: true });
    const run = await runCli(["generate", "--spec", newSpec, "--out", out]);
    expect(run.code).toBe(0);
    expect(run.stderrLines.filter((l) => l.includes("MCPG507")).sort()).toEqual(
      [dead, older]
        .map((d) => `${out}: note MCPG507: removed ${d}, left by an interrupted run`)
        .sort(),
    );
    expect(leftovers(parent)).toEqual([live.split("/").pop()]);
    rmSync(live, { recursive: true });
  });

  it("refuses to write while another live run holds the lock (MCPG506), and takes over a dead run's lock", async () => {
    const { parent, out } = oldOutput();
    writeFileSync(`${out}.mcp-gen-lock`, `${process.pid}\n`);
    const refused = await generate(out);
    expect(refused.code).toBe(2);
    expect(refused.stderrLines).toEqual([
      `${out}: error MCPG506: another mcp-gen (process ${process.pid}) is writing ${out} right now ` +
        `(fix: wait until it is done; if no process ${process.pid} runs any more, delete ${out}.mcp-gen-lock)`,
    ]);
    expect(snapshotFolder(out)).toEqual(before);
    writeFileSync(`${out}.mcp-gen-lock`, "999999999\n");
    expect((await generate(out)).code).toBe(0);
    expect(snapshotFolder(out)).toEqual(after);
    expect(leftovers(parent)).toEqual([]);
  });
});
