/**
 * The Skills extension served by the runtime (server/skills.ts), from the
 * skill folders of test/fixtures/skills-folder (read here as a project
 * would: files and SKILL.md's YAML frontmatter), over HTTP on 127.0.0.1:
 * entries with the frontmatter verbatim and every file's sha256 digest and
 * size, paged; -32602 for a skill or directory it does not serve; the
 * directory tree; and the per-skill limits and naming rules refused when
 * the skills are served.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as skillsProtocol from "../../../generated/2026-07-28+skills/index.js";
import { McpServer, serveHttp, serveSkills, type Skill } from "../../../templates/runtime/index.js";
import { fixture } from "../../helpers/run-cli.js";
import { post, request } from "../../helpers/mcp-client.js";

const FOLDER = fixture("skills-folder");
const SKILLS = "io.modelcontextprotocol/skills";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
    )
    .sort();
}

/** Every folder holding a SKILL.md is a skill; its path is the folder's, relative to `root`. */
function skillsIn(root: string): Skill[] {
  return filesUnder(root)
    .filter((file) => file.endsWith(`${sep}SKILL.md`))
    .map((skillMd) => {
      const dir = skillMd.slice(0, -`${sep}SKILL.md`.length);
      const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(skillMd, "utf8"))![1]!;
      return {
        path: relative(root, dir).split(sep).join("/"),
        frontmatter: parse(frontmatter) as Record<string, unknown>,
        files: filesUnder(dir).map((file) => ({
          path: relative(dir, file).split(sep).join("/"),
          bytes: readFileSync(file),
        })),
      };
    });
}

function newServer(): McpServer {
  return new McpServer({ protocol: skillsProtocol, info: { name: "skills", version: "1.0.0" } });
}

let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const server = serveSkills(newServer(), skillsIn(FOLDER), {
    pageSize: 2,
    ttlMs: 60_000,
    cacheScope: "public",
  });
  ({ url, close } = await serveHttp(server, { port: 0 }));
});
afterAll(async () => close?.());

/** A JSON object of the answer, as the tests read it. */
type Fields = Record<string, unknown> & {
  readonly nextCursor?: string;
  readonly skills?: Array<Record<string, unknown>>;
  readonly resources?: unknown[];
  readonly contents?: Array<Record<string, unknown>>;
  readonly capabilities?: Record<string, unknown>;
};

const call = async (method: string, params: Record<string, unknown> = {}) => {
  const { body } = await post(url, request(method, params));
  return { result: (body.result ?? {}) as Fields, error: body.error };
};

async function allSkills(): Promise<Array<Record<string, unknown>>> {
  const skills: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  do {
    const { result } = await call("skills/list", cursor ? { cursor } : {});
    expect(result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "public" });
    skills.push(...result.skills!);
    cursor = result.nextCursor;
  } while (cursor);
  return skills;
}

describe("skills/list and skills/get", () => {
  it("server/discover declares the extension with directoryRead, and resources", async () => {
    const { result } = await call("server/discover");
    expect(result.capabilities!.extensions).toEqual({ [SKILLS]: { directoryRead: true } });
    expect(result.capabilities!.resources).toBeDefined();
  });

  it("pages every skill, each with its frontmatter verbatim and every file's digest and size", async () => {
    const skills = await allSkills();
    expect(skills.map((s) => s.uri)).toEqual([
      "skill://acme/billing/refunds/SKILL.md",
      "skill://git-workflow/SKILL.md",
      "skill://pdf-processing/SKILL.md",
    ]);
    const pdf = skills[2]!;
    expect(pdf.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      metadata: { version: "2.1.0" },
    });
    const files = ["SKILL.md", "templates/invoice.md", "templates/regional/eu-invoice.md"];
    expect(pdf.resources).toEqual(
      files.map((file) => {
        const bytes = readFileSync(join(FOLDER, "pdf-processing", file));
        return {
          uri: `skill://pdf-processing/${file}`,
          digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
          size: bytes.byteLength,
        };
      }),
    );
  });

  it("skills/get answers one entry, the same as the listing's, and -32602 for a skill it does not serve", async () => {
    const listed = (await allSkills()).find((s) => s.uri === "skill://git-workflow/SKILL.md");
    const { result } = await call("skills/get", { uri: "skill://git-workflow/SKILL.md" });
    expect(result.skill).toEqual(listed);
    expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    expect(result.nextCursor).toBeUndefined();
    const unknown = await call("skills/get", { uri: "skill://nope/SKILL.md" });
    expect(unknown.error).toMatchObject({ code: -32602 });
  });

  it("a cursor it did not give is -32602", async () => {
    expect((await call("skills/list", { cursor: "99" })).error).toMatchObject({ code: -32602 });
    expect((await call("skills/list", { cursor: "x" })).error).toMatchObject({ code: -32602 });
  });

  it("resources/read gives SKILL.md's bytes, which match the entry's digest", async () => {
    const { result } = await call("resources/read", { uri: "skill://git-workflow/SKILL.md" });
    const [content] = result.contents!;
    expect(content).toMatchObject({ mimeType: "text/markdown" });
    expect(content!.text).toBe(readFileSync(join(FOLDER, "git-workflow", "SKILL.md"), "utf8"));
  });
});

describe("resources/directory/read", () => {
  it("lists a directory's direct children, subdirectories as inode/directory", async () => {
    const { result } = await call("resources/directory/read", {
      uri: "skill://pdf-processing/templates",
    });
    expect(result.resources).toEqual([
      {
        uri: "skill://pdf-processing/templates/invoice.md",
        name: "invoice.md",
        mimeType: "text/markdown",
      },
      {
        uri: "skill://pdf-processing/templates/regional",
        name: "regional",
        mimeType: "inode/directory",
      },
    ]);
  });

  it("pages a skill's root, and a file or an unknown URI is -32602", async () => {
    const first = await call("resources/directory/read", { uri: "skill://pdf-processing" });
    expect(first.result.resources).toHaveLength(2);
    const next = await call("resources/directory/read", {
      uri: "skill://pdf-processing",
      cursor: first.result.nextCursor,
    });
    expect(next.result.nextCursor).toBeUndefined();
    for (const uri of ["skill://pdf-processing/SKILL.md", "skill://nope"])
      expect((await call("resources/directory/read", { uri })).error).toMatchObject({
        code: -32602,
      });
  });
});

describe("skills a conforming host could refuse are not served", () => {
  const skill = (overrides: Partial<Skill>): Skill => ({
    path: "ok",
    frontmatter: { name: "ok", description: "fine" },
    files: [{ path: "SKILL.md", bytes: new TextEncoder().encode("---\nname: ok\n---\n") }],
    ...overrides,
  });
  const serving = (s: Skill) => () => serveSkills(newServer(), [s]);

  it("the 512-file limit: 512 files are served, 513 are not", () => {
    const files = (n: number) => [
      ...skill({}).files,
      ...Array.from({ length: n - 1 }, (_, i) => ({ path: `f${i}.txt`, bytes: new Uint8Array(1) })),
    ];
    expect(serving(skill({ files: files(512) }))).not.toThrow();
    expect(serving(skill({ files: files(513) }))).toThrow(
      "skill ok: it has 513 files, more than 512",
    );
  });

  it("the 16 MiB limit counts every file's size", () => {
    const big = { path: "big.bin", bytes: new Uint8Array(16 * 1024 * 1024) };
    expect(serving(skill({ files: [...skill({}).files, big] }))).toThrow(
      /holds? \d+ bytes, more than 16777216/,
    );
  });

  it("a name the Agent Skills rules refuse, a path not ending in the name, no SKILL.md", () => {
    expect(serving(skill({ path: "Bad", frontmatter: { name: "Bad", description: "x" } }))).toThrow(
      "naming rules",
    );
    expect(serving(skill({ path: "a/other" }))).toThrow('is not its name "ok"');
    expect(serving(skill({ files: [] }))).toThrow("no SKILL.md");
  });
});
