/** The catalog's diagnostics of one stage: mcp-gen.json and project upgrades (8xx); internal errors (9xx). */
import { entry } from "./entry.js";

export const CONFIG_DIAGNOSTICS = {
  MCPG801: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `mcp-gen.json: ${p.reason}`,
    fix: () =>
      "edit mcp-gen.json at the place named; its format is schema/config.schema.json in mcp-gen's package (docs/config.md)",
  }),
  MCPG802: entry<{ from: string }>({
    severity: "error",
    message: (p) => `no mcp-gen.json in ${p.from} or any folder above it`,
    fix: () =>
      'pass --spec and --out, or write an mcp-gen.json such as { "targets": [{ "spec": "2026-07-28", "out": "src/mcp" }] }',
  }),
  MCPG803: entry<{ out: string; other: string }>({
    severity: "error",
    message: (p) => `target folder ${p.out} overlaps ${p.other}: one would overwrite the other`,
    fix: () => "give every target a folder of its own, outside the others",
  }),
  MCPG804: entry<{ file: string }>({
    severity: "error",
    message: (p) => `${p.file} lists no targets: there is nothing to generate`,
    fix: () =>
      'add a target, e.g. "targets": [{ "spec": "2026-07-28", "extensions": ["tasks"], "out": "src/mcp" }]',
  }),
  MCPG805: entry<{ dir: string; command: string }>({
    severity: "error",
    message: (p) =>
      `${p.dir} is not a project made by mcp-gen server or mcp-gen client (no mcp-gen.json with "kind": "server" or "client")`,
    fix: (p) =>
      `run mcp-gen ${p.command} in the folder of a project made by mcp-gen server or mcp-gen client (mcp-gen server <dir> makes one)`,
  }),
  MCPG806: entry<{ dir: string }>({
    severity: "error",
    message: (p) => `${p.dir} has no node_modules/typescript, so the project cannot be typechecked`,
    fix: () => "run npm install in the project first",
  }),
  MCPG807: entry<{ revision: string; problems: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the files mcp-gen generates for ${p.revision} do not compile in this project, so nothing was changed: ${p.problems.slice(0, 5).join("; ")}${p.problems.length > 5 ? "; ..." : ""}`,
    fix: () => "this is a bug in mcp-gen; please report it with the revision and mcp-gen.json",
  }),
  MCPG808: entry<{ revision: string; problems: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the runtime cannot serve ${p.revision}, so nothing was changed: ${p.problems.slice(0, 5).join("; ")}${p.problems.length > 5 ? "; ..." : ""}`,
    fix: () =>
      "stay on the project's revision until an mcp-gen whose runtime sets these fields, or pass --force to upgrade anyway (the runtime's answers will not match the revision)",
  }),
  MCPG809: entry<{ command: string; failures: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `${p.command} fails in a copy with the new files, so nothing was changed: ${p.failures.slice(0, 5).join("; ")}${p.failures.length > 5 ? "; ..." : ""}`,
    fix: () =>
      "fix the failing tests first (try them with --dry-run), or pass --force to upgrade anyway",
  }),
  MCPG810: entry<{ out: string; dir: string }>({
    severity: "error",
    message: (p) => `the target folder ${p.out} leads outside ${p.dir}, the folder of mcp-gen.json`,
    fix: () =>
      'put the output inside that folder, or add "allowOutside": true to the target if it is meant to write there',
  }),
  MCPG811: entry<{ dir: string }>({
    severity: "error",
    message: (p) =>
      `${p.dir} is not a server project with authorization (mcp-gen.json has no "kind": "server" with an "auth" section)`,
    fix: () =>
      'run it in a project made by mcp-gen server --auth, or add "auth": { "scopes": ["mcp"] } to its mcp-gen.json',
  }),
  MCPG812: entry<{ dir: string }>({
    severity: "error",
    message: (p) =>
      `${p.dir} has no node_modules/oidc-provider, the development authorization server`,
    fix: () =>
      "run npm install in the project (a project made with --auth lists oidc-provider among its devDependencies), or npm install --save-dev oidc-provider",
  }),
  MCPG813: entry<{ port: number }>({
    severity: "error",
    message: (p) => `port ${p.port} on 127.0.0.1 is in use (another npm run auth:dev?)`,
    fix: () => "stop what listens there, or pick another port with --port or MCP_AUTH_DEV_PORT",
  }),
  MCPG901: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `internal error: ${p.reason}`,
  }),
} as const;
