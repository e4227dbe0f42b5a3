/**
 * A client project with authorization (`mcp-gen client --auth`, and every
 * everything example): it records `auth` in mcp-gen.json, carries the
 * runtime's oauth.ts and oauth/, and depends on oauth4webapi at the version
 * mcp-gen itself is tested with; a client without it carries and needs
 * neither.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { generatedFiles } from "../../generator/scaffold/scaffold.js";
import { runCli } from "../helpers/run-cli.js";
import { ROOT, tempDir } from "../helpers/index.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";

const OWN = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

async function project(options: { auth?: boolean; example?: "minimal" | "everything" }) {
  const { files, settings } = await scaffoldClient({
    dir: join(ROOT, "test", ".does-not-exist", "client-auth"),
    mcpGenDependency: "0.0.0",
    ...options,
  });
  const text = (path: string) => files.find((f) => f.path === path)?.contents;
  const manifest = JSON.parse(text("package.json")!) as {
    dependencies?: Record<string, string>;
  };
  const runtime = files.map((f) => f.path).filter((p) => p.startsWith("src/mcp-gen/runtime/oauth"));
  return { files, settings, manifest, runtime, text };
}

describe("a client project's authorization", () => {
  it("--auth: recorded, the OAuth runtime carried, oauth4webapi and jose pinned to mcp-gen's own versions", async () => {
    const { settings, manifest, runtime, text } = await project({ auth: true });
    expect(settings.auth).toBe(true);
    expect(JSON.parse(text("mcp-gen.json")!)).toMatchObject({ auth: true });
    expect(manifest.dependencies).toEqual({
      "ajv-formats": OWN.dependencies["ajv-formats"],
      jose: OWN.devDependencies.jose,
      oauth4webapi: OWN.devDependencies.oauth4webapi,
      re2js: OWN.dependencies.re2js,
    });
    expect(runtime).toEqual(
      expect.arrayContaining([
        "src/mcp-gen/runtime/oauth.ts",
        "src/mcp-gen/runtime/oauth/flow.ts",
        "src/mcp-gen/runtime/oauth/discovery.ts",
      ]),
    );
  });

  it("its command line signs in over HTTP: a loopback redirect, grants kept in files", async () => {
    const { text } = await project({ auth: true });
    const connect = text("src/connect.ts")!;
    expect(connect).toContain("connectHttp(address.url, { auth: await signIn() })");
    expect(connect).toMatch(/loopbackRedirect\(/);
    expect(connect).toMatch(/new FileTokenStore\(/);
  });

  it("mcp-gen client --auth makes a project that compiles under --strict", async () => {
    const cwd = tempDir("client-auth");
    const run = await runCli(["client", "proj", "--auth", "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const project = join(cwd, "proj");
    linkNodeModules(project);
    expect(compileProject(project).errors).toEqual([]);
  }, 120_000);

  it("regeneration from mcp-gen.json keeps it", async () => {
    const { settings } = await project({ auth: true });
    const again = await generatedFiles(settings, join(ROOT, "test", ".does-not-exist"), []);
    expect(again.map((f) => f.path)).toContain("src/mcp-gen/runtime/oauth/flow.ts");
  });

  it("the everything example always has it: its conformance client signs in", async () => {
    const { settings, manifest, text } = await project({ example: "everything" });
    expect(settings.auth).toBe(true);
    expect(manifest.dependencies).toHaveProperty("oauth4webapi");
    expect(text("src/conformance.ts")).toContain("./mcp-gen/runtime/oauth.js");
  });

  it("without it: no oauth runtime, no dependency, nothing in mcp-gen.json", async () => {
    const { settings, manifest, runtime, files } = await project({});
    expect(settings.auth).toBe(undefined);
    // Only what every client's tool validators may need (format checks, linear-time patterns).
    expect(manifest.dependencies).toEqual({
      "ajv-formats": OWN.dependencies["ajv-formats"],
      re2js: OWN.dependencies.re2js,
    });
    expect(runtime).toEqual([]);
    expect(files.some((f) => f.contents.includes("oauth4webapi"))).toBe(false);
    expect(files.find((f) => f.path === "src/connect.ts")!.contents).not.toContain("OAuth");
  });
});
