/**
 * How a client finds out how to talk to a server (spec: versioning): the
 * `server/discover` probe in the modern revision, the retry with a version
 * the server lists after an UnsupportedProtocolVersionError, and the
 * legacy session (`initialize`) for a server that needs one. McpClient
 * gives it the one thing it cannot do itself, sending a request, as a
 * NegotiationPeer, and learns the era and version spoken through `speak`.
 */
import { ChannelError, type ClientChannel } from "../core/channel.js";
import { FIRST_MODERN, META, type Era } from "../core/era.js";
import { Codes, McpError, RemoteError } from "../core/errors.js";
import {
  isJsonObject,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import { errorOf, InvalidResponseError } from "./errors.js";
import { parseResponseOf, type ClientProtocol } from "./protocol.js";

/** Who the client is, as it tells every server. */
export interface ClientInfo {
  readonly name: string;
  readonly version: string;
  readonly [field: string]: unknown;
}

/** What the client learned about the server it talks to. */
export interface ServerDescription {
  readonly era: Era;
  /** The protocol version in use. */
  readonly protocolVersion: string;
  readonly serverInfo?: {
    readonly name: string;
    readonly version: string;
    readonly [field: string]: unknown;
  };
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
  /** The versions the server listed in server/discover (modern servers). */
  readonly supportedVersions?: readonly string[];
}

/** The era and version being spoken, and the module that checks them. */
export interface Speaking {
  readonly era: Era;
  readonly version: string;
  readonly module: ClientProtocol;
}

/** The client's options negotiation reads (see ClientOptions). */
export interface NegotiationSettings {
  /** The generated module of the modern revision the client speaks. */
  readonly protocol: ClientProtocol;
  /** The generated module of the legacy revision (2025-11-25), for servers that need `initialize`. */
  readonly legacy?: ClientProtocol;
  readonly info: ClientInfo;
  /**
   * The protocol version to speak: `"auto"` (default) probes the server and
   * falls back to a legacy session when it needs one; a modern version is
   * used as the first choice; a legacy version opens a session at once.
   */
  readonly protocolVersion?: string;
  /** On stdio, how long the `server/discover` probe waits before a silent server is taken for a legacy one (default 10 s). */
  readonly probeTimeoutMs?: number;
}

/** What negotiation needs of the client it negotiates for. */
export interface NegotiationPeer {
  readonly settings: NegotiationSettings;
  readonly channel: ClientChannel;
  /** The capabilities the client declares. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  nextId(): JsonRpcId;
  /** Sends one request in `speaking` and resolves with its response (the client's own exchange). */
  exchange(
    speaking: Speaking,
    id: JsonRpcId,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: { readonly timeoutMs?: number },
  ): Promise<JsonRpcMessage>;
  /** The checked result of a response; the server's error as a RemoteError. */
  resultOf(
    speaking: Speaking,
    method: string,
    params: Readonly<Record<string, unknown>>,
    response: JsonRpcMessage,
  ): Record<string, unknown>;
  /** From now on, requests are made in `speaking`. */
  speak(speaking: Speaking): void;
}

/** Version negotiation for one client. */
export class Negotiation {
  /** Whether a stdio server taken for a legacy one by its silence was probed again. */
  private probedAgain = false;

  constructor(private readonly peer: NegotiationPeer) {}

  /** Finds the era and version to speak (see the file's comment) and describes the server. */
  async negotiate(): Promise<ServerDescription> {
    const { protocol, legacy } = this.peer.settings;
    const preferred = this.peer.settings.protocolVersion ?? "auto";
    if (preferred !== "auto" && preferred < FIRST_MODERN) return this.initialize(preferred);
    let version = preferred === "auto" ? protocol.PROTOCOL_VERSION : preferred;
    if (
      !Object.hasOwn(protocol.METHODS, "server/discover") &&
      version === protocol.PROTOCOL_VERSION
    )
      return this.speakUnprobed(version);
    for (let attempt = 0; attempt < 3; attempt++) {
      const speaking: Speaking = { era: "modern", version, module: protocol };
      let response: JsonRpcMessage;
      try {
        response = await this.peer.exchange(
          speaking,
          this.peer.nextId(),
          "server/discover",
          {},
          // stdio has no status to tell a legacy server by: one that stays silent is legacy (spec: stdio).
          this.peer.channel.streamPerRequest
            ? {}
            : { timeoutMs: this.peer.settings.probeTimeoutMs ?? 10_000 },
        );
      } catch (error) {
        // No answer, or a reply that is no JSON-RPC: a legacy server, unless it refused our credentials.
        const refused =
          error instanceof ChannelError && (error.status === 401 || error.status === 403);
        if (!legacy || refused) throw error;
        const why = `server/discover failed (${(error as Error).message})`;
        return this.peer.channel.streamPerRequest
          ? this.initialize(legacy.PROTOCOL_VERSION, why)
          : this.initializeAfterSilence(legacy.PROTOCOL_VERSION, why);
      }
      const error = errorOf(response);
      if (error?.code === Codes.UnsupportedProtocolVersion) {
        const next = this.versionFrom(error.data);
        if (next === undefined) throw this.noCommonVersion(error);
        if (next.era === "legacy") return this.initialize(next.version);
        version = next.version;
        continue;
      }
      if (
        error?.code === Codes.HeaderMismatch ||
        error?.code === Codes.MissingRequiredClientCapability
      )
        throw new RemoteError(error);
      const parsed = error ? undefined : parseResponseOf(protocol, response, "server/discover");
      if (!parsed?.ok) {
        if (!legacy)
          throw error
            ? new RemoteError(error)
            : new InvalidResponseError(
                "server/discover",
                parsed!.ok ? { code: 0, message: "" } : parsed!.error,
              );
        return this.initialize(
          legacy.PROTOCOL_VERSION,
          error
            ? `server/discover failed with ${error.code} ${error.message}`
            : "server/discover gave no DiscoverResult",
        );
      }
      const result = (parsed.message as { result: Record<string, unknown> }).result;
      const supported = Array.isArray(result.supportedVersions)
        ? result.supportedVersions.filter((v): v is string => typeof v === "string")
        : [];
      if (!supported.includes(version)) {
        const next = this.versionFrom({ supported });
        if (next === undefined)
          throw new McpError(
            Codes.UnsupportedProtocolVersion,
            `the server supports ${supported.join(", ") || "no version"}; this client speaks ${this.spokenVersions().join(", ")}`,
          );
        if (next.era === "legacy") return this.initialize(next.version);
        version = next.version;
        continue;
      }
      this.peer.speak(speaking);
      return describeModern(version, result, supported);
    }
    throw new McpError(
      Codes.UnsupportedProtocolVersion,
      "the server kept refusing the protocol versions it listed as supported",
    );
  }

  /**
   * After an UnsupportedProtocolVersionError: speaks the version (and era)
   * the server lists and resolves with the server's description updated.
   */
  async renegotiate(error: RemoteError, current: ServerDescription): Promise<ServerDescription> {
    const next = this.versionFrom(error.data);
    if (next === undefined) throw this.noCommonVersion(error.toJSON());
    if (next.era === "legacy") return this.initialize(next.version);
    this.peer.speak({ era: "modern", version: next.version, module: this.peer.settings.protocol });
    return { ...current, protocolVersion: next.version };
  }

  /**
   * A revision without `server/discover` (a draft of the spec between two
   * revisions) cannot be probed: its own version is spoken as told, and
   * what the server offers is learnt from its answers.
   */
  private speakUnprobed(version: string): ServerDescription {
    this.peer.speak({ era: "modern", version, module: this.peer.settings.protocol });
    return { era: "modern", protocolVersion: version, capabilities: {} };
  }

  /**
   * On stdio, after the probe met silence: a modern server still starting
   * (a slow interpreter, a busy machine) is silent too, and answers the
   * probe late, then refuses `initialize` on a connection it now serves in
   * the modern era. So an `initialize` refused with a JSON-RPC error is
   * followed by one more probe before the error stands.
   */
  private async initializeAfterSilence(version: string, why: string): Promise<ServerDescription> {
    try {
      return await this.initialize(version, why);
    } catch (error) {
      if (!(error instanceof RemoteError) || this.probedAgain) throw error;
      this.probedAgain = true;
      return this.negotiate();
    }
  }

  /** Opens a legacy session: `initialize`, then `notifications/initialized`. */
  private async initialize(version: string, why?: string): Promise<ServerDescription> {
    const { legacy, info } = this.peer.settings;
    if (!legacy)
      throw new McpError(
        Codes.UnsupportedProtocolVersion,
        `the server needs a legacy session (${why ?? version}), and this client has no legacy protocol module`,
      );
    const speaking: Speaking = { era: "legacy", version, module: legacy };
    const response = await this.peer.exchange(
      speaking,
      this.peer.nextId(),
      "initialize",
      { protocolVersion: version, capabilities: this.peer.capabilities, clientInfo: info },
      {},
    );
    const result = this.peer.resultOf(speaking, "initialize", {}, response);
    const agreed = result.protocolVersion as string;
    if (!this.legacyVersions().includes(agreed))
      throw new McpError(
        Codes.UnsupportedProtocolVersion,
        `the server answered initialize with protocol version ${agreed}, which this client does not speak (${this.spokenVersions().join(", ")})${why ? `; before that, ${why}` : ""}`,
      );
    this.peer.speak({ ...speaking, version: agreed });
    await this.peer.channel.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await this.peer.channel.beginSession(agreed);
    return {
      era: "legacy",
      protocolVersion: agreed,
      ...(isJsonObject(result.serverInfo)
        ? { serverInfo: result.serverInfo as ServerDescription["serverInfo"] }
        : {}),
      capabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
      ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
    };
  }

  /** A version of `data.supported` (an UnsupportedProtocolVersionError's) this client speaks, newest first. */
  private versionFrom(data: unknown): { era: Era; version: string } | undefined {
    const listed = isJsonObject(data) && Array.isArray(data.supported) ? data.supported : [];
    const modern = this.peer.settings.protocol.PROTOCOL_VERSION;
    if (listed.includes(modern)) return { era: "modern", version: modern };
    const legacy = this.legacyVersions().find((v) => listed.includes(v));
    return legacy === undefined ? undefined : { era: "legacy", version: legacy };
  }

  /** The legacy versions this client speaks (those of its legacy module's revision and earlier), newest first. */
  private legacyVersions(): string[] {
    const legacy = this.peer.settings.legacy;
    if (!legacy) return [];
    const known = legacy.KNOWN_REVISIONS ?? [legacy.PROTOCOL_VERSION];
    return known.filter((v) => v <= legacy.PROTOCOL_VERSION && v < FIRST_MODERN).reverse();
  }

  private spokenVersions(): string[] {
    return [this.peer.settings.protocol.PROTOCOL_VERSION, ...this.legacyVersions()];
  }

  private noCommonVersion(error: JsonRpcErrorObject): McpError {
    const listed = (error.data as { supported?: unknown } | undefined)?.supported;
    return new McpError(
      Codes.UnsupportedProtocolVersion,
      `the server supports ${Array.isArray(listed) ? listed.join(", ") : "no version it named"}; this client speaks ${this.spokenVersions().join(", ")}`,
      error.data,
    );
  }
}

/** A modern server as its DiscoverResult describes it (serverInfo from `_meta`, else the result). */
function describeModern(
  version: string,
  result: Record<string, unknown>,
  supported: readonly string[],
): ServerDescription {
  const meta = isJsonObject(result._meta) ? result._meta : {};
  const info = meta[META.serverInfo] ?? result.serverInfo;
  return {
    era: "modern",
    protocolVersion: version,
    ...(isJsonObject(info) ? { serverInfo: info as ServerDescription["serverInfo"] } : {}),
    capabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
    ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
    supportedVersions: supported,
  };
}
