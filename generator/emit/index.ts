/**
 * The emit stage: every emitter, in output order. Emitters are pure
 * functions from the model (and a banner) to file records.
 */
import type { CompiledCodeCache } from "../load/code-cache.js";
import type { McpModel } from "../model/types.js";
import { emitErrorCodes } from "./emit-error-codes.js";
import { emitIndex } from "./emit-index.js";
import { emitMessages } from "./emit-messages.js";
import { emitMethods } from "./emit-methods.js";
import { emitProtocol } from "./emit-protocol.js";
import { emitResultTypes } from "./emit-result-types.js";
import { emitStandardSchemas } from "./emit-standard-schemas.js";
import { emitStandardSchemaSupport, emitSupport } from "./emit-support.js";
import { emitTypes } from "./emit-types.js";
import { emitValidateApi } from "./emit-validate-api.js";
import { emitProblemValidators, emitValidators } from "./emit-validators.js";
import { banner, type BannerOptions, type EmittedFile } from "./file.js";
import {
  ERROR_CODES_FILE,
  MESSAGES_FILE,
  METHODS_FILE,
  PROTOCOL_FILE,
  RESULT_TYPES_FILE,
  STANDARD_SCHEMA_SUPPORT_FILE,
  STANDARD_SCHEMAS_FILE,
  SUPPORT_FILE,
  TYPES_FILE,
  VALIDATE_API_FILE,
} from "../model/output-names.js";

export type { BannerOptions, EmittedFile };

/** The modules the index re-exports, in order. */
const PUBLIC_MODULES = [
  TYPES_FILE,
  VALIDATE_API_FILE,
  STANDARD_SCHEMAS_FILE,
  MESSAGES_FILE,
  RESULT_TYPES_FILE,
  ERROR_CODES_FILE,
  METHODS_FILE,
  PROTOCOL_FILE,
];

/** Runs every emitter; validators are compiled through `cache` when one is given. */
export function emitFiles(
  model: McpModel,
  options: BannerOptions,
  cache?: CompiledCodeCache,
): EmittedFile[] {
  const top = banner(model, options);
  const validatorsBanner = banner(
    model,
    options,
    "ajv standalone code compiled from the schema; see validators.gen.ts for its typed API.",
  );
  const problemsBanner = banner(
    model,
    options,
    "ajv standalone code compiled from the schema, listing every problem (up to a limit); messages.gen.ts runs it on a rejected message.",
  );
  const supportBanner = banner(
    model,
    options,
    `Copied from mcp-gen's revision-independent support code; ${SUPPORT_FILE} is the same for every revision.`,
  );
  const standardSchemaBanner = banner(
    model,
    options,
    `Copied from mcp-gen's revision-independent support code; ${STANDARD_SCHEMA_SUPPORT_FILE} is the same for every revision.`,
  );
  return [
    emitTypes(model, top),
    emitValidateApi(model, top),
    emitStandardSchemas(model, top),
    emitMessages(model, top),
    emitResultTypes(model, top),
    emitErrorCodes(model, top),
    emitMethods(model, top),
    emitProtocol(model, top),
    emitSupport(supportBanner),
    emitStandardSchemaSupport(standardSchemaBanner),
    emitIndex(model, PUBLIC_MODULES, top),
    ...emitValidators(model, validatorsBanner, cache),
    ...emitProblemValidators(model, problemsBanner, cache),
  ];
}
