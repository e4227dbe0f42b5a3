/**
 * What `mcp-gen diff --tools --fail-on` may name: one list for the
 * command line and the library (tool-diff.ts says what each fails on).
 */
export const FAIL_ON = [
  "breaking-for-clients",
  "breaking-for-servers",
  "documentation",
  "any",
] as const;

/** One of {@link FAIL_ON}. */
export type FailOn = (typeof FAIL_ON)[number];
