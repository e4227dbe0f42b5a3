/**
 * Where the legacy sessions (2025-11-25 and earlier, `Mcp-Session-Id`) of
 * a server live when several instances share them: any instance serves a
 * session opened on another, and what one instance must tell the others
 * about a session (its state changed, it ended, the client answered a
 * request another instance sent) travels as an event. The store knows
 * nothing of the protocol; shared-sessions.ts uses it.
 */
import { isJsonObject, type JsonRpcMessage } from "../core/jsonrpc.js";
import { LOG_LEVELS, type LogLevel } from "./context.js";

/** What a session keeps between requests: all that lets another instance serve it. */
export interface SessionRecord {
  /** The version `initialize` negotiated. */
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** `logging/setLevel`. */
  readonly logLevel?: LogLevel;
  /** `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** Whom the session belongs to (the subject of the token that opened it), when authorization is on. */
  readonly owner?: string;
}

/** What one instance tells the others about a session. */
export type SessionEvent =
  | { readonly kind: "state"; readonly id: string; readonly record: SessionRecord }
  | { readonly kind: "ended"; readonly id: string }
  /** The client's answer to a request an instance sent, POSTed to another instance. */
  | { readonly kind: "answer"; readonly id: string; readonly message: JsonRpcMessage };

/** Sessions shared by the instances of a server. Every call has a deadline. */
export interface SessionStore {
  /** Keeps a session's record for `ttlMs` from now and tells every instance (a `state` event). */
  save(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /** The session's record, or undefined when there is none (never opened, ended, expired). */
  load(id: string): Promise<SessionRecord | undefined>;
  /** Keeps the session `ttlMs` longer from now (it was used). */
  touch(id: string, ttlMs: number): Promise<void>;
  /** Deletes the session and tells every instance (an `ended` event); false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Tells every instance (the `answer` events). */
  send(event: SessionEvent): Promise<void>;
  /** Calls `listener` with every event, from whichever instance; the function returned stops. */
  watch(listener: (event: SessionEvent) => void): () => void;
  /** Resolves once events from other instances arrive here. */
  watching(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What is wrong with a session record read back from a shared store (a
 * store is another process's word: it may hold anything), or undefined
 * for a well-formed one.
 */
export function sessionRecordProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return "it is not a JSON object";
  if (typeof value.protocolVersion !== "string") return "protocolVersion is not a string";
  if (!isJsonObject(value.clientCapabilities)) return "clientCapabilities is not an object";
  const info = value.clientInfo;
  if (
    info !== undefined &&
    !(isJsonObject(info) && typeof info.name === "string" && typeof info.version === "string")
  )
    return "clientInfo is not an object with a name and a version";
  if (value.logLevel !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(value.logLevel))
    return "logLevel is not a log level";
  if (!Array.isArray(value.subscriptions) || value.subscriptions.some((u) => typeof u !== "string"))
    return "subscriptions is not a list of strings";
  if (value.owner !== undefined && typeof value.owner !== "string") return "owner is not a string";
  return undefined;
}

/** What is wrong with a session event heard from another instance, or undefined for a well-formed one. */
export function sessionEventProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return "it is not a JSON object";
  if (typeof value.id !== "string") return "id is not a string";
  switch (value.kind) {
    case "ended":
      return undefined;
    case "state": {
      const problem = sessionRecordProblem(value.record);
      return problem && `its record: ${problem}`;
    }
    case "answer":
      return isJsonObject(value.message) ? undefined : "message is not a JSON object";
    default:
      return "kind is not state, ended or answer";
  }
}
