/**
 * Imported by main.ts before anything else, so that for `generate` the
 * helper thread (threads/helper-thread.ts) loads ts-morph on the second
 * core while the main thread is still loading yargs and the library.
 * Other commands never need the thread.
 */
import { startHelperThread } from "../threads/helper-thread.js";

if (process.argv.slice(2).includes("generate")) startHelperThread();
