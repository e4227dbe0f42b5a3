/**
 * A project without @opentelemetry/api (templates/runtime/server/telemetry.ts
 * loads it dynamically): the server layer and a program using it compile
 * under --strict where the package cannot be resolved, and run there, in a
 * child process, carrying the incoming trace context on unchanged. The
 * runtime and the generated modules are copied into a temporary folder
 * with no node_modules above it, as in a project that never installed it.
 */
import { execFile } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../../helpers/index.js";
import { strictErrors } from "../../helpers/typecheck.js";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";

const MAIN = `import * as protocol from "./generated/2026-07-28/index.js";
import { McpServer } from "./runtime/server/index.js";

const server = new McpServer({ protocol, info: { name: "no-otel", version: "1.0.0" } });
server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
  await ctx.elicit("city", { mode: "form", message: "Which city?", requestedSchema: { type: "object", properties: {} } });
  return { content: [] };
});
const outcome = await server.serve(
  {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "ask",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
        traceparent: "${TRACEPARENT}",
      },
    },
  },
  { sink: { notify() {} }, signal: new AbortController().signal },
);
process.stdout.write(JSON.stringify(outcome.response));
`;

let dir: string;
beforeAll(() => {
  dir = tempDir("no-otel");
  cpSync(join(ROOT, "templates", "runtime"), join(dir, "runtime"), { recursive: true });
  cpSync(join(ROOT, "generated", "2026-07-28"), join(dir, "generated", "2026-07-28"), {
    recursive: true,
  });
  writeFileSync(join(dir, "main.ts"), MAIN);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
});

describe("a project without @opentelemetry/api", () => {
  it("cannot resolve the package, and compiles under --strict anyway", () => {
    const options = {
      typeRoots: [join(ROOT, "node_modules", "@types")],
      types: ["node"],
      skipLibCheck: true,
    };
    expect(strictErrors([join(dir, "main.ts")], options, dir)).toEqual([]);
    // The check would see a static import: a file that has one fails to compile here.
    writeFileSync(
      join(dir, "static.ts"),
      'import { trace } from "@opentelemetry/api";\nvoid trace;\n',
    );
    expect(strictErrors([join(dir, "static.ts")], options, dir).join("\n")).toMatch(
      /Cannot find module '@opentelemetry\/api'/,
    );
  });

  it("runs, and hands the incoming traceparent on to the input request", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", TSX, "main.ts"], {
      cwd: dir,
      timeout: 60_000,
    });
    const response = JSON.parse(stdout) as {
      result: { inputRequests: { city: { params: { _meta: unknown } } } };
    };
    expect(response.result.inputRequests.city.params._meta).toEqual({ traceparent: TRACEPARENT });
  });
});
