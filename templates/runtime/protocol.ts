/**
 * What the runtime needs of a generated protocol module
 * (`generated/<revision>/index.ts`). The runtime is revision-independent:
 * a server is given the module of the revision it serves (and, for older
 * clients, the module of the legacy revision) and dispatches through its
 * tables and validators.
 */

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

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

/** The generated module of one revision, as the runtime uses it. */
export interface ProtocolModule {
  readonly PROTOCOL_VERSION: string;
  readonly METHODS: { readonly [method: string]: MethodEntry };
  readonly NOTIFICATIONS: { readonly [method: string]: { readonly direction: string } };
  parseMessage(input: unknown): ParseOutcome;
  validate(name: never, value: unknown): ValidationOutcome;
}

/** `validate` with a plain string name (the runtime names definitions from the tables). */
export function validateDefinition(
  protocol: ProtocolModule,
  name: string,
  value: unknown,
): ValidationOutcome {
  return (protocol.validate as (name: string, value: unknown) => ValidationOutcome)(name, value);
}
