/**
 * Imported by main.ts before anything else, so that for `generate` the
 * helper thread (threads/helper-thread.ts) loads ts-morph and ajv on the
 * second core while the main thread is still loading yargs, prettier and
 * json-schema-to-typescript. Other commands never need the thread.
 */
import { startHelperThread } from "../threads/helper-thread.js";

if (process.argv.slice(2).includes("generate")) startHelperThread();
