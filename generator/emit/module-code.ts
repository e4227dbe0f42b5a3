/**
 * moduleCode: the standalone module of compiled validators, assembled from
 * each validator's source (ajv's SourceCode: its name, its code, and the
 * scope values it refers to: schemas, formats, other validators) through
 * the ajv instance's value scope, which writes each value once per module.
 * The text is what ajv's standaloneCode writes for the same exports.
 *
 * Why not standaloneCode itself: it appends each export to one code object
 * rebuilt from the whole module so far, copying every piece written before,
 * so its time grows with the square of the exports. With every definition
 * of 2026-07-28 copied 16 times (2,420 exports), it took 896 ms against
 * 21 ms for 608 (moduleCode: 147 and 33 ms; `npm run bench -- growth`
 * times generation at those sizes); here
 * each piece is a string, written once.
 */
import type { Ajv } from "ajv";
import { _Code, type Code } from "ajv/dist/compile/codegen/code.js";
import {
  UsedValueState,
  type UsedScopeValues,
  type ValueScopeName,
} from "ajv/dist/compile/codegen/scope.js";
import type { SourceCode } from "ajv/dist/types/index.js";

/** The module exporting, under each name of `exports`, the validator of the schema whose `$id` it maps to. */
export function moduleCode(ajv: Ajv, exports: Readonly<Record<string, string>>): string {
  if (!ajv.opts.code.source || !ajv.opts.code.esm)
    throw new Error(
      "compiling validators: ajv must keep each validator's source as an ES module (code.source, code.esm)",
    );
  const writer = new ModuleWriter(ajv);
  const parts = ['"use strict";'];
  for (const [name, id] of Object.entries(exports)) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
      throw new Error(
        `compiling validators: export name ${JSON.stringify(name)} is not an identifier`,
      );
    const source = ajv.getSchema(id)?.source;
    if (!source) throw new Error(`compiling validators: no schema has $id ${id}`);
    parts.push(
      `${writer.newline}export const ${name} = ${source.validateName.str};${writer.newline}`,
    );
    parts.push(writer.validatorCode(source));
  }
  return parts.join("");
}

/** Writes validators and what they refer to, each once: what was written is kept in `used`. */
class ModuleWriter {
  readonly newline: string;
  private readonly used: UsedScopeValues = {};
  private readonly declare: string;

  constructor(private readonly ajv: Ajv) {
    this.newline = ajv.scope.opts._n.toString();
    this.declare = ajv.opts.code.es5 ? "var" : "const";
  }

  /** A validator's code after the scope values it needs that are not written yet; "" once written. */
  validatorCode(source: SourceCode): string {
    const name = source.validateName;
    if (this.state(name) === UsedValueState.Completed) return "";
    this.setState(name, UsedValueState.Started);
    const values = this.ajv.scope.scopeCode(source.scopeValues, this.used, (value) =>
      this.referenceCode(value),
    );
    const code = `${values.toString()}${this.newline}${source.validateCode}`;
    return source.evaluated
      ? `${code}${name.str}.evaluated = ${source.evaluated.toString()};${this.newline}`
      : code;
  }

  /**
   * The code of a scope value that is a reference: another validator (its
   * code), or a root or wrapper object holding one (declared, then the
   * validator unless it is being written already: a recursive reference).
   */
  private referenceCode(value: ValueScopeName): Code | undefined {
    // What ajv keeps as a value's reference: a validate function, or a root/wrapper object holding one.
    const reference = value.value?.ref as Referenced | undefined;
    if (value.prefix === "validate" && typeof reference === "function")
      return code(this.validatorCode(sourceOf(reference)));
    if ((value.prefix === "root" || value.prefix === "wrapper") && typeof reference === "object") {
      const { validate, validateName } = reference;
      if (!validateName) throw new Error(`compiling validators: ${value.str} names no validator`);
      const wrapper = `${this.declare} ${value.str} = {validate: ${validateName.str}};`;
      if (this.state(validateName) === UsedValueState.Started) return code(wrapper);
      return code(`${wrapper}${this.newline}${this.validatorCode(sourceOf(validate))}`);
    }
    return undefined;
  }

  private state(name: ValueScopeName): UsedValueState | undefined {
    return this.used[name.prefix]?.get(name);
  }

  private setState(name: ValueScopeName, state: UsedValueState): void {
    (this.used[name.prefix] ??= new Map()).set(name, state);
  }
}

/** A scope value's reference as ajv keeps it (the fields read here). */
interface Referenced {
  readonly source?: SourceCode;
  readonly validate?: { readonly source?: SourceCode };
  readonly validateName?: ValueScopeName;
}

function sourceOf(validate: { readonly source?: SourceCode } | undefined): SourceCode {
  if (!validate?.source) throw new Error("compiling validators: a validator has no source code");
  return validate.source;
}

/** Code that is `text` as it is (a template of ajv's `_` would quote a string). */
function code(text: string): Code {
  return new _Code(text);
}
