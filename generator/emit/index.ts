/**
 * The emit stage: every emitter, in output order. Emitters are pure
 * functions from the model (and a banner) to file records.
 */
import type { McpModel } from "../model/types.js";
import { emitErrorCodes } from "./emit-error-codes.js";
import { emitIndex } from "./emit-index.js";
import { emitMessages } from "./emit-messages.js";
import { emitMethods } from "./emit-methods.js";
import { emitProtocol } from "./emit-protocol.js";
import { emitResultTypes } from "./emit-result-types.js";
import { emitSupport } from "./emit-support.js";
import { emitTypes } from "./emit-types.js";
import { emitValidateApi } from "./emit-validate-api.js";
import { emitValidators, type CompiledFor } from "./emit-validators.js";
import { banner, type BannerOptions, type EmittedFile } from "./file.js";
import { preformatted } from "../format/format.js";
import {
  ERROR_CODES_FILE,
  MESSAGES_FILE,
  METHODS_FILE,
  PROTOCOL_FILE,
  RESULT_TYPES_FILE,
  SUPPORT_FILE,
  TYPES_FILE,
  VALIDATE_API_FILE,
} from "./paths.js";

export type { BannerOptions, EmittedFile };

/** The modules the index re-exports, in order. */
const PUBLIC_MODULES = [
  TYPES_FILE,
  VALIDATE_API_FILE,
  MESSAGES_FILE,
  RESULT_TYPES_FILE,
  ERROR_CODES_FILE,
  METHODS_FILE,
  PROTOCOL_FILE,
];

/**
 * Runs every emitter. `precompiled` holds validators compiled before the
 * model was complete (see generate()); without it, or when it does not
 * match the model, the compiled validators come from the helper thread
 * (when there is one) and are still in the making when this returns.
 */
export function emitFiles(
  model: McpModel,
  options: BannerOptions,
  precompiled?: CompiledFor,
): Array<EmittedFile | Promise<EmittedFile>> {
  const top = banner(model, options);
  // Started first: when ajv has to compile, it does so on the helper thread (when there is one) while the other emitters run here.
  const validators = emitValidators(
    model,
    banner(
      model,
      options,
      "ajv standalone code compiled from the schema; see validators.gen.ts for its typed API.",
    ),
    precompiled,
  );
  // The format stage awaits it; this only keeps a failure from going unobserved when another emitter throws first.
  validators.catch(() => undefined);
  return [
    preformatted(emitTypes(model, top)),
    preformatted(emitValidateApi(model, top)),
    preformatted(emitMessages(model, top)),
    preformatted(emitResultTypes(model, top)),
    preformatted(emitErrorCodes(model, top)),
    preformatted(emitMethods(model, top)),
    preformatted(emitProtocol(model, top)),
    preformatted(
      emitSupport(
        banner(
          model,
          options,
          `Copied from mcp-gen's revision-independent support code; ${SUPPORT_FILE} is the same for every revision.`,
        ),
      ),
    ),
    preformatted(emitIndex(model, PUBLIC_MODULES, top)),
    validators.then(preformatted),
  ];
}
