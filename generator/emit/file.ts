/**
 * Emitted files and the one builder every emitter uses for them: it writes
 * the banner, collects imports (sorted, deduplicated, printed by the
 * printer like every other statement) and joins sections.
 * Emitters never write import lines by hand.
 */
import type { McpModel } from "../model/types.js";
import { namedList, printCode } from "./ts-print.js";

import { BANNER_MARK } from "../shared/emitted-file.js";
import type { EmittedFile } from "../shared/emitted-file.js";

export type { EmittedFile };
export { BANNER_MARK };

/** What a banner says beyond the model's revision and sources. */
export interface BannerOptions {
  /** The command that regenerates the file, e.g. `mcp-gen generate --spec 2026-07-28 --out generated/2026-07-28`. */
  readonly regenerate: string;
  /** Options that shape the output, rendered as `name: value`. */
  readonly options: Readonly<Record<string, string>>;
  /** mcp-gen's version; omitted in goldens so they do not change with every release. */
  readonly toolVersion?: string;
}

/** The banner: who made the file, from what (revision and sha256 of each input), how to regenerate it. */
export function banner(model: McpModel, options: BannerOptions, note?: string): string {
  return bannerComment(bannerLines(model, options, note));
}

/** The lines of {@link banner}, for emitters of other languages to put in their own comments. */
export function bannerLines(model: McpModel, options: BannerOptions, note?: string): string[] {
  const version = options.toolVersion ? ` ${options.toolVersion}` : "";
  return [
    `${BANNER_MARK}${version} from the MCP ${model.revision} schema. Do not edit: regenerate instead.`,
    ...(note ? [note] : []),
    "Sources:",
    ...model.sources.map((s) => `  ${s.name} sha256 ${s.sha256}`),
    `Options: ${
      Object.entries(options.options)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; ") || "none"
    }`,
    `Regenerate: ${options.regenerate}`,
  ];
}

/**
 * The banner of a project's generated modules (src/generated/): who made
 * them, for which revision and extensions, and how to make them again.
 */
export function projectBanner(
  toolVersion: string,
  revision: string,
  extensions: readonly string[],
  regenerate: string,
): string {
  const made = extensions.length > 0 ? `${revision} with ${extensions.join(", ")}` : revision;
  return bannerComment([
    `${BANNER_MARK} ${toolVersion} for this project (${made}). Do not edit: regenerate instead.`,
    `Regenerate: ${regenerate}`,
  ]);
}

/** The banner of a runtime file copied into a project (src/mcp-gen/runtime/), which is checked as the project's code is. */
export function runtimeBanner(toolVersion: string, kind: "server" | "client"): string {
  return bannerComment(
    [
      `${BANNER_MARK} ${toolVersion}: its ${kind} runtime, copied into this project. Do not edit: \`npm run regenerate\` replaces it.`,
    ],
    { lintOff: false },
  );
}

/** A JSDoc-style comment of `lines`; with `lintOff` (the default), followed by the line that turns eslint off. */
function bannerComment(lines: readonly string[], { lintOff = true } = {}): string {
  const comment = `/**\n${lines.map((l) => (l ? ` * ${l}` : " *")).join("\n")}\n */\n`;
  return lintOff ? `${comment}/* eslint-disable */\n` : comment;
}

interface ImportSpec {
  readonly values: Set<string>;
  readonly types: Set<string>;
  namespace?: { readonly name: string; readonly typeOnly: boolean };
}

/** Builds one TypeScript module: imports first, then sections in the order added. */
export class TsFileBuilder {
  private readonly imports = new Map<string, ImportSpec>();
  private readonly sections: string[] = [];
  private readonly headerLines: string[] = [];

  constructor(readonly path: string) {}

  /** Imports named values from a module (`./types.gen.js`). */
  importValues(from: string, ...names: string[]): this {
    names.forEach((n) => this.spec(from).values.add(n));
    return this;
  }

  /** Imports named types. */
  importTypes(from: string, ...names: string[]): this {
    names.forEach((n) => this.spec(from).types.add(n));
    return this;
  }

  /** `import * as name from "from"` (type-only when `typeOnly`). */
  importNamespace(from: string, name: string, typeOnly: boolean): this {
    this.spec(from).namespace = { name, typeOnly };
    return this;
  }

  /** A line placed right after the banner (e.g. a `// @ts-nocheck` pragma). */
  header(line: string): this {
    this.headerLines.push(line);
    return this;
  }

  /** Appends a section of code. */
  add(code: string): this {
    this.sections.push(code.trimEnd());
    return this;
  }

  /** The file, with `bannerText` on top. */
  build(bannerText: string): EmittedFile {
    const header = this.headerLines.length > 0 ? `${this.headerLines.join("\n")}\n` : "";
    const imports = [...this.imports.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([from, spec]) => importLines(from, spec));
    const body = [imports.join("\n"), ...this.sections].filter((s) => s !== "").join("\n\n");
    return { path: this.path, contents: `${bannerText}${header}\n${body}\n` };
  }

  private spec(from: string): ImportSpec {
    let spec = this.imports.get(from);
    if (!spec) {
      spec = { values: new Set(), types: new Set() };
      this.imports.set(from, spec);
    }
    return spec;
  }
}

function importLines(from: string, spec: ImportSpec): string[] {
  const lines: string[] = [];
  const sorted = (s: Set<string>) => [...s].sort();
  if (spec.namespace)
    lines.push(
      `import ${spec.namespace.typeOnly ? "type " : ""}* as ${spec.namespace.name} from ${JSON.stringify(from)};`,
    );
  const types = sorted(spec.types).filter((t) => !spec.values.has(t));
  if (spec.values.size > 0) {
    const names = [...sorted(spec.values), ...types.map((t) => `type ${t}`)];
    lines.push(importList("import ", names, from));
  } else if (types.length > 0) {
    lines.push(importList("import type ", types, from));
  }
  return lines;
}

/** An import of named bindings. */
function importList(keyword: string, names: readonly string[], from: string): string {
  return printCode([keyword, namedList(names), ` from ${JSON.stringify(from)};`]);
}
