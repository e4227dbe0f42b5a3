/**
 * Extensions in the forms upstream publishes them: Skills as TypeScript in
 * its specification page, MCP Apps as a defective schema inside an npm
 * tarball with messages on another channel and members deep in core
 * definitions.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "tar";
import { describe, expect, it } from "vitest";
import { generate, McpGenError, writeOutput } from "../../generator/index.js";
import { archiveMember } from "../../generator/load/archive-member.js";
import { ROOT, tempDir } from "../helpers/index.js";

const fixture = (name: string) => join(ROOT, "test", "fixtures", name);

describe("an extension published only as TypeScript (Skills)", () => {
  it("derives its schema from the page, resolving the names it uses in the base revision", async () => {
    const { model, diagnostics } = await generate({
      spec: "2026-07-28",
      extensions: ["skills"],
      out: "out",
    });
    const skills = model.extensions.find((e) => e.name === "skills")!;
    expect(skills.requests.map((r) => r.method)).toEqual([
      "resources/directory/read",
      "skills/get",
      "skills/list",
    ]);
    // Its own types only: the base's (CacheableResult, Resource, ...) fold into the core definitions.
    expect(skills.definitions).toEqual([
      "SkillResource",
      "Skill",
      "ListSkillsRequest",
      "ListSkillsResult",
      "GetSkillRequest",
      "GetSkillResult",
      "ReadResourceDirectoryRequest",
      "ReadResourceDirectoryResult",
    ]);
    const result = model.declarations.find((d) => d.name === "ListSkillsResult")!;
    expect(JSON.stringify(result.schema)).toContain('"ttlMs"');
    expect(
      diagnostics
        .filter((d) => d.code === "MCPG620")
        .map((d) => [d.location?.file, d.location?.line]),
    ).toEqual([["extensions/skills/skills.mdx", 505]]);
  });

  it("refuses a page that uses a name neither it nor the base revision declares, at its line", async () => {
    const dir = tempDir("ts-only");
    writeFileSync(
      join(dir, "mcp-extension.json"),
      JSON.stringify({
        id: "com.example/pages",
        name: "pages",
        revisions: ["2026-07-28"],
        schemaTs: "page.md",
      }),
    );
    writeFileSync(
      join(dir, "page.md"),
      "# Pages\n\nText.\n\n```typescript\ninterface GetPageResult extends Result {\n  page: Missing;\n}\n```\n",
    );
    const error = await generate({ spec: "2026-07-28", extensions: [dir], out: "out" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => [d.code, d.location?.line])).toEqual([
      ["MCPG621", 7],
    ]);
  });
});

describe("MCP Apps", () => {
  it("repairs the published schema with a named patch, and keeps ui/* off the MCP connection", async () => {
    const out = tempDir("apps");
    const { model, files, diagnostics } = await generate({
      spec: "2026-07-28",
      extensions: ["apps"],
      out,
    });
    expect(
      diagnostics.some(
        (d) => d.code === "MCPG303" && d.message.includes("apps-hoist-nested-json-value"),
      ),
    ).toBe(true);
    expect(model.channelMessages).toHaveLength(17);
    // The rule, for every message the manifest places on another channel: no MCP table names it.
    const onMcp = [...model.requests, ...model.notifications].map((m) => m.method);
    const wireFiles = ["methods.gen.ts", "messages.gen.ts", "result-types.gen.ts"].map(
      (path) => files.find((f) => f.path === path)!.contents,
    );
    for (const message of model.channelMessages) {
      expect(onMcp).not.toContain(message.method);
      for (const contents of wireFiles) expect(contents).not.toContain(`"${message.method}"`);
    }
    expect(files.find((f) => f.path === "protocol.gen.ts")!.contents).toContain(
      '"ui/initialize": {',
    );
  });

  it("types and validates Tool._meta.ui and the client's mimeTypes", async () => {
    const validators = await import("../../generated/2026-07-28+apps/validators.gen.js");
    const tool = { name: "t", inputSchema: { type: "object" } };
    expect(
      validators.validate("Tool", { ...tool, _meta: { ui: { resourceUri: "ui://t" } } }).ok,
    ).toBe(true);
    const bad = validators.validate("Tool", { ...tool, _meta: { ui: { resourceUri: 42 } } });
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toContain("/_meta/ui/resourceUri");
    // Another _meta keeps the core's open MetaObject.
    expect(validators.validate("Prompt", { name: "p", _meta: { ui: 42 } }).ok).toBe(true);
    const capabilities = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [1] } } };
    expect(validators.validate("ClientCapabilities", capabilities).ok).toBe(false);
  });

  it("still refuses a user's extension with a nested $defs its $refs cannot reach, at the exact pointer", async () => {
    const error = await generate({
      spec: "2026-07-28",
      extensions: [fixture("ext-bad-nested-defs")],
      out: "out",
    }).catch((e: unknown) => e);
    expect((error as McpGenError).diagnostics.map((d) => [d.code, d.location?.pointer])).toEqual([
      ["MCPG202", "/$defs/WidgetState/properties/value/$ref"],
    ]);
  });
});

describe("a pinned file inside an npm tarball", () => {
  async function tarball(files: Record<string, string>): Promise<Uint8Array> {
    const dir = tempDir("tarball");
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const file = join(dir, "p.tgz");
    await create({ gzip: true, cwd: dir, file, portable: true }, Object.keys(files));
    return readFileSync(file);
  }
  const integrity = (bytes: Uint8Array) =>
    `sha512-${Buffer.from(sha512(bytes), "hex").toString("base64")}`;

  it("is the member's bytes when the archive has its pinned integrity", async () => {
    const archive = await tarball({ "package/schema.json": "{}\n", "package/x.js": "1" });
    const member = await archiveMember(archive, {
      member: "package/schema.json",
      integrity: integrity(archive),
    });
    expect(Buffer.from(member).toString()).toBe("{}\n");
  });

  it("refuses an archive of other bytes before opening it, and one without the member", async () => {
    const archive = await tarball({ "package/schema.json": "{}\n" });
    await expect(
      archiveMember(archive, {
        member: "package/schema.json",
        integrity: integrity(new Uint8Array(1)),
      }),
    ).rejects.toThrow(/not the pinned sha512-/);
    await expect(
      archiveMember(archive, { member: "package/other.json", integrity: integrity(archive) }),
    ).rejects.toThrow("the archive holds no file package/other.json");
  });
});

describe("generated code compiles at any schema", () => {
  it(
    "tsc compiles a module whose validator function is over 150 KB",
    { timeout: 300_000 },
    async () => {
      const out = tempDir("large-validator");
      const result = await generate({
        spec: "2026-07-28",
        extensions: [fixture("ext-large-validator")],
        out,
      });
      writeOutput(out, result.files);
      const code = readFileSync(join(out, "ajv-validators.gen.js"), "utf8");
      const functions = code.split(/\n(?=function validate)/);
      expect(Math.max(...functions.map((f) => f.length))).toBeGreaterThan(150 * 1024);
      writeFileSync(
        join(out, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            noEmit: true,
            types: [],
          },
          include: ["*.ts"],
        }),
      );
      const tsc = spawnSync(
        process.execPath,
        [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", out],
        {
          encoding: "utf8",
        },
      );
      expect(tsc.stdout + tsc.stderr).toBe("");
      expect(tsc.status).toBe(0);
    },
  );
});

function sha512(bytes: Uint8Array): string {
  return createHash("sha512").update(bytes).digest("hex");
}
