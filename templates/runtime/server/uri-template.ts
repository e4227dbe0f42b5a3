/**
 * Resource templates (RFC 6570): which URIs a template matches, and the
 * values of its variables, percent-decoded.
 *
 * A value reaches a handler as data for one place in the URI, so the
 * matcher keeps it from reaching further than the template says:
 *
 * - `{name}` (simple expansion) matches one path segment's worth of
 *   characters (no `/`, `?` or `#`). Its decoded value may not contain
 *   `/` or `\` and may not be `.` or `..`, so `%2F..%2F` cannot walk a
 *   path a handler builds from it.
 * - `{+name}` (reserved expansion) is the opt-in for values that are
 *   paths: it matches across `/` (not `?` or `#`) and its value may hold
 *   `/` and `..`; a handler that uses it as a path checks it itself.
 *
 * Malformed percent-encoding (`%`, `%zz`, bytes that are not UTF-8) and a
 * value the rules refuse are -32602 (invalid params) naming the variable.
 */
import { invalidParams } from "../core/errors.js";

/** Matches a URI against a template: the decoded variables, or undefined when it does not match; throws -32602 for a value the rules refuse. */
export type TemplateMatcher = (uri: string) => Record<string, string> | undefined;

interface Variable {
  readonly name: string;
  readonly reserved: boolean;
}

/** A matcher for an RFC 6570 template with `{name}` and `{+name}` expressions. */
export function templateMatcher(template: string): TemplateMatcher {
  const variables: Variable[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const expression = /^\{(\+?)([^}]+)\}$/.exec(part);
      if (!expression) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const reserved = expression[1] === "+";
      variables.push({ name: expression[2]!, reserved });
      return reserved ? "([^?#]+)" : "([^/?#]+)";
    })
    .join("");
  const pattern = new RegExp(`^${source}$`);
  return (uri) => {
    const match = pattern.exec(uri);
    if (!match) return undefined;
    return Object.fromEntries(
      variables.map((variable, i) => [variable.name, decodeValue(variable, match[i + 1]!)]),
    );
  };
}

function decodeValue(variable: Variable, raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw invalidParams(
      `the URI's value for {${variable.name}} has malformed percent-encoding: ${JSON.stringify(raw)}`,
      { path: "/params/uri" },
    );
  }
  if (!variable.reserved && (/[/\\]/.test(value) || value === "." || value === ".."))
    throw invalidParams(
      `the URI's value for {${variable.name}} may not contain "/" or "\\" or be "." or ".." once decoded (the template may declare {+${variable.name}} to accept paths)`,
      { path: "/params/uri" },
    );
  return value;
}
