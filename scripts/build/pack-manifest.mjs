// Around `npm pack` (prepack / postpack): the package npm packs declares no install script, so installing
// it runs nothing of mcp-gen's and npm 11 has nothing to warn about. `prepare` builds dist/ in a clone
// (npm ci) and in a git dependency; an installed package already holds dist/. `strip` keeps the
// package.json as written beside it and removes `prepare`; `restore` puts the kept file back as it was.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const manifest = new URL("../../package.json", import.meta.url);
const kept = new URL("../../.package.json.packing", import.meta.url);

if (process.argv[2] === "strip") {
  const text = readFileSync(manifest, "utf8");
  writeFileSync(kept, text);
  const json = JSON.parse(text);
  delete json.scripts.prepare;
  // Through a rename: whatever reads package.json meanwhile reads a whole file.
  const stripped = new URL("../../.package.json.stripped", import.meta.url);
  writeFileSync(stripped, `${JSON.stringify(json, null, 2)}\n`);
  renameSync(stripped, manifest);
} else if (process.argv[2] === "restore") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/build/pack-manifest.mjs strip|restore");
  process.exit(2);
}
