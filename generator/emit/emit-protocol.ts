/**
 * emitProtocol: the revision's identity (PROTOCOL_VERSION, JSONRPC_VERSION),
 * the extensions merged into it (EXTENSIONS) and the `_meta` key rules.
 */
import type { McpModel, MergedExtension } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import {
  arrayLiteral,
  printCode,
  stringLiteral as literal,
  tableLiteral,
  type TableValue,
} from "./ts-print.js";
import { jsDoc } from "./names.js";
import { PROTOCOL_FILE, SUPPORT_MODULE } from "../model/output-names.js";

/** Emits `protocol.gen.ts`. */
export function emitProtocol(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(PROTOCOL_FILE);
  file.add(
    `${jsDoc("The protocol version of this revision (LATEST_PROTOCOL_VERSION in its schema.ts).")}export const PROTOCOL_VERSION = ${literal(model.protocolVersion)};`,
  );
  file.add(
    `${jsDoc("The JSON-RPC version every message carries.")}export const JSONRPC_VERSION = ${literal(model.jsonrpcVersion)};`,
  );
  file.add(
    `${jsDoc("Every MCP revision mcp-gen knows, oldest first.")}${printCode([
      "export const KNOWN_REVISIONS = ",
      arrayLiteral(model.revisions.map((r) => literal(r.revision))),
      " as const;",
    ])}`,
  );
  file.add(
    `${jsDoc("The extensions merged into this module, by identifier: their methods and who sends them, the resultType values they add, and the definition of their settings under `capabilities.extensions[id]`.")}export const EXTENSIONS = ${extensionsTable(model.extensions)} as const;`,
  );
  file.add(
    `${jsDoc("The identifier of a merged extension.")}export type ExtensionId = keyof typeof EXTENSIONS;`,
  );
  // Only a model with messages on other channels gets the table: plain revisions' output is unchanged.
  if (model.channelMessages.length > 0)
    file.add(
      `${jsDoc("Messages of merged extensions that travel on other channels than the MCP connection (MCP Apps' ui/* over postMessage), by channel then method: their definitions are typed and validated like any other (validators.gen.ts), but they are no MCP methods, and METHODS, NOTIFICATIONS and the runtime never name them. client-to-server means from the side that plays the client on that channel.")}export const CHANNEL_MESSAGES = ${channelMessagesTable(model)} as const;`,
    );
  file.add(
    `${jsDoc("`_meta` key rules (see MetaObject).")}export { isReservedMetaKey, isValidMetaKey } from "${SUPPORT_MODULE}";`,
  );
  return file.build(bannerText);
}

/** `{ "<channel>": { description, messages: { "<method>": { message, direction, definition, result? } } } }`. */
function channelMessagesTable(model: McpModel): string {
  const channels = [...new Set(model.channelMessages.map((m) => m.channel))];
  return printCode(
    tableLiteral(
      channels.map((channel) => {
        const description = model.channels.find((c) => c.name === channel)?.description ?? "";
        const messages = model.channelMessages.filter((m) => m.channel === channel);
        const entry = (m: McpModel["channelMessages"][number]): TableValue => ({
          object: [
            ["message", literal(m.message)],
            ["direction", literal(m.direction)],
            ["definition", literal(m.definition)],
            ...(m.result ? [["result", literal(m.result)] as const] : []),
            ["extension", literal(m.extension)],
          ],
        });
        return [
          literal(channel),
          {
            object: [
              ["description", literal(description)],
              ["messages", { object: messages.map((m) => [literal(m.method), entry(m)] as const) }],
            ],
          },
        ] as const;
      }),
    ),
  );
}

/** A manifest's negotiation rule as a table: message → conditions, each `{ declares, setting?, equals? }`. */
function negotiationTable(rule: NonNullable<MergedExtension["negotiation"]>): TableValue {
  return {
    object: Object.keys(rule)
      .sort()
      .map(
        (key) =>
          [
            literal(key),
            {
              array: rule[key]!.map((c): TableValue => ({
                object: [
                  ["declares", literal(c.declares)],
                  ...(c.setting !== undefined ? [["setting", literal(c.setting)] as const] : []),
                  ...(c.setting !== undefined
                    ? [["equals", JSON.stringify(c.equals ?? true)] as const]
                    : []),
                ],
              })),
            },
          ] as const,
      ),
  };
}

/** `{ "<id>": { id, name, requests, notifications, resultTypes, capability, names, undeclared, negotiation } }` as an object literal. */
function extensionsTable(extensions: readonly MergedExtension[]): string {
  const byMethod = (items: MergedExtension["requests"]): TableValue => ({
    object: items.map((i) => [literal(i.method), literal(i.direction)] as const),
  });
  const strings = (values: readonly string[]): TableValue => ({ array: values.map(literal) });
  return printCode(
    tableLiteral(
      extensions.map((e) => {
        const fields: Array<readonly [string, TableValue]> = [
          ["id", literal(e.id)],
          ["name", literal(e.name)],
          ["requests", byMethod(e.requests)],
          ["notifications", byMethod(e.notifications)],
          ["resultTypes", strings(e.resultTypes)],
        ];
        if (e.capability)
          fields.push([
            "capability",
            {
              object: [
                ...(e.capability.definition
                  ? [["definition", literal(e.capability.definition)] as const]
                  : []),
                ["sides", strings(e.capability.sides)],
              ],
            },
          ]);
        if (e.names)
          fields.push([
            "names",
            { object: e.names.map((n) => [literal(n.method), literal(n.param)] as const) },
          ]);
        if (e.undeclared) fields.push(["undeclared", literal(e.undeclared)]);
        if (e.negotiation) fields.push(["negotiation", negotiationTable(e.negotiation)]);
        return [literal(e.id), { object: fields }] as const;
      }),
    ),
  );
}
