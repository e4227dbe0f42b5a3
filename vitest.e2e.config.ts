import { defineConfig } from "vitest/config";
import { shared } from "./vitest.config.js";

/** `npm run test:e2e`: the slow tests, against real installs and real peers (see vitest.config.ts). */
export default defineConfig({
  test: {
    ...shared,
    globalSetup: ["test/global-setup-e2e.ts"],
    include: ["test/**/*.e2e.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
