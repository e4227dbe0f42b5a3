/**
 * The one builder of every generated Python module: the banner (as `#`
 * comments), a module docstring, `from __future__ import annotations`,
 * imports collected from the emitters (sorted, deduplicated, laid out by
 * the printer) and the sections in the order added, two blank lines apart.
 * Emitters never write import lines by hand.
 */
import type { EmittedFile } from "../file.js";
import { PY_INDENT, PY_WIDTH } from "./py-print.js";

/** Builds one Python module. */
export class PyFileBuilder {
  private readonly imports = new Map<string, Set<string>>();
  private readonly sections: string[] = [];
  /** Names the module defines itself (or imports from the models): an import of the same name is bound as `_Name`. */
  private readonly reserved = new Set<string>();

  constructor(
    readonly path: string,
    private readonly doc: string,
  ) {}

  /** Declares names the module binds itself, so no helper import takes them. */
  reserve(names: Iterable<string>): this {
    for (const n of names) this.reserved.add(n);
    return this;
  }

  /** `from module import names` (a relative module is `._support`). */
  from(module: string, ...names: string[]): this {
    const set = this.imports.get(module) ?? new Set<string>();
    for (const n of names)
      set.add(this.reserved.has(n) && module !== ".models" ? `${n} as _${n}` : n);
    this.imports.set(module, set);
    return this;
  }

  /** Imports `name` from `module` and returns what the module calls it (`_Annotated` where MCP has a definition Annotated). */
  use(module: string, name: string): string {
    this.from(module, name);
    return this.reserved.has(name) && module !== ".models" ? `_${name}` : name;
  }

  /** Appends a top-level section (a class, a function, a few assignments). */
  add(code: string): this {
    this.sections.push(code.replace(/\s+$/, ""));
    return this;
  }

  /** The module, with `bannerLines` as its first comment lines. */
  build(bannerLines: readonly string[]): EmittedFile {
    const banner = bannerLines.map((l) => (l ? `# ${l}` : "#")).join("\n");
    const doc = `"""${this.doc}"""`;
    const imports = [...this.imports.entries()]
      .sort(([a], [b]) => importOrder(a) - importOrder(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([module, names]) => importLine(module, [...names].sort(caseless)));
    const future = "from __future__ import annotations";
    const head = [banner, doc, future, imports.join("\n")].filter((s) => s !== "").join("\n\n");
    const body = this.sections.join("\n\n\n");
    return { path: this.path, contents: `${head}\n\n\n${body}\n` };
  }
}

/** Standard library first, then third-party, then the package's own modules. */
function importOrder(module: string): number {
  if (module.startsWith(".")) return 2;
  return ["pydantic", "pydantic_core", "typing_extensions"].includes(module.split(".")[0]!) ? 1 : 0;
}

function caseless(a: string, b: string): number {
  // isort's force_sort_within_sections order: constants, classes, then functions.
  const rank = (s: string) => (/^[A-Z0-9_]+$/.test(s) ? 0 : /^[A-Z]/.test(s) ? 1 : 2);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function importLine(module: string, names: readonly string[]): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (line.length <= PY_WIDTH) return line;
  return `from ${module} import (\n${names.map((n) => `${PY_INDENT}${n},`).join("\n")}\n)`;
}
