/**
 * The revisions mcp-gen's projects and its own copy of the runtime use,
 * in one place. Generation needs none of this (a revision is known by its
 * entry in schema/revisions.json); these are what a project is made with:
 *
 * - {@link PROJECT_REVISION}, the one line a new revision that changes
 *   nothing at run time needs (after its entry in schema/revisions.json and
 *   `npm run generate`): what a new project targets unless `--spec` names
 *   another, and what mcp-gen's own client (`--from-server`, the drift
 *   check) and upgrade's runtime check speak, with the committed modules of
 *   generated/ (protocol.ts);
 * - the oldest revision a project may target and the revision legacy
 *   (`initialize`) peers are served with, which are the runtime's facts
 *   (templates/runtime/core/era.ts) and are taken from it.
 */
import { FIRST_MODERN, LEGACY_REVISIONS } from "../../templates/runtime/core/era.js";

/** The revision a new project targets unless `--spec` names another, and the one mcp-gen's own runtime speaks. */
export const PROJECT_REVISION = "2026-07-28";

/**
 * The first modern revision, and the oldest a project may target: the
 * runtime serves one modern revision, and the legacy era beside it.
 */
export { FIRST_MODERN };

/** The revision a project's legacy module is generated for: the newest one legacy peers may negotiate. */
export const LEGACY_REVISION = LEGACY_REVISIONS[0]!;
