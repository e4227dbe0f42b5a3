/**
 * The copy step of a project's build. A project's tool validators are
 * generated as JavaScript with declarations beside them (emit-tools.ts),
 * which tsc reads but does not emit, so a project compiled with tsc copies
 * them to dist/ after it: `scripts/copy-generated.mjs`, run by its build
 * scripts. Projects scaffolded before the step came get it on their next
 * regeneration: the script file when it is missing, and the step in each
 * build script that is still exactly what mcp-gen wrote.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { isJsonObject, parseJsonText, type JsonValue } from "../load/json.js";
import { readBoundedFile } from "../load/read-file.js";
import type { EmittedFile } from "../emit/file.js";
import { writeNewFile, writeWhole } from "../write/write-project.js";
import { templatesDir } from "./render.js";
import type { ProjectSettings } from "./settings.js";

/** The project's script that copies src/generated's JavaScript into dist/. */
export const COPY_GENERATED_SCRIPT = "scripts/copy-generated.mjs";
const COPY_STEP = `node ${COPY_GENERATED_SCRIPT}`;

/** The package.json scripts mcp-gen writes that compile with tsc, by what it wrote before the copy step. */
const TSC_COMMANDS = ["tsc -p .", "tsc -b"] as const;
const BUILD_SCRIPTS = ["build", "prestart", "prestart:stdio", "premcp"] as const;

/**
 * Whether a project is compiled with tsc into dist/ (and so needs the copy
 * step): a client, and a server on Node.js or Deno. Bun and Workers bundle
 * the sources, JavaScript included.
 */
export function compilesWithTsc(settings: ProjectSettings): boolean {
  if (settings.kind === "client") return true;
  return settings.target === undefined || settings.target === "deno";
}

/** The copy script, as a project file. */
export function copyGeneratedScript(): EmittedFile {
  return {
    path: COPY_GENERATED_SCRIPT,
    contents: readFileSync(templatesDir("common", COPY_GENERATED_SCRIPT), "utf8"),
  };
}

/**
 * Brings an existing project's build up to the copy step: writes the copy
 * script when the project has none, and adds the step to each build script
 * still exactly as mcp-gen wrote it. A build script the user changed is
 * left alone and reported (MCPG717). Returns what was done, for the report.
 */
export function addCopyStep(
  projectDir: string,
  settings: ProjectSettings,
): { written: string[]; diagnostics: Diagnostic[] } {
  if (!compilesWithTsc(settings)) return { written: [], diagnostics: [] };
  const written: string[] = [];
  if (!existsSync(join(projectDir, COPY_GENERATED_SCRIPT))) {
    writeNewFile(projectDir, copyGeneratedScript());
    written.push(COPY_GENERATED_SCRIPT);
  }
  const packagePath = join(projectDir, "package.json");
  if (!existsSync(packagePath)) return { written, diagnostics: [] };
  let text: string;
  let pkg: JsonValue;
  try {
    text = readBoundedFile(packagePath).toString("utf8");
    pkg = parseJsonText(text, packagePath);
  } catch {
    // A package.json npm cannot read either (too big, too deep, not JSON): npm reports it; mcp-gen touches nothing.
    return { written, diagnostics: [] };
  }
  if (!isJsonObject(pkg) || !isJsonObject(pkg.scripts)) return { written, diagnostics: [] };
  const scripts = pkg.scripts;
  const diagnostics: Diagnostic[] = [];
  let changed = false;
  for (const name of BUILD_SCRIPTS) {
    const command = scripts[name];
    if (typeof command !== "string" || command.includes(COPY_STEP)) continue;
    if ((TSC_COMMANDS as readonly string[]).includes(command)) {
      scripts[name] = `${command} && ${COPY_STEP}`;
      changed = true;
    } else if (/\btsc\b/.test(command)) {
      diagnostics.push(
        diagnostic("MCPG717", { script: name, command, step: COPY_STEP }, { file: packagePath }),
      );
    }
  }
  if (changed) {
    // Its own indentation and line ends, as npm keeps them when it rewrites the file.
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const json = JSON.stringify(pkg, null, indentationOf(text));
    writeWhole(packagePath, `${eol === "\n" ? json : json.replace(/\n/g, eol)}${eol}`);
    written.push("package.json");
  }
  return { written, diagnostics };
}

/** The indentation of a JSON text's first nested line (npm keeps a package.json's own the same way). */
function indentationOf(text: string): string | number {
  return /^[ \t]+(?=")/m.exec(text)?.[0] ?? 2;
}
