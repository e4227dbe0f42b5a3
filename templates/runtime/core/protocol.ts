/**
 * What the runtime needs of a generated protocol module
 * (`generated/<revision>/index.ts`). The runtime is revision-independent:
 * a server is given the module of the revision it serves (and, for older
 * clients, the module of the legacy revision) and dispatches through its
 * tables and validators; a client checks what it receives the same way.
 */
import type { JsonRpcErrorObject } from "./jsonrpc.js";

/** The outcome of `parseMessage` / `parseResponse` in a generated module. */
export type ParseOutcome =
  | { readonly ok: true; readonly message: unknown }
  | { readonly ok: false; readonly error: JsonRpcErrorObject; readonly id: string | number | null };

/** The outcome of `validate` in a generated module. */
export type ValidationOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly errors: ReadonlyArray<{ readonly path: string; readonly message: string }>;
    };

/** What a METHODS entry records. */
export interface MethodEntry {
  readonly direction: string;
  readonly request: string;
  readonly results: { readonly [resultType: string]: string };
  readonly mrtr: boolean;
}

/** What an EXTENSIONS entry records: the methods and resultTypes an extension adds. */
export interface ExtensionEntry {
  readonly id: string;
  readonly requests?: { readonly [method: string]: string };
  readonly notifications?: { readonly [method: string]: string };
  readonly resultTypes?: readonly string[];
  /** The params member each of its requests mirrors into the Mcp-Name header, by method (Tasks: taskId). */
  readonly names?: { readonly [method: string]: string };
  /** What a server does for a client that did not declare the extension (absent: "refuse"). */
  readonly undeclared?: string;
  /** The settings it types, and for which sides. */
  readonly capability?: { readonly sides?: readonly string[] };
  /**
   * Which side must declare the extension before each of its messages may
   * be sent, by method, and "@result" for its resultTypes (absent, or a
   * message not listed: the client's declaration).
   */
  readonly negotiation?: { readonly [message: string]: readonly NegotiationCondition[] };
}

/** One condition of an extension's negotiation rule (see core/extensions.ts). */
export interface NegotiationCondition {
  /** The side whose capabilities must declare the extension. */
  readonly declares: string;
  /** A member of its settings under `capabilities.extensions[id]` that must equal `equals`. */
  readonly setting?: string;
  readonly equals?: unknown;
}

/** The generated module of one revision, as the runtime uses it. */
export interface ProtocolModule {
  readonly PROTOCOL_VERSION: string;
  readonly METHODS: { readonly [method: string]: MethodEntry };
  readonly NOTIFICATIONS: {
    readonly [method: string]: { readonly direction: string; readonly notification?: string };
  };
  /** The resultType of the revision's MRTR result, when the revision has one (2026-07-28: "input_required"). */
  readonly MRTR_RESULT_TYPE?: string;
  /** The extensions merged into the module, by identifier (absent or empty for a plain revision). */
  readonly EXTENSIONS?: { readonly [id: string]: ExtensionEntry };
  /**
   * Every error code of the revision and its merged extensions (absent in
   * modules generated before the table): which a server may send.
   */
  readonly ERROR_CODES?: {
    readonly [code: number]: { readonly name: string; readonly receiveOnly: boolean };
  };
  parseMessage(input: unknown): ParseOutcome;
  validate(name: never, value: unknown): ValidationOutcome;
}

/**
 * The resultType literal that marks an MRTR result in the module's revision:
 * drafts of the spec named it differently ("incomplete"), so it is read from
 * the generated module; a module from before the constant existed speaks
 * 2026-07-28's.
 */
export function mrtrResultType(protocol: Pick<ProtocolModule, "MRTR_RESULT_TYPE">): string {
  return protocol.MRTR_RESULT_TYPE ?? "input_required";
}

/** `validate` with a plain string name (the runtime names definitions from the tables). */
export function validateDefinition(
  protocol: ProtocolModule,
  name: string,
  value: unknown,
): ValidationOutcome {
  return (protocol.validate as (name: string, value: unknown) => ValidationOutcome)(name, value);
}

/** Which side receives a request. */
export type Receiver = "server" | "client";

/**
 * The METHODS entry of a request `receiver` may be sent, or undefined for
 * a method the revision does not define or defines for the other side.
 */
export function requestEntry(
  protocol: ProtocolModule,
  method: string,
  receiver: Receiver,
): MethodEntry | undefined {
  // A method name off the wire must never find `toString` or `__proto__`.
  if (!Object.hasOwn(protocol.METHODS, method)) return undefined;
  const entry = protocol.METHODS[method]!;
  const direction = receiver === "server" ? "client-to-server" : "server-to-client";
  return entry.direction === direction || entry.direction === "both" ? entry : undefined;
}
