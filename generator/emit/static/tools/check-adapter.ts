/**
 * The fixed code of a tools module (tools.gen.ts, server or client) that
 * wraps each compiled validator as a SchemaCheck. mcp-gen copies what
 * follows the marker line as it is written (emit-tools.ts); what comes
 * before stands in for the module's imports, so the code is type-checked
 * with mcp-gen's own.
 */
import type { SchemaCheck } from "../../../../templates/runtime/index.js";
/* eslint-disable @typescript-eslint/no-unused-vars -- the code after check uses it, in tools.gen.ts */
import { runValidator } from "../../../../generated/2026-07-28+tasks/support.gen.js";

// mcp-gen copies this file from here on.
// The types are written out, not named: every name declared here is one no tool may take.

/**
 * A validator module, imported the first time one of its checks runs: the
 * validators of a thousand tools are megabytes of code, which a server
 * need not load to start and list its tools. A module that cannot be
 * loaded, or was written by another generation than this file, fails the
 * checks that need it with an error naming the file. The next check tries
 * again: a missing file copied in place is then found. Validators are
 * named by their place (`tool3_input`), so a module of another generation
 * would check a tool against another tool's schema: each module exports
 * the stamp of the generation that wrote it, compared here.
 */
function lazyModule<M extends { readonly GENERATION: string }>(
  load: () => Promise<M>,
  file: string,
  generation: string,
): () => M | Promise<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const start = () =>
    load().then(
      (module) => {
        if (module.GENERATION !== generation)
          throw new Error(
            `${file} was written by another generation than tools.gen.js (its stamp ${String(module.GENERATION)}, this one ${generation}): the output folder holds validators of other tools. Build again (npm run build copies them after tsc), and restart a process whose files were rebuilt while it ran`,
          );
        return (loaded = module);
      },
      (error: unknown) => {
        throw new Error(
          `cannot load the tool validators of ${file} (a project built with tsc copies them next to its JavaScript: scripts/copy-generated.mjs, run by npm run build after tsc): ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  return () =>
    loaded ??
    (loading ??= start().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** The check of validator `name` of a lazily loaded module: through a promise until the module is loaded, at once after. */
const check =
  <M extends { readonly GENERATION: string }>(
    module: () => M | Promise<M>,
    name: keyof M & string,
  ): SchemaCheck =>
  (value) => {
    const validators = module();
    return validators instanceof Promise
      ? validators.then((loaded) => runValidator(loaded[name] as Parameters<typeof runValidator>[0], value))
      : runValidator(validators[name] as Parameters<typeof runValidator>[0], value);
  };
