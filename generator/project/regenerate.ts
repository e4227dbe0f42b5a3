/**
 * `mcp-gen generate` in a project folder (and `mcp-gen dev`, on every
 * change): the project's plan (index.ts) from mcp-gen.json and the tools
 * file, written into its generated folders (or compared, with `check`),
 * and a handler stub for each tool a server's tools file gained. The
 * user's files are never written over.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { toolNamespace } from "../check/tool-rules.js";
import type { Diagnostic } from "../diagnostics.js";
import { TOOLS_MODULE, toolNamesIn } from "../emit/emit-tools.js";
import type { EmittedFile } from "../emit/file.js";
import { propertyKey } from "../emit/names.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { readToolsFile, type ToolSpec } from "../load/tools-file.js";
import type { StaleFile } from "../write/write-output.js";
import {
  checkGeneratedFolders,
  writeGeneratedFolders,
  writeNewFile,
} from "../write/write-project.js";
import { addCopyStep, checkCopyStep } from "./build-scripts.js";
import { planProject } from "./index.js";
import { commentText, render, templatesDir } from "./render.js";
import { readSettings } from "./settings.js";

/**
 * Regenerates a project's generated files from its mcp-gen.json and
 * tools.json (`mcp-gen generate` in the project folder); with `check`,
 * only reports what differs. The user's files are never written.
 */
export async function regenerateProject(
  projectDir: string,
  options: {
    check?: boolean;
    sources?: SchemaSources;
    /** The tools as a server lists them now: generated from, and written to the tools file once the rest is written. */
    toolsText?: string;
  } = {},
): Promise<{
  files: readonly EmittedFile[];
  stale: StaleFile[];
  diagnostics: readonly Diagnostic[];
  stubs: string[];
  /** Tools the project was last generated with that tools.json no longer has (a server's handlers to delete). */
  removed: string[];
  /** The project files outside the generated folders that the build's copy step needed (build-scripts.ts). */
  build?: string[];
}> {
  const settings = readSettings(projectDir);
  const toolsPath = join(projectDir, settings.tools);
  const toolsText = options.toolsText ?? readToolsFile(toolsPath, settings.tools);
  const plan = await planProject({
    dir: projectDir,
    settings,
    tools: { text: toolsText, file: settings.tools },
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const { files, tools, diagnostics } = plan;
  const stale = checkGeneratedFolders(projectDir, plan.groups);
  if (options.check) {
    const build = checkCopyStep(projectDir, settings);
    return {
      files,
      stale: [...stale, ...build.stale],
      diagnostics: [...diagnostics, ...build.diagnostics],
      stubs: [],
      removed: [],
    };
  }
  // A client calls its tools; only a server gets a handler stub for a new one.
  const previous = settings.kind === "server" ? previousToolNames(projectDir) : undefined;
  const stubs = previous ? newToolStubs(projectDir, tools, previous) : [];
  const current = new Set(tools.map((t) => t.name));
  const removed = previous ? [...previous].filter((name) => !current.has(name)) : [];
  writeGeneratedFolders(projectDir, plan.groups);
  for (const stub of stubs) writeNewFile(resolve(projectDir), stub);
  const build = addCopyStep(projectDir, settings);
  if (options.toolsText !== undefined) writeFileSync(toolsPath, options.toolsText);
  return {
    files,
    stale,
    diagnostics: [...diagnostics, ...build.diagnostics],
    stubs: stubs.map((s) => s.path),
    removed,
    build: build.written,
  };
}

/** What regeneration says of a tool tools.json no longer has: its handler, which tsc now refuses, is the user's code to delete. */
export function removedToolLine(name: string): string {
  return `removed tool: ${name} is no longer in tools.json; delete its handler from src/tools.ts (and ${toolStubPath(name)}, if it holds it)`;
}

/** Where the handler stub of a tool added to tools.json goes: a file of its own, found next to src/tools.ts. */
export function toolStubPath(name: string): string {
  return `src/tools/${name}.ts`;
}

/** The tools the project was last generated with, as its tools module lists them, in order; undefined before its first generation. */
function previousToolNames(projectDir: string): ReadonlySet<string> | undefined {
  const previousModule = join(projectDir, "src", "generated", TOOLS_MODULE);
  return existsSync(previousModule)
    ? new Set(toolNamesIn(readFileSync(previousModule, "utf8")))
    : undefined;
}

/**
 * The handler stubs of tools that tools.json gained since the project was
 * last generated (`previous`), each in a file of its own that does not
 * exist yet. A user's file is never written over: a stub whose file exists
 * is left out.
 */
function newToolStubs(
  projectDir: string,
  tools: readonly ToolSpec[],
  previous: ReadonlySet<string>,
): EmittedFile[] {
  const template = readFileSync(templatesDir("stubs", "tool.ts.hbs"), "utf8");
  return tools
    .filter((t) => !previous.has(t.name) && !existsSync(join(projectDir, toolStubPath(t.name))))
    .map((t) => {
      const ident = toolNamespace(t.name).replace(/^./, (c) => c.toLowerCase());
      const view = {
        name: t.name,
        file: t.name,
        ident,
        key: propertyKey(t.name),
        toolLabel: `tool ${t.name}`,
        description: commentText(t.description ?? ""),
      };
      return { path: toolStubPath(t.name), contents: render(template, view) };
    });
}
