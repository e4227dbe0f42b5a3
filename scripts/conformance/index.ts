/**
 * The official MCP conformance suite against mcp-gen, from one entry:
 *
 *   npm run conformance [-- OPTIONS]           the everything server and client, scaffolded,
 *                                              installed and scored for both requirement sets
 *                                              (everything.ts)
 *   npm run conformance:suite -- OPTIONS       one server or client scored against one
 *                                              requirement set (score.ts, `suite` here)
 */
if (process.argv[2] === "suite") {
  process.argv.splice(2, 1);
  const { cli } = await import("./score.js");
  process.exitCode = await cli();
} else {
  await import("./everything.js");
}
