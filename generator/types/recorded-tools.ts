/**
 * The tools a module of `mcp-gen types` was made from, read back from its
 * `TOOLS` literal (a JSON value written as TypeScript), so that a drift
 * check can say what changed since. The module is parsed, never run: a
 * file that holds anything but literals there gives no tools.
 */
import { ts } from "ts-morph";
import type { JsonObject, JsonValue } from "../load/json.js";

/** The value of `export const TOOLS = [...] as const;` in `text`, or undefined when it is not a literal list. */
export function recordedTools(text: string): JsonValue[] | undefined {
  const file = ts.createSourceFile(
    "module.ts",
    text,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== "TOOLS") continue;
      if (!declaration.initializer) return undefined;
      const value = literalValue(withoutAssertions(declaration.initializer));
      return Array.isArray(value) ? value : undefined;
    }
  }
  return undefined;
}

/** `x as const`, `x satisfies T`, `(x)`: the expression inside. */
function withoutAssertions(expression: ts.Expression): ts.Expression {
  let e = expression;
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e))
    e = e.expression;
  return e;
}

/** A literal expression's JSON value; undefined for anything else (a call, a name, a spread). */
function literalValue(e: ts.Expression): JsonValue | undefined {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (
    ts.isPrefixUnaryExpression(e) &&
    e.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(e.operand)
  )
    return -Number(e.operand.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (e.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(e)) {
    const items = e.elements.map((item) => literalValue(item));
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  if (ts.isObjectLiteralExpression(e)) return objectValue(e);
  return undefined;
}

function objectValue(e: ts.ObjectLiteralExpression): JsonObject | undefined {
  const out: JsonObject = {};
  for (const property of e.properties) {
    if (!ts.isPropertyAssignment(property)) return undefined;
    const key = keyOf(property.name);
    const value = literalValue(property.initializer);
    if (key === undefined || value === undefined) return undefined;
    // Defined, not assigned: a key named __proto__ stays an own property.
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function keyOf(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteral(name.expression))
    return name.expression.text;
  return undefined;
}
