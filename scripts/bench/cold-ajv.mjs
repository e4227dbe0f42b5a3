// Child of benchmark 3 (B): a fresh node process loads ajv, reads the
// validator schemas of every definition, adds and compiles all of them at
// run time, and calls one validator. Prints one JSON line.
// The options and keywords come from mcp-gen's own ajv set-up module
// (dist/generator/emit/ajv-setup.js), so they are the generator's.
// argv: <ajv-setup.js URL> <schemas.json> <example.json> <definition name>
// schemas.json: { "ajv2020": boolean, "schemas": [{ "$id": name, ... }] }
import { readFileSync } from "node:fs";

const [setupUrl, schemasPath, examplePath, definition] = process.argv.slice(2);
const value = JSON.parse(readFileSync(examplePath, "utf8"));

const t0 = process.hrtime.bigint();
const input = JSON.parse(readFileSync(schemasPath, "utf8"));
const AjvClass = input.ajv2020
  ? (await import("ajv/dist/2020.js")).Ajv2020
  : (await import("ajv")).Ajv;
const { AJV_OPTIONS, addMcpKeywords } = await import(setupUrl);
const t1 = process.hrtime.bigint();
const ajv = addMcpKeywords(new AjvClass({ ...AJV_OPTIONS }));
for (const schema of input.schemas) ajv.addSchema(schema);
for (const schema of input.schemas) {
  if (typeof ajv.getSchema(schema.$id) !== "function")
    throw new Error(`cannot compile ${schema.$id}`);
}
const t2 = process.hrtime.bigint();
const ok = ajv.getSchema(definition)(value);
const t3 = process.hrtime.bigint();

process.stdout.write(
  JSON.stringify({
    ok,
    loadNs: Number(t1 - t0),
    compileNs: Number(t2 - t1),
    callNs: Number(t3 - t2),
    totalNs: Number(t3 - t0),
    compiled: input.schemas.length,
  }) + "\n",
);
