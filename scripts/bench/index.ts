/**
 * `npm run bench`: every benchmark of mcp-gen, from one entry. A benchmark
 * prints numbers; it passes or fails nothing (the exit code is 0 even when
 * a target is not met, and non-zero only when a run itself fails).
 *
 *   npm run bench [-- NAME... OPTIONS]      the recorded suite (recorded.ts): generation,
 *                                           growth, validation, cold-import, tools
 *   npm run bench -- server [OPTIONS]       server throughput against the SDK (server.ts; bench:server)
 *   npm run bench -- client [OPTIONS]       client round trips against the SDK (client.ts; bench:client)
 *   npm run bench -- stdio-start [OPTIONS]  a stdio server's start (stdio-start.ts; bench:stdio-start)
 *   npm run bench -- dev                    mcp-gen dev, edit to answer (dev.ts; bench:dev)
 *   npm run bench -- first-hour [--warm]    a fresh scaffold to its first answer (first-hour.ts; bench:first-hour)
 *   npm run bench -- generation-tools [N]   generation by number of tools (generation-tools.ts; bench:tools)
 *   npm run bench -- python                 the Python output against its peers (python.ts; bench:python)
 *   npm run bench -- types                  mcp-gen types on the tools fixture and the reference servers (types.ts; bench:types)
 *   npm run bench -- tool-diff-corpus       the tool diff on the corpus of tool-list histories (tool-diff-corpus.ts; corpus:tool-diff)
 *   npm run bench -- patterns               one pattern check, RegExp against re2js (pattern-engines.ts; bench:patterns)
 *
 * Each runs on its own, with its own options (see the top of its file).
 */

/** The benchmarks run on their own, by the name that picks them. */
const ALONE: Readonly<Record<string, string>> = {
  server: "./server.js",
  client: "./client.js",
  "stdio-start": "./stdio-start.js",
  dev: "./dev.js",
  "first-hour": "./first-hour.js",
  "generation-tools": "./generation-tools.js",
  python: "./python.js",
  "tool-diff-corpus": "./tool-diff-corpus.js",
  types: "./types.js",
  patterns: "./pattern-engines.js",
};

const name = process.argv[2];
const alone = name === undefined ? undefined : ALONE[name];
if (alone !== undefined) {
  // The benchmark reads its own options from the arguments that follow its name.
  process.argv.splice(2, 1);
  await import(alone);
} else {
  await import("./recorded.js");
}
