// tsc compiles generated/'s TypeScript into dist/ but leaves its JavaScript modules (the ajv validators,
// `*.gen.js` with a `*.gen.d.ts` beside each, which tsc reads instead): copy them beside what tsc wrote.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const from = join(root, "generated");
for (const entry of readdirSync(from, { recursive: true, encoding: "utf8" })) {
  if (!entry.endsWith(".gen.js") && !entry.endsWith(".gen.d.ts")) continue;
  const target = join(root, "dist", "generated", entry);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(from, entry), target);
}
console.error(
  `copied generated/'s JavaScript modules to ${relative(root, join(root, "dist", "generated"))}/`,
);
