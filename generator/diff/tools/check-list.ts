/**
 * A tool list is checked before anything is made of it (a diff, a
 * fingerprint, types), by the rules mcp-gen already applies elsewhere,
 * not a set of its own:
 *
 * - each tool must be a Tool of the protocol (the definition of
 *   2026-07-28 or of 2025-11-25, the revisions mcp-gen's client speaks):
 *   the client refuses a tools/list result that breaks it (MCPG721); here
 *   each such tool is MCPG732;
 * - each tool must pass the checks a server's tools file gets
 *   (check/check-tools.ts: MCPG701 to MCPG706, MCPG713), except that two
 *   names which would make one TypeScript name are allowed, as a client
 *   allows them.
 *
 * Every problem of the list is reported together, each at its pointer.
 */
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as protocol from "../../../generated/2026-07-28/index.js";
import { readTools } from "../../check/check-tools.js";
import { diagnostic, McpGenError, type Diagnostic } from "../../diagnostics.js";
import { isJsonObject, type JsonValue } from "../../load/json.js";

/** How many of a tool's schema errors a diagnostic quotes. */
const QUOTED_ERRORS = 3;

/**
 * Every problem of the tools of `list` at `indices` (all when not given):
 * `source` names the list, `pointer` is where the list sits in it (`""`,
 * `/tools`, `/result/tools`).
 */
export function toolListProblems(
  list: readonly JsonValue[],
  source: string,
  pointer: string,
  indices: readonly number[] = list.map((_, i) => i),
): Diagnostic[] {
  return indices.flatMap((i) => toolProblems(list[i]!, i, source, pointer));
}

function toolProblems(
  tool: JsonValue,
  index: number,
  source: string,
  pointer: string,
): Diagnostic[] {
  const at = `${pointer}/${index}`;
  try {
    readTools([tool], source, { refuseCollisions: false });
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    // readTools places a problem in a list of one tool (`/0/...`): here it is the list's index-th.
    return error.diagnostics.map((d) =>
      d.location?.pointer === undefined
        ? d
        : { ...d, location: { ...d.location, pointer: d.location.pointer.replace(/^\/0/, at) } },
    );
  }
  return protocolProblems(tool, at, source);
}

/**
 * Every tool of `list` that is no Tool of the protocol (MCPG732): what
 * mcp-gen's client refuses a whole tools/list result for, where a tools
 * file's checks leave a tool out of its wrappers instead.
 */
export function protocolListProblems(
  list: readonly JsonValue[],
  source: string,
  pointer: string,
): Diagnostic[] {
  return list.flatMap((tool, i) => protocolProblems(tool, `${pointer}/${i}`, source));
}

/** The tool against the Tool definition of each revision the client speaks: valid in one is enough. */
function protocolProblems(tool: JsonValue, at: string, source: string): Diagnostic[] {
  const modern = protocol.validate("Tool", tool);
  if (modern.ok || legacy.validate("Tool", tool).ok) return [];
  const name = isJsonObject(tool) && typeof tool.name === "string" ? tool.name : at;
  const errors = modern.errors.slice(0, QUOTED_ERRORS);
  return [
    diagnostic(
      "MCPG732",
      {
        source,
        tool: name,
        revisions: "2026-07-28 (nor 2025-11-25)",
        reason: errors.map((e) => `${e.path || "/"} ${e.message}`).join("; "),
      },
      { file: source, pointer: `${at}${errors[0]?.path ?? ""}` },
    ),
  ];
}
