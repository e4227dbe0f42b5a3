/**
 * The rewrites compileValidators applies to ajv's standalone code, checked
 * on ajv-shaped text and on the generated validators themselves.
 */
import { describe, expect, it } from "vitest";
import { loadPropertiesOnce } from "../../generator/emit/compile-validators.js";
import { validate } from "../../generated/2026-07-28/index.js";

describe("loadPropertiesOnce", () => {
  it("reads a tested property once and uses the constant inside its block only", () => {
    const given = [
      "if(data.roots !== undefined){",
      "let data0 = data.roots;",
      'if(typeof data.roots.x !== "string"){',
      "return false;",
      "}",
      "}",
      "else {",
      "var valid0 = true;",
      "}",
      "if(data.roots === null){",
      "}",
    ].join("\n");
    expect(loadPropertiesOnce(given).split("\n")).toEqual([
      "const prop0 = data.roots;",
      "if(prop0 !== undefined){",
      "let data0 = prop0;",
      'if(typeof prop0.x !== "string"){',
      "return false;",
      "}",
      "}",
      "else {",
      "var valid0 = true;",
      "}",
      "if(data.roots === null){",
      "}",
    ]);
  });

  it("leaves longer names, other objects and string literals alone, and handles quoted keys", () => {
    const given = [
      'if(data["a/b"] !== undefined){',
      'if(data["a/b"] !== data.rootsX && data1.roots !== mydata.roots){',
      'if(data["a/b"] === "data[\\"a/b\\"]" || data["a/b"] === \'data["a/b"]\'){',
      "}",
      "}",
      "}",
    ].join("\n");
    expect(loadPropertiesOnce(given).split("\n")).toEqual([
      'const prop0 = data["a/b"];',
      "if(prop0 !== undefined){",
      "if(prop0 !== data.rootsX && data1.roots !== mydata.roots){",
      'if(prop0 === "data[\\"a/b\\"]" || prop0 === \'data["a/b"]\'){',
      "}",
      "}",
      "}",
    ]);
  });

  it("leaves a block alone that writes or deletes the property, or has an unclosed quote", () => {
    for (const inner of [
      "data.a = 1;",
      "data.a += 1;",
      "data.a++;",
      "--data.a;",
      "delete data.a;",
      'f(data.a, "unclosed);',
    ]) {
      const given = ["if(data.a !== undefined){", "g(data.a);", inner, "}"].join("\n");
      expect(loadPropertiesOnce(given), inner).toBe(given);
    }
  });

  it("still rewrites comparisons that look like assignments", () => {
    const given = [
      "if(data.a !== undefined){",
      "if(data.a === 1 || data.a == 2 || data.a <= 3){",
      "}",
      "}",
    ].join("\n");
    expect(loadPropertiesOnce(given).split("\n")[2]).toBe(
      "if(prop0 === 1 || prop0 == 2 || prop0 <= 3){",
    );
  });

  it("rewrites nested tests with names of their own", () => {
    const given = [
      "if(data.a !== undefined){",
      "if(data.a.b !== undefined){",
      "f(data.a.b);",
      "}",
      "}",
    ].join("\n");
    expect(loadPropertiesOnce(given).split("\n")).toEqual([
      "const prop0 = data.a;",
      "if(prop0 !== undefined){",
      "const prop1 = prop0.b;",
      "if(prop1 !== undefined){",
      "f(prop1);",
      "}",
      "}",
    ]);
  });

  it("names its constants so that they cannot collide with names already in the code", () => {
    const given = ["let prop0 = 1;", "if(data.a !== undefined){", "f(data.a, prop0);", "}"].join(
      "\n",
    );
    expect(loadPropertiesOnce(given).split("\n")).toEqual([
      "let prop0 = 1;",
      "const prop_0 = data.a;",
      "if(prop_0 !== undefined){",
      "f(prop_0, prop0);",
      "}",
    ]);
  });

  it("leaves code without ajv's property tests unchanged", () => {
    const given = 'if(data && typeof data == "object"){\nreturn true;\n}';
    expect(loadPropertiesOnce(given)).toBe(given);
  });
});

describe("generated validators read each property once", () => {
  /** A proxy of `target` that counts the reads of each own property. */
  function counting(target: Record<string, unknown>) {
    const reads = new Map<string, number>();
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        if (typeof key === "string") reads.set(key, (reads.get(key) ?? 0) + 1);
        return Reflect.get(t, key, receiver) as unknown;
      },
    });
    return { proxy, reads };
  }

  it("ClientCapabilities reads every capability once, present or not", () => {
    const { proxy, reads } = counting({
      roots: {},
      sampling: { tools: {} },
      elicitation: { form: {} },
    });
    expect(validate("ClientCapabilities", proxy)).toEqual({ ok: true });
    for (const key of ["elicitation", "experimental", "extensions", "roots", "sampling"]) {
      expect(reads.get(key), key).toBe(1);
    }
  });

  it("a failing property is still reported with its path", () => {
    const { proxy, reads } = counting({ roots: "no" });
    const result = validate("ClientCapabilities", proxy);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.errors[0]!.path).toBe("/roots");
    expect(reads.get("roots")).toBe(1);
  });
});
