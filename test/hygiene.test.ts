/**
 * The suite's own hygiene check (test/setup.ts): a test file that leaves
 * anything in its temporary folder fails, naming what it left, and the
 * folder is removed all the same. Runs vitest on two small test files
 * (test/fixtures/leak-check), one of which leaks.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { expect, it } from "vitest";
import { ROOT, tempDir } from "./helpers/index.js";

it("a test file that leaves something in its temporary folder fails, naming it; nothing stays", async () => {
  const osTmp = tempDir("os-tmp");
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|NODE_ENV$|TEST$)/.test(k)),
  );
  const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        join(ROOT, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--config",
        join(ROOT, "test", "fixtures", "leak-check", "vitest.config.ts"),
      ],
      {
        cwd: ROOT,
        env: { ...env, MCP_GEN_TEST_OS_TMPDIR: osTmp, TMPDIR: osTmp },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : null) : 0,
          text: stripVTControlCharacters(`${stdout}${stderr}`),
        }),
    );
  });
  expect(output.code, output.text).toBe(1);
  expect(output.text).toMatch(/FAIL\s+leaks\.fixture\.ts/);
  expect(output.text).toMatch(
    /Error: this test file left 1 entries in its temporary folder: mcp-gen-left-\w+\. Make them with tempDir\(\) from test\/helpers\/index\.ts, or remove them in afterAll\./,
  );
  expect(output.text).toMatch(/Test Files\s+1 failed \| 1 passed \(2\)/);
  expect(readdirSync(osTmp)).toEqual([]);
}, 150_000);
