/**
 * The user's own files of a project, rendered from mcp-gen's templates:
 * templates/server or templates/client (Handlebars, view models only, no
 * logic), overlaid with an example's files, plus the tools file and
 * mcp-gen.json. Written once; mcp-gen never rewrites them.
 */
import { escapeControls } from "../emit/names.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import type { EmittedFile } from "../emit/file.js";
import { packageRoot } from "../load/package-root.js";
import { SETTINGS_FILE, type ProjectSettings } from "./settings.js";

/** A folder of mcp-gen's templates. */
export function templatesDir(...parts: string[]): string {
  return join(packageRoot(), "templates", ...parts);
}

/**
 * A project's own files: every file of its kind's template folder (a
 * `.hbs` rendered with `view`), then `overlay` in order (each replacing the
 * file with its path, or added), then the tools file and mcp-gen.json.
 */
export function renderProject(
  settings: ProjectSettings,
  view: object,
  overlay: readonly EmittedFile[],
  toolsText: string,
): EmittedFile[] {
  const files: EmittedFile[] = [];
  const base = templatesDir(settings.kind);
  for (const path of listTemplateFiles(base)) {
    const target = path.replace(/\.hbs$/, "").replace(/^gitignore$/, ".gitignore");
    const text = readFileSync(join(base, path), "utf8");
    files.push({ path: target, contents: path.endsWith(".hbs") ? render(text, view) : text });
  }
  for (const file of overlay) replace(files, file);
  files.push({
    path: "tools.json",
    contents: toolsText.endsWith("\n") ? toolsText : `${toolsText}\n`,
  });
  files.push({ path: SETTINGS_FILE, contents: `${JSON.stringify(settings, null, 2)}\n` });
  return files;
}

/** Puts `file` in place of the file with its path, or adds it. */
export function replace(files: EmittedFile[], file: EmittedFile): void {
  const i = files.findIndex((f) => f.path === file.path);
  if (i >= 0) files[i] = file;
  else files.push(file);
}

/** Every file under a template folder, its examples/ and targets/ left out, sorted. */
export function listTemplateFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (path !== "examples" && path !== "targets") walk(path);
      } else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

/** Renders a Handlebars template (no escaping, unknown names an error). */
export function render(template: string, view: object): string {
  return handlebars.compile(template, { noEscape: true, strict: true })(view);
}

/** Text that stays inside a block comment: no `*\/` to end it early, one line. */
export function commentText(text: string): string {
  return escapeControls(text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " "));
}
