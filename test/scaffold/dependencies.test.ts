/**
 * Every package a scaffolded project imports is one its package.json lists,
 * so a missing dependency fails here, not for a user. The tests that link
 * the repository's node_modules into a project cannot see this (every
 * package mcp-gen uses is there), and generated validators carry
 * `@ts-nocheck`, so tsc cannot either. Every module of each kind of project
 * is read for the packages it imports (import declarations and import(); a
 * require() in generated validators is their own lookup table, not a load);
 * what its shipped code (src/) imports must be a dependency, what only its
 * tests and configuration import may be a devDependency.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinModules } from "node:module";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { EmittedFile } from "../../generator/index.js";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { scaffoldServer } from "../../generator/scaffold/scaffold.js";
import { templatesDir } from "../../generator/project/render.js";
import {
  REDIS_CLIENT_VERSION,
  requireRedisClient,
} from "../../templates/runtime/scale/redis-link.js";
import { SUITE_VERSION } from "../../scripts/conformance/suite.js";
import { tempDir, testSources } from "../helpers/index.js";

/** Tools whose schemas use formats (their checks come from ajv-formats), enums, nested objects and arrays. */
const TOOLS = [
  {
    name: "book",
    inputSchema: {
      type: "object",
      properties: {
        on: { type: "string", format: "date" },
        contact: { type: "string", format: "email" },
        room: { type: "string", enum: ["small", "large"] },
        guests: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
      required: ["on"],
    },
  },
];
let toolsFile: string;
beforeAll(() => {
  toolsFile = join(tempDir("deps-tools"), "tools.json");
  writeFileSync(toolsFile, JSON.stringify(TOOLS));
});

/** The package a bare import specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a relative or built-in one. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The packages a project's files import, by whether the file ships (src/) or only serves development. */
function importedPackages(files: readonly EmittedFile[]): {
  shipped: Set<string>;
  all: Set<string>;
} {
  const shipped = new Set<string>();
  const all = new Set<string>();
  for (const file of files) {
    if (!/\.(m|c)?[jt]s$/.test(file.path)) continue;
    for (const { fileName } of ts.preProcessFile(file.contents, true, false).importedFiles) {
      const name = packageOf(fileName);
      if (!name) continue;
      all.add(name);
      if (file.path.startsWith("src/")) shipped.add(name);
    }
  }
  return { shipped, all };
}

function declared(files: readonly EmittedFile[]): {
  dependencies: Set<string>;
  every: Set<string>;
} {
  const manifest = JSON.parse(files.find((f) => f.path === "package.json")!.contents) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
  return {
    dependencies,
    every: new Set([...dependencies, ...Object.keys(manifest.devDependencies ?? {})]),
  };
}

const kinds: Array<[string, (dir: string) => Promise<readonly EmittedFile[]>]> = [
  ["server, minimal", async (dir) => (await scaffoldServer({ dir, sources: testSources() })).files],
  [
    "server, everything with Tasks",
    async (dir) =>
      (
        await scaffoldServer({
          dir,
          example: "everything",
          extensions: ["tasks"],
          sources: testSources(),
        })
      ).files,
  ],
  [
    "server, --auth, tools with formats",
    async (dir) =>
      (await scaffoldServer({ dir, auth: true, tools: toolsFile, sources: testSources() })).files,
  ],
  [
    "client, tools with formats",
    async (dir) => (await scaffoldClient({ dir, tools: toolsFile, sources: testSources() })).files,
  ],
  [
    "client, everything, --auth",
    async (dir) =>
      (await scaffoldClient({ dir, example: "everything", auth: true, sources: testSources() }))
        .files,
  ],
];

describe("a scaffolded project lists every package it imports", () => {
  it("reads package names as npm does", () => {
    expect(packageOf("ajv-formats/dist/formats.js")).toBe("ajv-formats");
    expect(packageOf("@redis/client")).toBe("@redis/client");
    expect(packageOf("node:fs")).toBe(undefined);
    expect(packageOf("fs/promises")).toBe(undefined);
    expect(packageOf("./x.js")).toBe(undefined);
  });

  it.each(kinds)("%s", async (_kind, scaffold) => {
    const files = await scaffold(join(tempDir("deps"), "proj"));
    const { shipped, all } = importedPackages(files);
    const { dependencies, every } = declared(files);
    if (_kind.includes("formats")) expect(shipped).toContain("ajv-formats");
    expect([...shipped].filter((name) => !dependencies.has(name)).sort()).toEqual([]);
    expect([...all].filter((name) => !every.has(name)).sort()).toEqual([]);
  });
});

describe("a scaffolded server depends on what it uses", () => {
  /** package.json of a project of `kind`. */
  interface Manifest {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  }
  async function manifestOf(kind: string): Promise<Manifest> {
    const scaffold = kinds.find(([name]) => name === kind)![1];
    const files = await scaffold(join(tempDir("deps-need"), "proj"));
    return JSON.parse(files.find((f) => f.path === "package.json")!.contents) as Manifest;
  }

  it("@redis/client only with Tasks; without, an optional peer installed for a shared store", async () => {
    const minimal = await manifestOf("server, minimal");
    expect(minimal.dependencies).not.toHaveProperty("@redis/client");
    expect(minimal.peerDependencies).toHaveProperty("@redis/client", "6.4.0");
    expect(minimal.peerDependenciesMeta?.["@redis/client"]).toEqual({ optional: true });
    const tasks = await manifestOf("server, everything with Tasks");
    expect(tasks.dependencies).toHaveProperty("@redis/client", "6.4.0");
    expect(tasks.peerDependencies).not.toHaveProperty("@redis/client");
  });

  it("the conformance suite is no devDependency: npm run conformance installs the version mcp-gen's own run pins", async () => {
    const tasks = await manifestOf("server, everything with Tasks");
    expect(tasks.devDependencies).not.toHaveProperty("@modelcontextprotocol/conformance");
    const script = readFileSync(templatesDir("server", "scripts", "conformance.mjs"), "utf8");
    expect(script).toContain(`const SUITE_VERSION = "${SUITE_VERSION}";`);
    // The runtime's Redis version and the template's are one fact too.
    expect(readFileSync(templatesDir("server", "package.json.hbs"), "utf8")).toContain(
      `"@redis/client": "${REDIS_CLIENT_VERSION}"`,
    );
  });

  it("a start that asks for Redis without @redis/client installed names the variable and the install", () => {
    expect(() => requireRedisClient("MCP_TASK_STORE", "@redis/not-installed-here")).toThrow(
      "MCP_TASK_STORE names a Redis server, but @redis/not-installed-here is not installed: run `npm install @redis/not-installed-here@",
    );
    expect(() => requireRedisClient("MCP_TASK_STORE")).not.toThrow();
  });
});
