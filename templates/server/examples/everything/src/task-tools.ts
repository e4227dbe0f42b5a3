/**
 * The tools of the Tasks extension's conformance scenarios. This project
 * was made without the extension, so there are none; with
 * `--extension tasks` this file holds them.
 */
import type { ToolHandlers } from "./generated/tools.gen.js";

/** The names of the task tools (none here). */
export type TaskToolName = never;

/** Their handlers (none here). */
export const taskTools: Pick<ToolHandlers, TaskToolName> = {};
