/**
 * The merge's step that keeps an extension's messages on other channels
 * off the MCP connection. A manifest places a message on a channel (its
 * own `channel`, else the manifest's); one on any channel but the MCP
 * connection leaves `requests` and `notifications` for `channelMessages`,
 * so method tables, dispatch, client wrappers and diff, which are all
 * built from the former, never see it, while its definitions keep their
 * types and validators.
 *
 *   before: requests: [..., ui/initialize (McpUiInitializeRequest)]
 *   after:  requests: [...]; channelMessages: [ui/initialize on postMessage]
 */
import { diagnostic, type Diagnostic } from "../../diagnostics.js";
import type { ExtensionManifest, ExtensionSource } from "../../load/types.js";
import type {
  ChannelMessageNode,
  ChannelNode,
  Declaration,
  McpModel,
  NotificationNode,
  RequestNode,
} from "../types.js";

/** The MCP connection's name where a manifest names channels. */
export const MCP_CHANNEL = "mcp";

/** The channel a message of the manifest travels on; {@link MCP_CHANNEL} for the MCP connection. */
export function channelOf(
  manifest: ExtensionManifest,
  method: string,
  message: "request" | "notification",
): string {
  const own =
    message === "request"
      ? manifest.requests?.[method]?.channel
      : manifest.notifications?.[method]?.channel;
  return own ?? manifest.channel ?? MCP_CHANNEL;
}

/** An extension's messages, split: those on the MCP connection, and those on other channels. */
export interface SplitMessages {
  readonly requests: RequestNode[];
  readonly notifications: NotificationNode[];
  readonly channelMessages: ChannelMessageNode[];
}

/** Splits an extension's messages by channel (see the file's comment). */
export function splitByChannel(
  ext: ExtensionSource,
  methods: { requests: readonly RequestNode[]; notifications: readonly NotificationNode[] },
  byName: ReadonlyMap<string, Declaration>,
): SplitMessages {
  const manifest = ext.manifest;
  const onMcp = (m: { method: string }, kind: "request" | "notification") =>
    channelOf(manifest, m.method, kind) === MCP_CHANNEL;
  const off = (m: RequestNode | NotificationNode, kind: "request" | "notification") => {
    const result = kind === "request" ? channelResult(manifest, m, byName) : undefined;
    return {
      kind: "channel-message" as const,
      channel: channelOf(manifest, m.method, kind),
      method: m.method,
      message: kind,
      direction: m.direction,
      definition: m.definition,
      ...(m.paramsDefinition ? { paramsDefinition: m.paramsDefinition } : {}),
      ...(result ? { result } : {}),
      extension: manifest.id,
      origin: m.origin,
    };
  };
  return {
    requests: methods.requests.filter((r) => onMcp(r, "request")),
    notifications: methods.notifications.filter((n) => onMcp(n, "notification")),
    channelMessages: [
      ...methods.requests.filter((r) => !onMcp(r, "request")).map((r) => off(r, "request")),
      ...methods.notifications
        .filter((n) => !onMcp(n, "notification"))
        .map((n) => off(n, "notification")),
    ].sort(byChannelThenMethod),
  };
}

/**
 * A request's result on another channel: the manifest's, else
 * `<Name>Result` when the extension defines it. Never the core `Result`,
 * which is the MCP connection's (2026-07-28 requires its `resultType`).
 */
function channelResult(
  manifest: ExtensionManifest,
  request: { method: string; definition: string },
  byName: ReadonlyMap<string, Declaration>,
): string | undefined {
  const named = manifest.requests?.[request.method]?.result;
  if (named) return named;
  const guessed = `${request.definition.replace(/Request$/, "")}Result`;
  return byName.has(guessed) ? guessed : undefined;
}

/** The channels the manifest declares. */
export function channelsOf(ext: ExtensionSource): ChannelNode[] {
  return Object.entries(ext.manifest.channels ?? {}).map(([name, c]) => ({
    kind: "channel",
    name,
    description: c.description,
    extension: ext.manifest.id,
  }));
}

/** A message already on the same channel (from the revision or an earlier extension) is a collision (MCPG609). */
export function checkChannelCollisions(
  model: McpModel,
  messages: readonly ChannelMessageNode[],
  problems: Diagnostic[],
): void {
  for (const m of messages) {
    const taken = model.channelMessages.find(
      (t) => t.channel === m.channel && t.method === m.method,
    );
    if (taken)
      problems.push(
        diagnostic(
          "MCPG609",
          { method: m.method, owner: `extension ${taken.extension}` },
          m.origin,
        ),
      );
  }
}

function byChannelThenMethod(a: ChannelMessageNode, b: ChannelMessageNode): number {
  const key = (m: ChannelMessageNode) => `${m.channel}\0${m.method}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
