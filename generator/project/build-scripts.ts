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
import type { StaleFile } from "../write/write-output.js";
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
 * What an existing project's build lacks of the copy step: the script file,
 * and the package.json with the step added to each build script still
 * exactly as mcp-gen wrote it (undefined when none needs it). A build
 * script the user changed is reported (MCPG717), never changed.
 */
function copyStepPlan(
  projectDir: string,
  settings: ProjectSettings,
): { scriptMissing: boolean; packageJson?: string; diagnostics: Diagnostic[] } {
  if (!compilesWithTsc(settings)) return { scriptMissing: false, diagnostics: [] };
  const scriptMissing = !existsSync(join(projectDir, COPY_GENERATED_SCRIPT));
  const packagePath = join(projectDir, "package.json");
  if (!existsSync(packagePath)) return { scriptMissing, diagnostics: [] };
  let text: string;
  let pkg: JsonValue;
  try {
    text = readBoundedFile(packagePath).toString("utf8");
    pkg = parseJsonText(text, packagePath);
  } catch {
    // A package.json npm cannot read either (too big, too deep, not JSON): npm reports it; mcp-gen touches nothing.
    return { scriptMissing, diagnostics: [] };
  }
  if (!isJsonObject(pkg) || !isJsonObject(pkg.scripts)) return { scriptMissing, diagnostics: [] };
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
  if (!changed) return { scriptMissing, diagnostics };
  // Its own indentation and line ends, as npm keeps them when it rewrites the file.
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const json = JSON.stringify(pkg, null, indentationOf(text));
  return {
    scriptMissing,
    packageJson: `${eol === "\n" ? json : json.replace(/\n/g, eol)}${eol}`,
    diagnostics,
  };
}

/**
 * Brings an existing project's build up to the copy step (copyStepPlan):
 * writes the copy script when the project has none, and package.json
 * (whole, through a temporary file) when a build script needs the step.
 * Returns what was written, for the report.
 */
export function addCopyStep(
  projectDir: string,
  settings: ProjectSettings,
): { written: string[]; diagnostics: Diagnostic[] } {
  const plan = copyStepPlan(projectDir, settings);
  const written: string[] = [];
  if (plan.scriptMissing) {
    writeNewFile(projectDir, copyGeneratedScript());
    written.push(COPY_GENERATED_SCRIPT);
  }
  if (plan.packageJson !== undefined) {
    writeWhole(join(projectDir, "package.json"), plan.packageJson);
    written.push("package.json");
  }
  return { written, diagnostics: plan.diagnostics };
}

/**
 * What `generate --check` says of the copy step: the files regeneration
 * would write for it (stale), and the build scripts it would leave to the
 * user (MCPG717).
 */
export function checkCopyStep(
  projectDir: string,
  settings: ProjectSettings,
): { stale: StaleFile[]; diagnostics: Diagnostic[] } {
  const plan = copyStepPlan(projectDir, settings);
  const stale: StaleFile[] = [];
  if (plan.scriptMissing) stale.push({ path: COPY_GENERATED_SCRIPT, state: "missing" });
  if (plan.packageJson !== undefined) stale.push({ path: "package.json", state: "stale" });
  return { stale, diagnostics: plan.diagnostics };
}

/** The indentation of a JSON text's first nested line (npm keeps a package.json's own the same way). */
function indentationOf(text: string): string | number {
  return /^[ \t]+(?=")/m.exec(text)?.[0] ?? 2;
}
