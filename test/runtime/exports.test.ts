/**
 * The runtime as the mcp-gen package exports it, from its build, in a
 * child process that imports the package by its own name: `mcp-gen/runtime`
 * (everything a server needs, as before the layers) and one entry per
 * layer.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/index.js";

/** `typeof` of each named export of `specifier`, read in a child process. */
function exportedKinds(specifier: string, names: readonly string[]): string[] {
  const code = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => typeof m[n])));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out) as string[];
}

describe("package exports of the runtime", () => {
  it.each([
    [
      "mcp-gen/runtime",
      [
        "McpServer",
        "serveHttp",
        "serveStdio",
        "McpHttpHandler",
        "fetchHandler",
        "nodeListener",
        "McpError",
        "NotImplemented",
        "RequestStateCodec",
        "statusOf",
      ],
    ],
    [
      "mcp-gen/runtime/core",
      ["readFrame", "detectEra", "PendingRequests", "requestHeaders", "headerMismatch", "McpError"],
    ],
    ["mcp-gen/runtime/server", ["McpServer", "serveModern", "LegacySession", "NotImplemented"]],
    ["mcp-gen/runtime/client", ["withEnvelope"]],
    [
      "mcp-gen/runtime/transport",
      ["McpHttpHandler", "serveHttp", "serveStdio", "connectStdio", "statusOf"],
    ],
  ])("%s", (specifier, names) => {
    expect(exportedKinds(specifier, names)).toEqual(names.map(() => "function"));
  });
});
