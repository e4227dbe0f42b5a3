/**
 * How a scaffolded project depends on the mcp-gen that made it, so that it
 * installs on a teammate's machine: the registry and git as they are, a
 * tarball or an installed folder as a copy in the project's vendor/ folder,
 * a checkout of mcp-gen's sources as its folder.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  installSource,
  vendoredCopy,
  writeVendoredCopy,
} from "../../generator/scaffold/install-source.js";
import { ROOT, tempDir } from "../helpers/index.js";

/** An mcp-gen installed into `owner/node_modules/mcp-gen`, with the lockfile entry npm would write. */
function installedCopy(owner: string, resolved?: string): string {
  const folder = join(owner, "node_modules", "mcp-gen");
  mkdirSync(join(folder, "dist"), { recursive: true });
  writeFileSync(join(folder, "package.json"), '{ "name": "mcp-gen", "version": "9.8.7" }\n');
  writeFileSync(join(folder, "dist", "main.js"), "console.log('installed');\n");
  if (resolved !== undefined)
    writeFileSync(
      join(owner, "package-lock.json"),
      JSON.stringify({ packages: { "node_modules/mcp-gen": { resolved } } }),
    );
  return folder;
}

describe("the copy a project carries", () => {
  it("a checkout of mcp-gen's sources: none, the folder is the dependency", () => {
    const source = installSource(ROOT, "0.1.0");
    expect(source).toMatchObject({ kind: "folder", specifier: `file:${ROOT}` });
    expect(vendoredCopy(source, "0.1.0")).toBeUndefined();
  });

  it("the registry and git: none, they install anywhere", () => {
    const owner = tempDir("registry");
    const registry = installSource(
      installedCopy(owner, "https://registry.npmjs.org/mcp-gen/-/mcp-gen-9.8.7.tgz"),
      "9.8.7",
    );
    expect(registry).toEqual({ kind: "registry", specifier: "9.8.7" });
    expect(vendoredCopy(registry, "9.8.7")).toBeUndefined();
    const other = tempDir("git");
    const git = installSource(
      installedCopy(other, "git+https://example.com/mcp-gen.git#0123abc"),
      "9.8.7",
    );
    expect(git.kind).toBe("git");
    expect(vendoredCopy(git, "9.8.7")).toBeUndefined();
  });

  it("a tarball on this machine: the same bytes, named by version, recorded relative", () => {
    const owner = tempDir("tarball");
    const tarball = join(owner, "downloads", "mcp-gen-custom.tgz");
    mkdirSync(join(owner, "downloads"));
    writeFileSync(tarball, "tarball bytes");
    const source = installSource(
      installedCopy(owner, "file:downloads/mcp-gen-custom.tgz"),
      "9.8.7",
    );
    expect(source).toMatchObject({ kind: "tarball", path: tarball });
    const copy = vendoredCopy(source, "9.8.7")!;
    expect(copy.specifier).toBe("file:vendor/mcp-gen-9.8.7.tgz");
    expect(copy.path).toBe("vendor/mcp-gen-9.8.7.tgz");
    expect(copy.bytes.toString("utf8")).toBe("tarball bytes");
  });

  it("a global install (no lockfile): packed without its scripts into a tarball of that folder", () => {
    const prefix = tempDir("global");
    const folder = installedCopy(join(prefix, "lib"));
    const source = installSource(folder, "9.8.7");
    expect(source).toMatchObject({ kind: "folder", path: folder });
    const copy = vendoredCopy(source, "9.8.7")!;
    expect(copy.specifier).toBe("file:vendor/mcp-gen-9.8.7.tgz");
    // A gzipped tar whose entries are the installed folder's files under package/.
    const tar = gunzipSync(copy.bytes).toString("latin1");
    expect(tar).toContain("package/dist/main.js");
    expect(tar).toContain("console.log('installed');");
  });

  it("written through a temporary file and a rename; an identical copy is left as it is", () => {
    const project = tempDir("project");
    const copy = { specifier: "file:vendor/x.tgz", path: "vendor/x.tgz", bytes: Buffer.from("x") };
    writeVendoredCopy(project, copy);
    const path = join(project, "vendor", "x.tgz");
    expect(readFileSync(path, "utf8")).toBe("x");
    const written = statSync(path).mtimeMs;
    writeVendoredCopy(project, copy);
    expect(statSync(path).mtimeMs).toBe(written);
    writeVendoredCopy(project, { ...copy, bytes: Buffer.from("y") });
    expect(readFileSync(path, "utf8")).toBe("y");
    expect(readdirSync(join(project, "vendor"))).toEqual(["x.tgz"]);
  });
});
