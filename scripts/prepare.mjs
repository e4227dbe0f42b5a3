// npm runs `prepare` in a checkout (npm ci, npm pack, a git dependency) and also in an installed
// mcp-gen that a project depends on as a folder (file:<global install>, which npm links and
// prepares). Only a checkout has the sources to build; an installed copy already holds dist/.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (existsSync(new URL("../tsconfig.build.json", import.meta.url)))
  execSync("npm run build", { cwd: root, stdio: "inherit" });
