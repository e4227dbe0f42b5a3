/**
 * This project's test settings. Its own config file keeps vitest from
 * taking a parent folder's (a monorepo's root) when `npm test` runs here.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["test/**/*.test.ts"],
  },
});
