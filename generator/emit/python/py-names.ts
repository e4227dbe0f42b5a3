/**
 * Python names for what the model names: identifiers for properties and
 * definitions, the package a revision is written to, and the modules of a
 * generated package. Decided here and nowhere else, so name safety is in
 * one place.
 */

/** Python's keywords (and soft keywords that cannot name a class attribute safely). */
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/**
 * Attributes of pydantic's BaseModel (and of WireModel, the generated base):
 * a field of such a name would hide a method, so it gets a trailing `_`.
 */
const MODEL_ATTRIBUTES = new Set([
  "construct",
  "copy",
  "dict",
  "from_orm",
  "json",
  "parse_file",
  "parse_obj",
  "parse_raw",
  "schema",
  "schema_json",
  "to_wire",
  "update_forward_refs",
  "validate",
]);

/** True when `name` is a Python identifier (ASCII, as generated code keeps to) and no keyword. */
export function isPyIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);
}

/**
 * The attribute name of a property: the wire name when it can be one,
 * else a safe spelling (`_meta` → `meta`, `io.modelcontextprotocol/tasks`
 * → `io_modelcontextprotocol_tasks`, `from` → `from_`), which then carries
 * the wire name as its alias. `taken` holds the names already used in the
 * model; a clash gets a numbered suffix.
 */
export function fieldName(wire: string, taken: ReadonlySet<string>): string {
  let name = wire.replace(/[^A-Za-z0-9_]/g, "_").replace(/^_+/, "");
  if (name === "") name = "field";
  if (/^[0-9]/.test(name)) name = `field_${name}`;
  if (KEYWORDS.has(name) || MODEL_ATTRIBUTES.has(name) || name.startsWith("model_"))
    name = `${name}_`;
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  return candidate;
}

/** A class or alias name for a definition: its own name when it can be one. */
export function className(name: string): string {
  // A name that starts with an underscore is private to its module in Python (`__schema0`, a digit made `_0`):
  // the package exports every class, so such a name gets a prefix instead.
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9_])/, "Def");
  return KEYWORDS.has(cleaned) ? `${cleaned}_` : cleaned;
}

/** `tools/call` → `ToolsCall`, `params` → `Params`: a name part for inline models. */
export function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("") || "Value";
}

/** `2026-07-28` with `tasks` → `mcp_gen_2026_07_28_tasks`: the import name of a revision's package. */
export function packageName(revision: string, extensions: readonly string[]): string {
  const parts = [revision, ...extensions].map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, "_"));
  return `mcp_gen_${parts.join("_")}`.replace(/_+/g, "_").replace(/_$/, "");
}

/** The distribution name pip knows the package by (`mcp-gen-2026-07-28-tasks`). */
export function distributionName(pkg: string): string {
  return pkg.replace(/_/g, "-");
}

/** The modules of a generated package, relative to its folder. */
export const PY_MODULES = {
  support: "_support.py",
  checks: "_checks.py",
  models: "models.py",
  resultTypes: "result_types.py",
  errorCodes: "error_codes.py",
  methods: "methods.py",
  messages: "messages.py",
  protocol: "protocol.py",
  init: "__init__.py",
  typed: "py.typed",
} as const;
