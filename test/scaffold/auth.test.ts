/**
 * `mcp-gen server --auth`: the project carries the runtime's auth/ layer
 * and depends on jose besides what every server depends on (a project
 * without --auth carries neither),
 * mcp-gen.json records the auth defaults, src/generated/auth.gen.ts holds
 * them for the server, the project compiles, and its server refuses a
 * request without a token with 401 and the protected resource challenge.
 * A scope for a tool that is not in tools.json is refused at generation;
 * introspection's URL and client ID go from mcp-gen.json to auth.gen.ts (a
 * client secret there is refused); authorization on a server that serves
 * only stdio is refused, at scaffold and at regeneration.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, ROOT, type ProjectServer } from "../helpers/index.js";
import type * as Auth from "../../templates/runtime/auth/index.js";
import type * as Runtime from "../../templates/runtime/index.js";
import { headersFor, raw, request } from "../helpers/mcp-client.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";

let cwd: string;
let project: string;

beforeAll(async () => {
  cwd = tempDir("scaffold-auth");
  for (const [dir, extra] of [
    ["proj", ["--auth"]],
    ["plain", []],
  ] as const) {
    const run = await runCli(["server", dir, ...extra, "--transport", "http", "--quiet"], { cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  }
  project = join(cwd, "proj");
  linkNodeModules(project);
});

const read = (path: string) => readFileSync(join(project, path), "utf8");

describe("mcp-gen server --auth", () => {
  it("records auth in mcp-gen.json, depends on jose and carries auth/; a plain project does neither", () => {
    expect(JSON.parse(read("mcp-gen.json"))).toHaveProperty("auth", { scopes: ["mcp"] });
    // One dependencies object: what every server needs, plus jose.
    expect(JSON.parse(read("package.json"))).toHaveProperty("dependencies", {
      "ajv-formats": "3.0.1",
      jose: "6.2.18",
      re2js: "2.10.0",
    });
    expect(existsSync(join(project, "src/mcp-gen/runtime/auth/bearer.ts"))).toBe(true);
    expect(read("src/generated/auth.gen.ts")).toContain('"always": [\n      "mcp"\n    ]');
    const plain = join(cwd, "plain");
    expect(JSON.parse(readFileSync(join(plain, "package.json"), "utf8"))).toHaveProperty(
      "dependencies",
      { "ajv-formats": "3.0.1", re2js: "2.10.0" },
    );
    expect(read("README.md")).toContain("## Authorization");
    expect(read("README.md")).toContain("MCP_AUTH_ISSUER");
    expect(readFileSync(join(plain, "README.md"), "utf8")).not.toContain("MCP_AUTH_");
    expect(existsSync(join(plain, "src/mcp-gen/runtime/auth"))).toBe(false);
    expect(existsSync(join(plain, "src/generated/auth.gen.ts"))).toBe(false);
  });

  it("signs in locally with npm run auth:dev: oidc-provider (mcp-gen's own version) as a dev dependency, .auth-dev/ ignored", () => {
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const manifest = JSON.parse(read("package.json")) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.scripts).toMatchObject({ dev: "mcp-gen dev", "auth:dev": "mcp-gen auth-dev" });
    expect(manifest.devDependencies["oidc-provider"]).toBe(own.devDependencies["oidc-provider"]);
    expect(read(".gitignore").split("\n")).toContain(".auth-dev/");
    expect(read("README.md")).toContain("npm run auth:dev");
    const plain = join(cwd, "plain");
    const plainManifest = readFileSync(join(plain, "package.json"), "utf8");
    expect(plainManifest).not.toContain("oidc-provider");
    expect(plainManifest).not.toContain("auth:dev");
    expect(readFileSync(join(plain, ".gitignore"), "utf8")).toBe(
      "node_modules/\ndist/\n*.tsbuildinfo\n# npm pack: the project's own tarball (vendor/ holds the mcp-gen tarball to commit)\n/*.tgz\n# npm run conformance: the suite's reports\n.conformance/\n",
    );
  });

  it("the project compiles", () => {
    expect(compileProject(project).errors).toEqual([]);
  });

  it("its server answers a request without a token with 401 and the challenge", async () => {
    const [runtime, auth, { createServer }, { authDefaults }] = await Promise.all([
      importFromProject<typeof Runtime>(project, "src/mcp-gen/runtime/index.ts"),
      importFromProject<typeof Auth>(project, "src/mcp-gen/runtime/auth/index.ts"),
      importFromProject<ProjectServer>(project, "src/server.ts"),
      importFromProject<{ authDefaults: Auth.AuthDefaults }>(project, "src/generated/auth.gen.ts"),
    ]);
    const options = auth.authSettingsFromEnvironment(authDefaults, "http://127.0.0.1:9/mcp", {
      MCP_AUTH_ISSUER: "http://127.0.0.1:9",
    });
    const running = await runtime.serveHttp(createServer(), {
      port: 0,
      authorization: auth.bearerAuthorization(options),
    });
    try {
      const message = request("tools/list");
      const reply = await raw(running.url, {
        headers: headersFor(message),
        body: JSON.stringify(message),
      });
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBe(
        'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="mcp"',
      );
    } finally {
      await running.close();
    }
  });

  it("refuses a scope for a tool that tools.json does not have", async () => {
    const settings = JSON.parse(read("mcp-gen.json")) as Record<string, unknown>;
    writeFileSync(
      join(project, "mcp-gen.json"),
      JSON.stringify({ ...settings, auth: { tools: { nosuch: ["admin"] } } }),
    );
    const run = await runCli(["generate", "--quiet"], { cwd: project });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("auth.tools names nosuch, which is not a tool of tools.json");
  });

  it("writes introspection's URL and client ID from mcp-gen.json to auth.gen.ts, never a secret", async () => {
    const settings = JSON.parse(read("mcp-gen.json")) as Record<string, unknown>;
    const introspection = { url: "https://auth.example.com/introspect", clientId: "mcp-server" };
    writeFileSync(
      join(project, "mcp-gen.json"),
      JSON.stringify({ ...settings, auth: { scopes: ["mcp"], introspection } }),
    );
    const run = await runCli(["generate", "--quiet"], { cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const text = read("src/generated/auth.gen.ts");
    const object = text.slice(text.indexOf("= {") + 2, text.lastIndexOf("}") + 1);
    expect((JSON.parse(object) as Auth.AuthDefaults).introspection).toEqual(introspection);
    writeFileSync(
      join(project, "mcp-gen.json"),
      JSON.stringify({
        ...settings,
        auth: { introspection: { ...introspection, clientSecret: "s3cret" } },
      }),
    );
    const refused = await runCli(["generate", "--quiet"], { cwd: project });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("clientSecret");
  });

  it("mcp-gen.json's auth is true in a client, an object in a server: each regenerates, true in a server is refused", async () => {
    const client = await runCli(["client", "signs-in", "--auth", "--quiet"], { cwd });
    expect(client.code).toBe(0);
    const regenerated = await runCli(["generate", "--quiet"], { cwd: join(cwd, "signs-in") });
    expect(regenerated.stderr).toBe("");
    expect(regenerated.code).toBe(0);
    const settings = JSON.parse(read("mcp-gen.json")) as Record<string, unknown>;
    writeFileSync(join(project, "mcp-gen.json"), JSON.stringify({ ...settings, auth: true }));
    const refused = await runCli(["generate", "--quiet"], { cwd: project });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`"auth" of a server is an object`);
  });

  it("refuses authorization for a server that serves only stdio, saying where its credentials come from", async () => {
    const run = await runCli(["server", "stdio-only", "--auth", "--transport", "stdio"], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("MCPG714");
    expect(run.stderr).toContain("authorization needs the HTTP transport");
    expect(run.stderr).toContain("takes its credentials from the environment");
    expect(existsSync(join(cwd, "stdio-only"))).toBe(false);
    const settings = JSON.parse(read("mcp-gen.json")) as Record<string, unknown>;
    writeFileSync(
      join(project, "mcp-gen.json"),
      JSON.stringify({ ...settings, transport: "stdio", auth: { scopes: ["mcp"] } }),
    );
    const regenerate = await runCli(["generate", "--quiet"], { cwd: project });
    expect(regenerate.code).not.toBe(0);
    expect(regenerate.stderr).toContain("MCPG714");
    expect(regenerate.stderr).toContain("mcp-gen.json");
  });
});
