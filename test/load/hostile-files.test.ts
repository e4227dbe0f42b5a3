/**
 * Input files that are not what they seem: a tools file, schema or
 * mcp-gen.json that is a character device (/dev/zero never ends) or a FIFO
 * (opening it would wait for a writer) is refused at once with MCPG214;
 * a schema folder's file, or an extension's, that leads outside its folder
 * (a symbolic link, or `..`) is refused with MCPG215 naming both paths.
 * Each case would have hung, run out of memory or read a file elsewhere.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../generator/config/config.js";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/index.js";
import { readToolsFile } from "../../generator/scaffold/scaffold.js";
import { testSources } from "../helpers/index.js";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";

const SCHEMA = join(process.env.MCP_GEN_SCHEMA_DIR!, "2026-07-28", "schema.json");

/** The diagnostics `run` throws, formatted; fails when it throws something else or nothing. */
async function diagnostics(run: () => unknown): Promise<string[]> {
  try {
    await run();
  } catch (error) {
    if (error instanceof McpGenError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
  throw new Error("no diagnostic: the input was accepted");
}

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  const made = spawnSync("mkfifo", [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${String(made.stderr)}`);
  return path;
}

const generateFrom = (spec: string, extensions: string[] = []) =>
  generate({ spec, extensions, out: "out", sources: testSources(), stampVersion: false });

describe("files that are not regular files", () => {
  it("a tools file that is /dev/zero is refused at once, not read until memory runs out", async () => {
    expect(await diagnostics(() => readToolsFile("/dev/zero", "tools.json"))).toEqual([
      "tools.json: error MCPG214: the file is a character device, not a regular file, so mcp-gen does not read it (fix: save the input to a regular file and point mcp-gen at that (a pipe or a device is never read))",
    ]);
  });

  it("mcp-gen server --tools <a FIFO> exits 2 naming it, without waiting for a writer", async () => {
    const cwd = tempDir("hostile-fifo");
    fifo(cwd, "tools.json");
    const run = await runCli(["server", "proj", "--tools", "tools.json", "--quiet"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("tools.json: error MCPG214: the file is a FIFO (named pipe)");
  });

  it("a schema folder whose schema.json is a FIFO is refused", async () => {
    const spec = join(tempDir("hostile-spec-fifo"), "spec");
    mkdirSync(spec);
    fifo(spec, "schema.json");
    expect(await diagnostics(() => generateFrom(spec))).toEqual([
      expect.stringMatching(
        /^spec\/schema\.json: error MCPG214: the file is a FIFO \(named pipe\)/,
      ),
    ]);
  });

  it("an mcp-gen.json that is a FIFO is refused", async () => {
    const path = fifo(tempDir("hostile-config-fifo"), "mcp-gen.json");
    expect(await diagnostics(() => readConfig(path))).toEqual([
      expect.stringContaining("mcp-gen.json: error MCPG214: the file is a FIFO (named pipe)"),
    ]);
  });
});

describe("files that lead outside their folder", () => {
  it("a schema folder's schema.json linked to a file elsewhere is refused, naming both", async () => {
    const dir = tempDir("hostile-link");
    const outside = join(dir, "elsewhere.json");
    copyFileSync(SCHEMA, outside);
    const spec = join(dir, "spec");
    mkdirSync(spec);
    symlinkSync(outside, join(spec, "schema.json"));
    expect(await diagnostics(() => generateFrom(spec))).toEqual([
      `spec/schema.json: error MCPG215: ${join(spec, "schema.json")} leads to ${outside}, outside ${spec}; mcp-gen reads only files inside the folder it was given (fix: copy the file into the folder instead of linking to it (or referring to it with ..))`,
    ]);
  });

  it("a link that stays inside the folder is followed", async () => {
    const spec = join(tempDir("inside-link"), "spec");
    mkdirSync(join(spec, "real"), { recursive: true });
    copyFileSync(SCHEMA, join(spec, "real", "schema.json"));
    symlinkSync(join(spec, "real", "schema.json"), join(spec, "schema.json"));
    copyFileSync(SCHEMA.replace(/\.json$/, ".ts"), join(spec, "schema.ts"));
    const result = await generateFrom(spec);
    expect(result.files.length).toBeGreaterThan(0);
  });

  /** A copy of the echo extension whose manifest names `schema` as its schema file. */
  function extension(schema: string): { dir: string; folder: string } {
    const dir = tempDir("hostile-ext");
    const folder = join(dir, "echo");
    mkdirSync(folder);
    const manifest = JSON.parse(
      readFileSync(fixture("ext-echo/mcp-extension.json"), "utf8"),
    ) as Record<string, unknown>;
    delete manifest.$schema;
    writeFileSync(
      join(folder, "mcp-extension.json"),
      JSON.stringify({ ...manifest, schema }, null, 2),
    );
    return { dir, folder };
  }

  it("an extension whose schema file is a link to a file outside its folder is refused, naming both", async () => {
    const { dir, folder } = extension("schema.json");
    const outside = join(dir, "outside.json");
    copyFileSync(fixture("ext-echo/schema.json"), outside);
    symlinkSync(outside, join(folder, "schema.json"));
    expect(await diagnostics(() => generateFrom("2026-07-28", [folder]))).toEqual([
      expect.stringContaining(
        `error MCPG215: ${join(folder, "schema.json")} leads to ${outside}, outside ${folder}`,
      ),
    ]);
  });

  it("an extension whose manifest refers to a file outside its folder with .. is refused", async () => {
    const { dir, folder } = extension("../outside.json");
    copyFileSync(fixture("ext-echo/schema.json"), join(dir, "outside.json"));
    expect(await diagnostics(() => generateFrom("2026-07-28", [folder]))).toEqual([
      expect.stringContaining(`leads to ${join(dir, "outside.json")}, outside ${folder}`),
    ]);
  });
});
