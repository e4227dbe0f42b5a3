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
const check =
  (validate: Parameters<typeof runValidator>[0]): SchemaCheck =>
  (value) =>
    runValidator(validate, value);
