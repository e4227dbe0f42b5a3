/**
 * emitProtocol: the revision's identity (PROTOCOL_VERSION, JSONRPC_VERSION)
 * and the `_meta` key rules.
 */
import type { McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { jsDoc, literal, stringArray } from "./names.js";
import { PROTOCOL_FILE, SUPPORT_MODULE } from "./paths.js";


/** Emits `protocol.gen.ts`. */
export function emitProtocol(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(PROTOCOL_FILE);
  file.add(`${jsDoc("The protocol version of this revision (LATEST_PROTOCOL_VERSION in its schema.ts).")}export const PROTOCOL_VERSION = ${literal(model.protocolVersion)};`);
  file.add(`${jsDoc("The JSON-RPC version every message carries.")}export const JSONRPC_VERSION = ${literal(model.jsonrpcVersion)};`);
  file.add(`${jsDoc("Every MCP revision mcp-gen knows, oldest first.")}export const KNOWN_REVISIONS = ${stringArray(model.revisions.map((r) => r.revision))} as const;`);
  file.add(`${jsDoc("`_meta` key rules (see MetaObject).")}export { isReservedMetaKey, isValidMetaKey } from "${SUPPORT_MODULE}";`);
  return file.build(bannerText);
}
