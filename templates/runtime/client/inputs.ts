/**
 * Answering a server's requests for input: elicitation (ask the user),
 * sampling (ask a model) and roots (which folders the client shares).
 * In 2026-07-28 they arrive inside an InputRequiredResult (MRTR); a legacy
 * server sends them as requests of its own; an extension (Tasks) may carry
 * them elsewhere. All of them are answered by the same typed handlers,
 * through `answerInputRequest`, and the answer is checked against the
 * revision's result definition before it goes back.
 */
import { Codes, McpError } from "../core/errors.js";
import { isJsonObject } from "../core/jsonrpc.js";
import { validateDefinition } from "../core/protocol.js";
import type { ClientProtocol } from "./protocol.js";

/** The params and results of the three kinds of input, as a project's revision types them. */
export interface InputTypes {
  readonly elicitParams: object;
  readonly elicitResult: object;
  readonly samplingParams: object;
  readonly samplingResult: object;
  readonly rootsParams: object | undefined;
  readonly rootsResult: object;
}

/** The input types when nothing more precise is known. */
export interface UntypedInputs extends InputTypes {
  readonly elicitParams: Record<string, unknown>;
  readonly elicitResult: Record<string, unknown>;
  readonly samplingParams: Record<string, unknown>;
  readonly samplingResult: Record<string, unknown>;
  readonly rootsParams: Record<string, unknown> | undefined;
  readonly rootsResult: Record<string, unknown>;
}

/** What a handler knows besides the request's params. */
export interface InputContext {
  /** The server's key for this input request (MRTR), or the id of its request (legacy). */
  readonly key: string;
  /** Aborted when the request that needs the input is cancelled. */
  readonly signal: AbortSignal;
}

/** What an elicitation handler knows besides the params. */
export interface ElicitationContext extends InputContext {
  /**
   * The `default` of each field of a form's requestedSchema, to pre-fill
   * the form with. Fields an accepted answer leaves out are filled with
   * them before the answer is sent.
   */
  readonly defaults: Readonly<Record<string, unknown>>;
}

/** One handler per kind of input the client can give; each one it has is declared as a capability. */
export interface InputHandlers<T extends InputTypes = UntypedInputs> {
  /** `elicitation/create`: ask the user (form mode, or url mode when declared in `capabilities`). */
  readonly elicitation?: (
    params: T["elicitParams"],
    context: ElicitationContext,
  ) => T["elicitResult"] | Promise<T["elicitResult"]>;
  /** `sampling/createMessage`: ask a language model. */
  readonly sampling?: (
    params: T["samplingParams"],
    context: InputContext,
  ) => T["samplingResult"] | Promise<T["samplingResult"]>;
  /** `roots/list`: the folders the client shares with the server. */
  readonly roots?: (
    params: T["rootsParams"],
    context: InputContext,
  ) => T["rootsResult"] | Promise<T["rootsResult"]>;
}

/** Each kind of input: its handler, its capability, and the definition its answer must match. */
const KINDS = {
  "elicitation/create": {
    handler: "elicitation",
    capability: "elicitation",
    answer: "ElicitResult",
  },
  "sampling/createMessage": {
    handler: "sampling",
    capability: "sampling",
    answer: "CreateMessageResult",
  },
  "roots/list": { handler: "roots", capability: "roots", answer: "ListRootsResult" },
} as const;

/** Whether `method` is a kind of input request. */
export function isInputMethod(method: string): method is keyof typeof KINDS {
  return Object.hasOwn(KINDS, method);
}

/** The client capabilities the handlers imply (elicitation in form mode, sampling, roots). */
export function inputCapabilities(handlers: InputHandlers<InputTypes>): Record<string, object> {
  const capabilities: Record<string, object> = {};
  if (handlers.elicitation) capabilities.elicitation = { form: {} };
  if (handlers.sampling) capabilities.sampling = {};
  if (handlers.roots) capabilities.roots = {};
  return capabilities;
}

/**
 * Answers one input request with its handler and checks the answer against
 * `protocol`'s definition. Throws an McpError when no handler takes the
 * request (the server asked for something the client never declared) or
 * the handler's answer is not valid.
 */
export async function answerInputRequest(
  request: { readonly method: string; readonly params?: unknown },
  handlers: InputHandlers<InputTypes>,
  protocol: ClientProtocol,
  context: InputContext,
): Promise<Record<string, unknown>> {
  const { method } = request;
  if (!isInputMethod(method))
    throw new McpError(
      Codes.MethodNotFound,
      `the server asked for ${method}, which is not an input request`,
    );
  const kind = KINDS[method];
  const handler = handlers[kind.handler] as
    ((params: unknown, context: InputContext | ElicitationContext) => unknown) | undefined;
  if (!handler)
    throw new McpError(
      Codes.MissingRequiredClientCapability,
      `the server asked for ${method}, but this client has no ${kind.handler} handler (and did not declare the ${kind.capability} capability)`,
    );
  const params = isJsonObject(request.params) ? request.params : {};
  let answer: unknown;
  if (method === "elicitation/create") {
    const schema = params.mode === "url" ? undefined : params.requestedSchema;
    const elicitation: ElicitationContext = { ...context, defaults: elicitationDefaults(schema) };
    answer = withElicitationDefaults(await handler(params, elicitation), schema);
  } else answer = await handler(method === "roots/list" ? request.params : params, context);
  const checked = validateDefinition(protocol, kind.answer, answer);
  if (!checked.ok)
    throw new McpError(
      Codes.InternalError,
      `the ${kind.handler} handler's answer is not a valid ${kind.answer}: ${checked.errors[0]?.path || "/"} ${checked.errors[0]?.message ?? ""}`.trimEnd(),
      { errors: checked.errors },
    );
  return answer as Record<string, unknown>;
}

/** The `default` of each property of an elicitation form's requestedSchema. */
export function elicitationDefaults(requestedSchema: unknown): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  const properties = isJsonObject(requestedSchema) ? requestedSchema.properties : undefined;
  if (!isJsonObject(properties)) return defaults;
  for (const [name, property] of Object.entries(properties))
    if (isJsonObject(property) && property.default !== undefined)
      Object.defineProperty(defaults, name, {
        value: property.default,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return defaults;
}

/**
 * An accepted elicitation answer with every field the user left out that
 * has a default in the form filled with it (spec: elicitation, defaults);
 * other answers are returned as they are.
 */
export function withElicitationDefaults(answer: unknown, requestedSchema: unknown): unknown {
  if (!isJsonObject(answer) || answer.action !== "accept") return answer;
  const defaults = elicitationDefaults(requestedSchema);
  if (Object.keys(defaults).length === 0) return answer;
  const content: Record<string, unknown> = isJsonObject(answer.content)
    ? { ...answer.content }
    : {};
  for (const [name, value] of Object.entries(defaults))
    if (!Object.hasOwn(content, name))
      Object.defineProperty(content, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return { ...answer, content };
}
