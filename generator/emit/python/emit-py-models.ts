/**
 * emitPyModels: models.py, a pydantic model per object definition (and per
 * inline object, named after its place), an alias per other definition,
 * from the types py-type.ts maps the validator schemas to:
 *
 *   class CallToolResult(WireModel):
 *       """The result of a tools/call. …"""
 *
 *       meta: Omittable[ResultMetaObject] = Field(default=None, alias="_meta")
 *       content: list[ContentBlock]
 *       isError: Omittable[bool] = None
 *       resultType: Literal["complete"]
 *
 * Classes come first, their annotations read lazily; aliases follow, each
 * after the aliases it uses (a cycle is a TypeAliasType with a quoted
 * reference); every model is rebuilt at the end, so an import fails at once
 * on anything unresolved.
 */
import type { McpModel } from "../../model/types.js";
import type { EmittedFile } from "../file.js";
import { PyFileBuilder } from "./py-file.js";
import { PY_MODULES } from "./py-names.js";
import {
  call,
  docstring,
  flat,
  layout,
  PY_INDENT,
  PY_WIDTH,
  pyString,
  pyValue,
  seq,
  statement,
  subscript,
  type PyDoc,
} from "./py-print.js";
import type { PyAlias, PyDeclarations, PyField, PyModel, PyType } from "./py-type.js";

/** Emits models.py from the declarations py-type.ts made. */
export function emitPyModels(
  model: McpModel,
  declarations: PyDeclarations,
  banner: readonly string[],
): EmittedFile {
  const file = new PyFileBuilder(
    PY_MODULES.models,
    `The models of every definition of MCP ${model.revision}, validated as its schema says.`,
  );
  file.reserve([
    ...declarations.models.map((m) => m.name),
    ...declarations.aliases.map((a) => a.name),
  ]);
  const printer = new TypePrinter(file, new Set(declarations.models.map((m) => m.name)));
  if (declarations.discriminators.size > 0)
    file.add(
      statement([
        "DISCRIMINATORS.update(",
        seq("(", [...declarations.discriminators].sort().map(pyString), ")"),
        ")",
      ]),
    );
  file.from("._support", "DISCRIMINATORS");
  for (const m of declarations.models) file.add(modelClass(m, printer));
  for (const alias of orderAliases(declarations.aliases)) file.add(aliasStatement(alias, printer));
  if (declarations.models.some((m) => m.check)) file.from("._checks", "SchemaCheck");
  file.add(rebuild(declarations.models));
  return file.build(banner);
}

/** Writes PyTypes as annotations, importing what they use. */
class TypePrinter {
  /** Aliases not yet defined where the current alias is written (quoted when used). */
  pending = new Set<string>();
  constructor(
    readonly file: PyFileBuilder,
    private readonly classes: ReadonlySet<string>,
  ) {}

  print(type: PyType): PyDoc {
    const f = this.file;
    switch (type.kind) {
      case "ref":
        return this.pending.has(type.name) ? pyString(type.name) : type.name;
      case "str":
        return "str";
      case "int":
        return f.use("._support", "JsonInt");
      case "float":
        return "float";
      case "bool":
        return "bool";
      case "none":
        return "None";
      case "any":
        return f.use("typing", "Any");
      case "object":
        return `dict[str, ${f.use("typing", "Any")}]`;
      case "json":
        return f.use("pydantic", "JsonValue");
      case "never":
        return f.use("._support", "Nothing");
      case "literal":
        return subscript(f.use("typing", "Literal"), type.values.map(literalValue));
      case "list":
        return subscript("list", [this.print(type.item)]);
      case "dict":
        return subscript("dict", ["str", this.print(type.value)]);
      case "constrained":
        return subscript(f.use("typing", "Annotated"), [
          this.print(type.base),
          call(
            f.use("pydantic", "Field"),
            Object.entries(type.constraints).map(([k, v]) => `${k}=${v}`),
          ),
        ]);
      case "checked":
        return subscript(f.use("typing", "Annotated"), [
          this.print(type.base),
          call(f.use("._checks", "SchemaCheck"), [pyValue(type.schema), "__name__"]),
        ]);
      case "union":
        return this.union(type);
    }
  }

  private union(type: Extract<PyType, { kind: "union" }>): PyDoc {
    const members = type.members.map((m) => this.print(m));
    if (members.length === 1) return members[0]!;
    const f = this.file;
    const union = subscript(f.use("typing", "Union"), members);
    const annotated = f.use("typing", "Annotated");
    if (type.discriminator !== undefined)
      return subscript(annotated, [
        union,
        call(f.use("pydantic", "Field"), [`discriminator=${pyString(type.discriminator)}`]),
      ]);
    return subscript(annotated, [union, f.use("._support", "ANY_OF")]);
  }

  isClass(name: string): boolean {
    return this.classes.has(name);
  }
}

function literalValue(value: string | number | boolean | null): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return typeof value === "string" ? pyString(value) : String(value);
}

/** Whether a type accepts null already (so an optional field of it needs no Omittable). */
function admitsNull(type: PyType): boolean {
  if (type.kind === "none" || type.kind === "any" || type.kind === "json") return true;
  if (type.kind === "union") return type.members.some(admitsNull);
  if (type.kind === "literal") return type.values.includes(null);
  if (type.kind === "constrained") return admitsNull(type.base);
  return false;
}

function modelClass(m: PyModel, printer: TypePrinter): string {
  const base = printer.file.use("._support", "WireModel");
  const lines: string[] = [classHeader(m.name, base)];
  const body: string[] = [];
  if (m.doc) body.push(docstring(m.doc, 1));
  const config: string[] = [];
  if (m.extra === "forbid") printer.file.from("pydantic", "ConfigDict");
  if (typeof m.extra === "object") printer.file.from("pydantic", "Field");
  if (m.check) printer.file.from("typing", "Any").from("pydantic", "model_validator");
  if (m.extra === "forbid")
    config.push(
      statement(
        [`model_config = ${printer.file.use("pydantic", "ConfigDict")}(extra="forbid")`],
        1,
      ),
    );
  if (typeof m.extra === "object")
    // ruff leaves pragma comments out of the line length, so the line is laid out without it.
    config.push(
      pragmaOnFirstLine(
        statement(
          [
            "__pydantic_extra__: ",
            subscript("dict", ["str", printer.print(m.extra)]),
            ` = ${printer.file.use("pydantic", "Field")}(init=False)`,
          ],
          1,
        ),
        "# pyright: ignore[reportIncompatibleVariableOverride]",
      ),
    );
  const fields = m.fields.map((f) => fieldLines(f, printer));
  const blocks = [...config, ...fields];
  if (m.check) blocks.push(checkMethod(m));
  if (blocks.length === 0 && body.length === 0) body.push("    pass");
  const section = [...lines, ...joinBody(body, blocks)].join("\n");
  return section;
}

/** The docstring, a blank line, then the members (a method set off by blank lines). */
function joinBody(doc: readonly string[], blocks: readonly string[]): string[] {
  const out: string[] = [...doc];
  if (doc.length > 0 && blocks.length > 0) out.push("");
  blocks.forEach((b, i) => {
    if (b.trimStart().startsWith("@") && i > 0) out.push("");
    out.push(b);
  });
  return out;
}

function fieldLines(field: PyField, printer: TypePrinter): string {
  const type = printer.print(field.type);
  const optional = !field.required;
  const omittable = optional && !admitsNull(field.type);
  const annotation: PyDoc = omittable
    ? subscript(printer.file.use("._support", "Omittable"), [type])
    : type;
  const fieldCall = field.alias !== undefined ? printer.file.use("pydantic", "Field") : "Field";
  const args: PyDoc[] = [];
  if (optional) args.push("default=None");
  if (field.alias !== undefined) args.push(`alias=${pyString(field.alias)}`);
  const value: PyDoc | undefined =
    args.length === 0 ? undefined : field.alias === undefined ? "None" : call(fieldCall, args);
  const doc: PyDoc =
    value === undefined
      ? [field.name, ": ", annotation]
      : [field.name, ": ", annotation, " = ", value];
  const code =
    value !== undefined && typeof value === "string"
      ? atomAssignment([field.name, ": ", annotation], value, 1)
      : statement(doc, 1);
  return field.doc ? `${code}\n${docstring(field.doc, 1)}` : code;
}

/**
 * `target = value` where the value is an atom (`None`) that cannot split:
 * as ruff lays it out, the target stays on one line and the value goes in
 * parentheses of its own when the line is too long but `target = (` fits;
 * otherwise the target splits.
 */
function atomAssignment(target: PyDoc, value: string, indent: number): string {
  const pad = PY_INDENT.repeat(indent);
  const line = `${flat(target)} = ${value}`;
  if (pad.length + line.length <= PY_WIDTH) return `${pad}${line}`;
  const opened = `${flat(target)} = (`;
  if (pad.length + opened.length <= PY_WIDTH)
    return `${pad}${opened}\n${pad}${PY_INDENT}${value}\n${pad})`;
  return statement([target, ` = ${value}`], indent);
}

function checkMethod(m: PyModel): string {
  const lines = [
    '    @model_validator(mode="before")',
    "    @classmethod",
    "    def _check_schema(cls, data: Any) -> Any:",
    `        return ${layout(["_CHECKS[", pyString(m.name), "](data)"], 2)}`,
  ];
  return lines.join("\n");
}

/** The aliases, each after those it uses; in a cycle, the later one is quoted where it is used. */
function orderAliases(aliases: readonly PyAlias[]): PyAlias[] {
  const names = new Set(aliases.map((a) => a.name));
  const uses = new Map(
    aliases.map((a) => [a.name, [...refs(a.type)].filter((r) => names.has(r) && r !== a.name)]),
  );
  const done = new Set<string>();
  const visiting = new Set<string>();
  const order: PyAlias[] = [];
  const byName = new Map(aliases.map((a) => [a.name, a]));
  const visit = (name: string): void => {
    if (done.has(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const used of uses.get(name) ?? []) visit(used);
    visiting.delete(name);
    done.add(name);
    order.push(byName.get(name)!);
  };
  for (const a of aliases) visit(a.name);
  return order;
}

function refs(type: PyType, into = new Set<string>()): Set<string> {
  switch (type.kind) {
    case "ref":
      into.add(type.name);
      break;
    case "list":
      refs(type.item, into);
      break;
    case "dict":
      refs(type.value, into);
      break;
    case "constrained":
    case "checked":
      refs(type.base, into);
      break;
    case "union":
      type.members.forEach((m) => refs(m, into));
      break;
    default:
      break;
  }
  return into;
}

const defined = new WeakMap<TypePrinter, Set<string>>();

function aliasStatement(alias: PyAlias, printer: TypePrinter): string {
  const seen = defined.get(printer) ?? new Set<string>();
  defined.set(printer, seen);
  const later = [...refs(alias.type)].filter((r) => !printer.isClass(r) && !seen.has(r));
  printer.pending = new Set(later);
  const type = printer.print(alias.type);
  printer.pending = new Set();
  seen.add(alias.name);
  const recursive = later.length > 0;
  if (recursive) printer.file.from("typing_extensions", "TypeAliasType");
  const code = recursive
    ? statement([alias.name, " = ", call("TypeAliasType", [pyString(alias.name), type])])
    : statement([alias.name, " = ", type]);
  return alias.doc ? `${code}\n${docstring(alias.doc, 0)}` : code;
}

function rebuild(models: readonly PyModel[]): string {
  const checks = models.filter((m) => m.check);
  const parts: string[] = [];
  if (checks.length > 0)
    parts.push(
      statement([
        "_CHECKS: dict[str, SchemaCheck] = ",
        seq(
          "{",
          checks.map((m) => [
            pyString(m.name),
            ": ",
            call("SchemaCheck", [pyValue(m.check), "__name__"]),
          ]),
          "}",
        ),
      ]),
    );
  parts.push(
    `for _model in ${layout(
      seq(
        "[",
        models.map((m) => m.name),
        "]",
      ),
      0,
      14,
      1,
    )}:\n    _model.model_rebuild()`,
  );
  return parts.join("\n\n");
}

/** A type as another module writes it (builders' data), importing what it uses into `file`. */
export function printType(type: PyType, file: PyFileBuilder): PyDoc {
  if (type.kind === "ref") file.from(".models", type.name);
  return new TypePrinter(file, new Set()).print(type);
}

/**
 * `code` with `pragma` after its first line, where pyright reports what it
 * silences (on the last line of a statement laid out over several, it
 * would silence nothing).
 */
function pragmaOnFirstLine(code: string, pragma: string): string {
  const end = code.indexOf("\n");
  return end < 0 ? `${code}  ${pragma}` : `${code.slice(0, end)}  ${pragma}${code.slice(end)}`;
}

/** `class Name(Base):`, its base on a line of its own when the header is too long, as ruff lays it out. */
function classHeader(name: string, base: string): string {
  const line = `class ${name}(${base}):`;
  return line.length <= PY_WIDTH ? line : `class ${name}(\n${PY_INDENT}${base}\n):`;
}
