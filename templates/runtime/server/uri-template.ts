/**
 * Resource templates (RFC 6570, level 1): which URIs a template matches,
 * and the values of its variables.
 */

/** A matcher for an RFC 6570 level-1 template: `{name}` matches one path segment's worth of characters. */
export function templateMatcher(
  template: string,
): (uri: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(variable[1]!);
      return "([^/?#]+)";
    })
    .join("");
  const pattern = new RegExp(`^${source}$`);
  return (uri) => {
    const match = pattern.exec(uri);
    if (!match) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
  };
}
