/**
 * The limits of mcp-gen's runtime against one hostile peer, measured, from
 * one entry. Each prints what it measured and exits 0 when every case ends
 * within its limit, 1 otherwise.
 *
 *   npm run limits:client            the client's HTTP transport against a hostile server (client.ts)
 *   npm run limits:server [OPTIONS]  a scaffolded server against one hostile client's loads (server.ts)
 */

/** The runs, by the name that picks them. */
const RUNS: Readonly<Record<string, string>> = {
  client: "./client.js",
  server: "./server.js",
};

const name = process.argv[2] ?? "";
const run = RUNS[name];
if (run === undefined) {
  console.error(`npm run limits -- <${Object.keys(RUNS).join("|")}> [OPTIONS]`);
  process.exit(2);
}
// The run reads its own options from the arguments that follow its name.
process.argv.splice(2, 1);
await import(run);
