// npm sets the bin's mode on install; a plain `tsc` build in a clone does not, so do it here.
import { chmodSync } from "node:fs";
chmodSync(new URL("../../dist/generator/cli/main.js", import.meta.url), 0o755);
