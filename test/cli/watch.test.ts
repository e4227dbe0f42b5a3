/**
 * `mcp-gen generate --watch`: a real CLI process that generates, then
 * regenerates when the spec folder or mcp-gen.json changes; a burst of
 * changes makes one run; a run that fails is shown and watching goes on;
 * SIGTERM ends it with exit 0.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixture, startCli, tempDir, type LiveCli } from "../helpers/run-cli.js";
import { sleep } from "../helpers/wait.js";

const running: LiveCli[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop("SIGKILL")));
});

/** How many runs have written so far. */
const writes = (stdout: string) => stdout.split("\n").filter((l) => l.startsWith("wrote ")).length;
/** How many times watching (re)started: once after every run. */
const watching = (stderr: string) =>
  stderr.split("\n").filter((l) => l.startsWith("mcp-gen: watching ")).length;

describe("generate --watch", () => {
  it("regenerates on a change of the spec or the config, shows errors and goes on, stops on SIGTERM", async () => {
    const dir = tempDir("watch");
    const spec = join(dir, "schemas", "custom");
    cpSync(fixture("custom-schema"), spec, { recursive: true });
    const config = join(dir, "mcp-gen.json");
    writeFileSync(config, JSON.stringify({ targets: [{ spec: "schemas/custom", out: "out" }] }));
    const original = readFileSync(join(spec, "schema.json"), "utf8");
    const schema = JSON.parse(original) as { $defs: Record<string, unknown> };

    const cli = startCli(["generate", "--watch"], { cwd: dir, timeoutMs: 120_000 });
    running.push(cli);
    await cli.waitFor((out, err) => writes(out) === 1 && watching(err) === 1);
    expect(cli.stderr()).toContain("mcp-gen: watching 2 inputs for changes (Ctrl-C to stop)");

    // A burst of saves makes one run, which sees the last of them.
    for (const name of ["Leaf1", "Leaf2", "Leaf3", "Leaf4", "Leaf5"]) {
      schema.$defs[name] = { type: "object", properties: { name: { type: "string" } } };
      writeFileSync(join(spec, "schema.json"), JSON.stringify(schema, null, 2));
    }
    await cli.waitFor((out, err) => writes(out) === 2 && watching(err) === 2);
    expect(readFileSync(join(dir, "out", "types.gen.ts"), "utf8")).toContain("Leaf5");
    await sleep(600);
    expect(writes(cli.stdout())).toBe(2);

    // Bad input: the error is printed, the output stays, watching goes on.
    const good = readFileSync(join(dir, "out", "types.gen.ts"), "utf8");
    writeFileSync(join(spec, "schema.json"), "{ not json");
    await cli.waitFor((_out, err) => /error MCPG201: /.test(err) && watching(err) === 3);
    expect(readFileSync(join(dir, "out", "types.gen.ts"), "utf8")).toBe(good);
    writeFileSync(join(spec, "schema.json"), original);
    await cli.waitFor((out) => writes(out) === 3);
    expect(readFileSync(join(dir, "out", "types.gen.ts"), "utf8")).not.toContain("Leaf5");

    // A change of the config changes what is generated.
    writeFileSync(config, JSON.stringify({ targets: [{ spec: "schemas/custom", out: "moved" }] }));
    await cli.waitFor((out) => out.includes("wrote ") && out.endsWith("files to moved\n"));

    expect(await cli.stop("SIGTERM")).toBe(0);
  });

  it("with flags, watches the spec folder given", async () => {
    const dir = tempDir("watch");
    const spec = join(dir, "spec");
    cpSync(fixture("custom-schema"), spec, { recursive: true });
    const cli = startCli(["generate", "--watch", "--spec", "spec", "--out", "out"], { cwd: dir });
    running.push(cli);
    await cli.waitFor((_out, err) => watching(err) === 1);
    expect(cli.stderr()).toContain("mcp-gen: watching 1 input for changes");
    const schema = JSON.parse(readFileSync(join(spec, "schema.json"), "utf8")) as {
      $defs: Record<string, unknown>;
    };
    schema.$defs.Extra = { type: "string" };
    writeFileSync(join(spec, "schema.json"), JSON.stringify(schema));
    await cli.waitFor((out) => writes(out) === 2);
    expect(readFileSync(join(dir, "out", "types.gen.ts"), "utf8")).toContain("Extra");
    expect(await cli.stop("SIGINT")).toBe(0);
  });
});
