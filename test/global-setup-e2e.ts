/**
 * The slow suite's set-up: dist/ built as `npm run build` builds it (the
 * package tests pack and install it, declarations included), and the
 * upstream files found as for the fast suite (global-setup.ts).
 */
import type { TestProject } from "vitest/node";
import { buildDist, upstreamFolder } from "./global-setup.js";

export default async function setup(project: TestProject): Promise<void> {
  buildDist();
  project.provide("schemaDir", await upstreamFolder());
}
