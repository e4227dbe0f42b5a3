/**
 * Revision-independent support code for generated MCP modules: turning ajv
 * results into `{ path, message }` errors, parsing and classifying JSON-RPC
 * messages, resultType rules and `_meta` key rules. mcp-gen copies this
 * file verbatim into every generated folder, so generated code depends on
 * nothing but itself.
 */

/** One validation problem: a JSON pointer into the value and what is wrong there. */
export interface ValidationError {
  readonly path: string;
  readonly message: string;
}

/** The outcome of validating a value against a definition. */
export type ValidationResult =
  { readonly ok: true } | { readonly ok: false; readonly errors: readonly ValidationError[] };

/** An error object as ajv's compiled validators report it. */
export interface CompiledValidatorError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A validator compiled by ajv at generation time. */
export interface CompiledValidator {
  (data: unknown, context?: { instancePath?: string }): boolean;
  errors?: readonly CompiledValidatorError[] | null;
}

/** The one result for every valid value (results are read-only, so one object serves all). */
export const VALID: ValidationResult = Object.freeze({ ok: true });

/** Runs a compiled validator and converts its errors. */
export function runValidator(
  validator: CompiledValidator,
  value: unknown,
  pathPrefix = "",
): ValidationResult {
  return validator(value) ? VALID : invalid(validator, pathPrefix);
}

/** The result of a validator that has just rejected a value, its errors converted. */
export function invalid(validator: CompiledValidator, pathPrefix = ""): ValidationResult {
  return { ok: false, errors: (validator.errors ?? []).map((e) => describeError(e, pathPrefix)) };
}

/**
 * One readable error per ajv error. A missing or disallowed property is
 * reported at the property's own path (`/params/name is required`), which
 * is where a user has to look.
 */
export function describeError(error: CompiledValidatorError, pathPrefix = ""): ValidationError {
  const p = error.params;
  const at = pathPrefix + error.instancePath;
  switch (error.keyword) {
    case "x-mcp-json-value":
      return {
        path: at,
        message: "must be a JSON value (string, number, boolean, null, array or object)",
      };
    case "required":
      return { path: `${at}/${escapeSegment(String(p.missingProperty))}`, message: "is required" };
    case "x-mcp-disallowed":
      return { path: at, message: "is not allowed" };
    case "additionalProperties":
      return {
        path: `${at}/${escapeSegment(String(p.additionalProperty))}`,
        message: "is not allowed",
      };
    case "type":
      return { path: at, message: `must be ${String(p.type).replace(/,/g, " or ")}` };
    case "const":
      return { path: at, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "enum":
      return {
        path: at,
        message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "anyOf":
    case "oneOf":
      return { path: at, message: "must match one of the allowed shapes" };
    case "discriminator": {
      // ajv's tagged-union check: the tag is missing or not a string, or names no branch.
      const tag = `${at}/${escapeSegment(String(p.tag))}`;
      return p.error === "tag"
        ? { path: tag, message: "is required and must be a string" }
        : { path: tag, message: `must name a known variant, not ${JSON.stringify(p.tagValue)}` };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return { path: at, message: `must be ${String(p.comparison)} ${String(p.limit)}` };
    case "minItems":
      return { path: at, message: `must have at least ${String(p.limit)} items` };
    case "maxItems":
      return { path: at, message: `must have at most ${String(p.limit)} items` };
    case "minLength":
      return { path: at, message: `must be at least ${String(p.limit)} characters long` };
    case "maxLength":
      return { path: at, message: `must be at most ${String(p.limit)} characters long` };
    case "pattern":
      return { path: at, message: `must match the pattern ${String(p.pattern)}` };
    case "format":
      return {
        path: at,
        message: `must be a valid ${String(p.format)} (format "${String(p.format)}")`,
      };
    case "multipleOf":
      return { path: at, message: `must be a multiple of ${String(p.multipleOf)}` };
    case "uniqueItems":
      return {
        path: at,
        message: `must not have duplicate items (items ${String(p.j)} and ${String(p.i)} are equal)`,
      };
    case "minProperties":
      return { path: at, message: `must have at least ${String(p.limit)} properties` };
    case "maxProperties":
      return { path: at, message: `must have at most ${String(p.limit)} properties` };
    default:
      return { path: at, message: `must satisfy ${error.keyword} ${JSON.stringify(p)}` };
  }
}

/**
 * How many problems a -32602 lists at most. The validators that list them
 * stop soon after this many, so an invalid array of 100,000 items costs
 * 20 error objects, not 100,000 (ajv's own `allErrors` would build one or
 * more per item).
 */
export const PROBLEM_LIMIT = 20;

/**
 * How many errors a problem-listing validator may hold while it tries the
 * branches of a union (anyOf, oneOf): those errors may yet be discarded,
 * so it cannot stop with them as it stops at {@link PROBLEM_LIMIT}; past
 * this many it gives up ({@link tooManyProblems}).
 */
export const TENTATIVE_PROBLEM_LIMIT = 5 * PROBLEM_LIMIT;

/** Thrown by a problem-listing validator past {@link TENTATIVE_PROBLEM_LIMIT} (generated code calls this). */
export function tooManyProblems(): never {
  throw new RangeError(`more than ${TENTATIVE_PROBLEM_LIMIT} problems inside a union`);
}

/**
 * The problems with a value `firstPass` has just rejected: those
 * `allProblems` (the same schema, every problem collected, up to about
 * {@link PROBLEM_LIMIT}) finds, at most PROBLEM_LIMIT of them, with
 * `truncated` when it found more. Without `allProblems`, or when it gives
 * up inside a union, the first-pass problem alone.
 */
export function listProblems(
  firstPass: CompiledValidator,
  allProblems: CompiledValidator | undefined,
  value: unknown,
  pathPrefix = "",
): { problems: ValidationError[]; truncated: boolean } {
  const firstOnly = () => ({
    problems: (firstPass.errors ?? []).map((e) => describeError(e, pathPrefix)),
    truncated: false,
  });
  if (allProblems === undefined) return firstOnly();
  try {
    if (allProblems(value)) return firstOnly();
  } catch {
    return firstOnly();
  }
  // An `if` error only repeats that its then/else branch failed, which that branch's own errors say.
  const errors = (allProblems.errors ?? []).filter((e) => e.keyword !== "if");
  if (errors.length === 0) return firstOnly();
  return {
    problems: errors.slice(0, PROBLEM_LIMIT).map((e) => describeError(e, pathPrefix)),
    truncated: errors.length > PROBLEM_LIMIT,
  };
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A JSON-RPC error object, ready to send. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * The outcome of parsing a message. On failure, `id` is the request id when
 * one could be read (null otherwise), so the caller can answer with
 * `{ jsonrpc: "2.0", id, error }`.
 */
export type ParseResult<T> =
  | { readonly ok: true; readonly message: T }
  | { readonly ok: false; readonly error: JsonRpcErrorObject; readonly id: string | number | null };

/** The generated tables parsing needs. */
export interface MessageTables {
  readonly revision: string;
  /** Maps, not records: a method name off the wire must never find `toString` or `__proto__`. */
  readonly requests: ReadonlyMap<string, CompiledValidator>;
  readonly notifications: ReadonlyMap<string, CompiledValidator>;
  /** Per request method, the validator of each result, by resultType. */
  readonly results: Readonly<Record<string, Readonly<Record<string, CompiledValidator>>>>;
  readonly errorResponse: CompiledValidator;
  /**
   * Per request and notification validator (which stops at the first
   * problem), its twin that lists every problem up to
   * {@link PROBLEM_LIMIT}: run only once a message has failed.
   */
  readonly problemValidators?: ReadonlyMap<CompiledValidator, CompiledValidator>;
  /** Known revisions defining each method, for "removed in this revision" errors. */
  readonly availability: Readonly<Record<string, readonly string[]>>;
  /**
   * Per request method, results without a resultType that are told apart by
   * shape: the key of each such result in `results`, and the properties
   * whose presence selects it (revisions whose results carry no resultType).
   */
  readonly markers?: Readonly<
    Record<string, ReadonlyArray<readonly [key: string, properties: readonly string[]]>>
  >;
}

/** The key of the result a resultType-less result's properties select, if any. */
function markedResult(
  tables: MessageTables,
  method: string,
  result: Record<string, unknown>,
): string | undefined {
  const branches =
    tables.markers && Object.hasOwn(tables.markers, method) ? tables.markers[method]! : [];
  return branches.find(([, properties]) => properties.some((p) => Object.hasOwn(result, p)))?.[0];
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

function failure(
  code: number,
  message: string,
  id: string | number | null,
  data?: unknown,
): ParseResult<never> {
  return { ok: false, error: data === undefined ? { code, message } : { code, message, data }, id };
}

/** JSON text → value, or a -32700 failure. Values pass through untouched. */
function toValue(input: unknown): { value: unknown } | { failed: ParseResult<never> } {
  if (typeof input !== "string") return { value: input };
  try {
    return { value: JSON.parse(input) };
  } catch (error) {
    return {
      failed: failure(PARSE_ERROR, "Parse error", null, { reason: (error as Error).message }),
    };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readId(value: Record<string, unknown>): string | number | null {
  const id = value.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * Parses and validates one incoming JSON-RPC message, choosing the exact
 * definition from `method` (never by trying every union branch):
 * -32700 unparsable text; -32600 not a JSON-RPC 2.0 request, notification
 * or response; -32601 unknown method (with the revisions that define it, if
 * any); -32602 the message does not match its method's definition (with
 * the failing paths). A response is checked as an envelope only; use
 * {@link parseResponseWith} to check its result against its method.
 */
export function parseMessageWith(tables: MessageTables, input: unknown): ParseResult<unknown> {
  const parsed = toValue(input);
  if ("failed" in parsed) return parsed.failed;
  const value = parsed.value;
  if (!isObject(value))
    return failure(INVALID_REQUEST, "Invalid Request", null, {
      reason: Array.isArray(value)
        ? "batches are not supported"
        : "a message must be a JSON object",
    });
  const id = readId(value);
  if (value.jsonrpc !== "2.0")
    return failure(INVALID_REQUEST, "Invalid Request", id, { reason: 'jsonrpc must be "2.0"' });
  const method = value.method;
  if (method === undefined) return parseResponseEnvelope(tables, value, id);
  if (typeof method !== "string")
    return failure(INVALID_REQUEST, "Invalid Request", id, { reason: "method must be a string" });
  const isRequest = Object.hasOwn(value, "id");
  if (isRequest && id === null)
    return failure(INVALID_REQUEST, "Invalid Request", null, {
      reason: "id must be a string or a number",
    });
  const validator = (isRequest ? tables.requests : tables.notifications).get(method);
  if (!validator) return methodNotFound(tables, method, id);
  if (validator(value)) return { ok: true, message: value };
  return invalidParams(tables, validator, value, id);
}

function methodNotFound(
  tables: MessageTables,
  method: string,
  id: string | number | null,
): ParseResult<never> {
  const availableIn = Object.hasOwn(tables.availability, method)
    ? tables.availability[method]!.filter((r) => r !== tables.revision)
    : [];
  return failure(
    METHOD_NOT_FOUND,
    "Method not found",
    id,
    availableIn.length > 0 ? { method, availableIn } : { method },
  );
}

/**
 * -32602 for a message its validator has rejected, listing every problem
 * (up to {@link PROBLEM_LIMIT}) and saying how many in the message:
 * `data` is `{ path, errors }` (the first problem's path, then each
 * problem's), with `truncated: true` when there are more than the list.
 */
function invalidParams(
  tables: MessageTables,
  validator: CompiledValidator,
  value: unknown,
  id: string | number | null,
): ParseResult<never> {
  const { problems, truncated } = listProblems(
    validator,
    tables.problemValidators?.get(validator),
    value,
  );
  const first = problems[0];
  const path = first?.path ?? "";
  const data = truncated ? { path, errors: problems, truncated } : { path, errors: problems };
  if (!first) return failure(INVALID_PARAMS, "Invalid params", id, data);
  const at = `${first.path || "/"} ${first.message}`;
  const message = truncated
    ? `Invalid params: more than ${problems.length} problems, the first ${problems.length} in data.errors; the first: ${at}`
    : problems.length > 1
      ? `Invalid params: ${problems.length} problems, all in data.errors; the first: ${at}`
      : `Invalid params: ${at}`;
  return failure(INVALID_PARAMS, message, id, data);
}

function parseResponseEnvelope(
  tables: MessageTables,
  value: Record<string, unknown>,
  id: string | number | null,
): ParseResult<unknown> {
  if (Object.hasOwn(value, "error")) {
    return tables.errorResponse(value)
      ? { ok: true, message: value }
      : invalidResponse(tables.errorResponse, id);
  }
  if (!Object.hasOwn(value, "result") || !isObject(value.result))
    return failure(INVALID_REQUEST, "Invalid Request", id, {
      reason: "a message needs method, result or error",
    });
  if (id === null)
    return failure(INVALID_REQUEST, "Invalid Request", null, {
      reason: "id must be a string or a number",
    });
  return { ok: true, message: value };
}

function invalidResponse(
  validator: CompiledValidator,
  id: string | number | null,
): ParseResult<never> {
  const errors = (validator.errors ?? []).map((e) => describeError(e));
  return failure(INVALID_REQUEST, "Invalid response", id, { path: errors[0]?.path ?? "", errors });
}

/**
 * Parses and validates a response to a request of `method`. The result is
 * checked against the one definition its resultType selects; a result
 * without resultType (from a server of an earlier revision) is read as
 * "complete" and returned with `resultType: "complete"` filled in. An
 * unrecognized resultType, or one `method` may not return, is -32602.
 */
export function parseResponseWith(
  tables: MessageTables,
  input: unknown,
  method: string,
): ParseResult<unknown> {
  const parsed = toValue(input);
  if ("failed" in parsed) return parsed.failed;
  const value = parsed.value;
  if (!isObject(value))
    return failure(INVALID_REQUEST, "Invalid response", null, {
      reason: "a response must be a JSON object",
    });
  const id = readId(value);
  if (value.jsonrpc !== "2.0")
    return failure(INVALID_REQUEST, "Invalid response", id, { reason: 'jsonrpc must be "2.0"' });
  if (Object.hasOwn(value, "error"))
    return tables.errorResponse(value)
      ? { ok: true, message: value }
      : invalidResponse(tables.errorResponse, id);
  if (id === null)
    return failure(INVALID_REQUEST, "Invalid response", null, {
      reason: "id must be a string or a number",
    });
  const result = value.result;
  if (!isObject(result))
    return failure(INVALID_REQUEST, "Invalid response", id, {
      reason: "a response needs a result object or an error",
    });
  const byResultType = Object.hasOwn(tables.results, method) ? tables.results[method]! : undefined;
  if (!byResultType) return methodNotFound(tables, method, id);
  const marked = result.resultType === undefined ? markedResult(tables, method, result) : undefined;
  const resultType = marked ?? (result.resultType === undefined ? "complete" : result.resultType);
  const validator =
    typeof resultType === "string" && Object.hasOwn(byResultType, resultType)
      ? byResultType[resultType]!
      : undefined;
  if (!validator) {
    return failure(
      INVALID_PARAMS,
      `Invalid result: resultType ${JSON.stringify(resultType)} is not one ${method} may return`,
      id,
      {
        path: "/result/resultType",
        allowed: Object.keys(byResultType),
      },
    );
  }
  // A result told apart by shape has no resultType on the wire, and gets none.
  const normalized =
    result.resultType === undefined && marked === undefined ? { ...result, resultType } : result;
  if (!validator(normalized)) {
    const errors = (validator.errors ?? []).map((e) => describeError(e, "/result"));
    return failure(
      INVALID_PARAMS,
      `Invalid result: ${errors[0]?.path ?? "/result"} ${errors[0]?.message ?? "is invalid"}`,
      id,
      { path: errors[0]?.path ?? "/result", errors },
    );
  }
  return { ok: true, message: normalized === result ? value : { ...value, result: normalized } };
}

/**
 * The resultType of a result per the spec: a missing resultType is
 * "complete" (results from servers of earlier revisions); a value not in
 * `known` is unrecognized and yields undefined.
 */
export function resultTypeWith<T extends string>(
  known: readonly T[],
  result: unknown,
): T | undefined {
  if (!isObject(result)) return undefined;
  const value = result.resultType === undefined ? "complete" : result.resultType;
  return typeof value === "string" && (known as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const META_KEY = new RegExp(
  `^(?:(${LABEL}(?:\\.${LABEL})*)/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$`,
);

/**
 * Whether `key` follows the `_meta` key rules: an optional prefix of dot
 * separated labels (each starting with a letter and ending with a letter or
 * digit, hyphens inside) followed by `/`, then a name that, unless empty,
 * starts and ends with an alphanumeric and has only alphanumerics, `-`,
 * `_` and `.` inside.
 */
export function isValidMetaKey(key: string): boolean {
  return META_KEY.test(key);
}

/**
 * Whether `key` is reserved for MCP: its prefix's second label is
 * `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `dev.mcp/`,
 * `com.mcp.tools/`), not merely containing it (`com.example.mcp/` is not).
 */
export function isReservedMetaKey(key: string): boolean {
  const match = META_KEY.exec(key);
  const prefix = match?.[1];
  if (!prefix) return false;
  const second = prefix.split(".")[1];
  return second === "modelcontextprotocol" || second === "mcp";
}

/**
 * Length in Unicode code points, as JSON Schema's minLength / maxLength
 * count it (ajv's generated code calls this).
 */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/**
 * A referenced validator's errors, moved under the place it was called
 * for. The validators call references without the caller's path and put
 * it in front only when something failed, so the success path builds no
 * strings.
 */
export function rebaseErrors(
  errors: readonly CompiledValidatorError[],
  prefix: string,
): CompiledValidatorError[] {
  return errors.map((e) => ({ ...e, instancePath: prefix + e.instancePath }));
}

/**
 * True when `value` is what JSON Schema's "any JSON value" accepts
 * (string, number, boolean, null, or an array or object of such values),
 * with exactly the type checks ajv's own code makes. The validators call
 * it for the schema's JSONValue instead of ajv's recursive function, which
 * builds an error path for every key it visits even when nothing fails.
 */
export function isJsonValue(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return true;
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isJsonValue(value[i])) return false;
        return true;
      }
      const record = value as Record<string, unknown>;
      // Own properties only, as the validators count them (ajv's ownProperties).
      for (const key in record)
        if (Object.hasOwn(record, key) && !isJsonValue(record[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Deep equality of JSON values, for `const` / `enum` / `uniqueItems` on objects (ajv's generated code calls this). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => deepEqual(x, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
