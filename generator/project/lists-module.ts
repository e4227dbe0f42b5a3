/**
 * src/generated/lists.gen.ts of a server project.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import { SETTINGS_FILE, type ProjectSettings } from "./settings.js";

/**
 * src/generated/lists.gen.ts of a server: mcp-gen.json's `lists` as the
 * defaults its server starts with (MCP_LIST_PAGE_SIZE overrides the page
 * size). Caching hints (`ttlMs`, `cacheScope`) are refused (MCPG715) for a
 * revision whose list results do not carry them, which `typesFile` (the
 * revision's types.gen.ts) tells.
 */
export function listsFiles(
  settings: ProjectSettings,
  typesFile: string | undefined,
  banner: string,
): EmittedFile[] {
  if (settings.kind !== "server") return [];
  const lists = settings.lists ?? {};
  const hints = (["ttlMs", "cacheScope"] as const).filter((name) => lists[name] !== undefined);
  if (hints.length > 0 && !listResultsCarryHints(typesFile))
    throw new McpGenError(
      hints.map((name) =>
        diagnostic(
          "MCPG715",
          { setting: `lists.${name}`, revision: settings.revision },
          { file: SETTINGS_FILE, pointer: `/lists/${name}` },
        ),
      ),
    );
  return [
    {
      path: "src/generated/lists.gen.ts",
      contents: `${banner}
import type { ListDefaults } from "../mcp-gen/runtime/index.js";

/** mcp-gen.json's lists: the page size (MCP_LIST_PAGE_SIZE overrides it) and the caching hints of list results. */
export const listDefaults: ListDefaults = ${JSON.stringify(lists, null, 2)};
`,
    },
  ];
}

/**
 * Whether a revision's ListToolsResult has `ttlMs` (the CacheableResult
 * fields of 2026-07-28; earlier revisions and drafts before them have
 * none), read from the interface its types.gen.ts declares.
 */
export function listResultsCarryHints(typesFile: string | undefined): boolean {
  const start = typesFile?.indexOf("export interface ListToolsResult {") ?? -1;
  if (start < 0) return false;
  const end = typesFile!.indexOf("\n}\n", start);
  return /^\s*ttlMs[?]?:/m.test(typesFile!.slice(start, end < 0 ? undefined : end));
}
