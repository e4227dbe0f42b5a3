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
/** The compiled validators of one validator module, by export name. */
type Validators = Readonly<Record<string, Parameters<typeof runValidator>[0]>>;

/**
 * A validator module, imported the first time one of its checks runs: the
 * validators of a thousand tools are megabytes of code, which a server
 * need not load to start and list its tools. A module that cannot be
 * loaded fails every check that needs it, naming the file.
 */
function lazyModule<M extends Validators>(
  load: () => Promise<M>,
  file: string,
): () => M | Promise<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return () =>
    loaded ??
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        throw new Error(
          `cannot load the tool validators of ${file} (a project built with tsc copies them next to its JavaScript: scripts/copy-generated.mjs, run by npm run build): ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    ));
}

/** The check of validator `name` of a lazily loaded module: through a promise until the module is loaded, at once after. */
const check =
  <M extends Validators>(module: () => M | Promise<M>, name: keyof M & string): SchemaCheck =>
  (value) => {
    const validators = module();
    return validators instanceof Promise
      ? validators.then((loaded) => runValidator(loaded[name]!, value))
      : runValidator(validators[name]!, value);
  };
