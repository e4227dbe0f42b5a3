/**
 * Rules the generator shares with the runtime (templates/runtime/core/),
 * taken from it rather than written twice. This folder is the generator's
 * one door into the runtime, which a scaffold otherwise copies as files;
 * each module of it loads only what its users need, so a command that
 * checks a tools file does not load the runtime's client and server.
 * `headerParametersOf`: tools.json's header parameters follow the rule the
 * runtime applies to requests (check/check-tools.ts, tool-rules.ts);
 * `clientDeclares`, `serverDeclares`: which side of a project declares an
 * extension, by the negotiation rule both sides follow (project/). The
 * revisions the runtime knows are revisions.ts's.
 * test/import-cycles.test.ts fails on an import of the runtime from
 * anywhere else in generator/.
 */
export { headerParametersOf } from "../../templates/runtime/core/headers.js";
export {
  clientDeclares,
  RESULT_RULE,
  serverDeclares,
} from "../../templates/runtime/core/extensions.js";
export type { ExtensionEntry } from "../../templates/runtime/core/protocol.js";
