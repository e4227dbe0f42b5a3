import { defineConfig } from "vitest/config";

/**
 * `npm test`: the fast suite. Tests that install from the npm registry,
 * start real peers (the official SDKs, reference servers, an authorization
 * server's sign-in walk, other runtimes) or run for minutes are named
 * `*.e2e.test.ts` and run with `npm run test:e2e` (vitest.e2e.config.ts).
 */
export const shared = {
  setupFiles: ["test/setup.ts"],
  // Generous: the suites run on shared two-core machines, where a scaffold or a compile
  // that takes seconds when idle can take minutes.
  testTimeout: 180_000,
  hookTimeout: 240_000,
  pool: "forks" as const,
};

export default defineConfig({
  test: {
    ...shared,
    // dist/ transpiled only (the types are lint's to check); the slow suite builds it as npm run build does.
    globalSetup: ["test/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.e2e.test.ts", "**/node_modules/**"],
    // vitest's default on 2 cores is one worker; most files here wait on child processes,
    // servers and the compiler's I/O as much as they compute, so three overlap that wait.
    maxWorkers: 3,
    // A worker runs its files one after another in one module graph: the generator, ajv and
    // TypeScript load once per worker instead of once per file. Each file still gets its own
    // temporary folder and cache (test/setup.ts runs before every file), and no test mocks modules.
    isolate: false,
  },
});
