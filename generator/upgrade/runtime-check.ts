/**
 * Can the runtime serve the target revision? The messages the runtime
 * builds itself, not the user's handlers, are made here by mcp-gen's own
 * copy of the runtime (the one an upgrade writes into the project) and
 * validated against the target revision's definitions, compiled with ajv
 * as the generated validators are: a JSON-RPC error, the result of a tool
 * call whose arguments are invalid, the server/discover result, a Multi
 * Round-Trip Request's InputRequiredResult, and (when the revision has the
 * Tasks extension) the task a tool call creates and tasks/get's answer.
 * A revision that requires a field the runtime does not set is named with
 * the message and the field, before the upgrade changes anything.
 */
import { createRequire } from "node:module";
import type { Ajv2020 as Ajv2020Type, ErrorObject } from "ajv/dist/2020.js";
import { committedProtocol } from "../runtime/protocol.js";
import { PROJECT_REVISION } from "../runtime/revisions.js";
import { InMemoryTaskStore, McpServer } from "../runtime/server.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../load/json.js";
import type { McpModel } from "../model/types.js";

/** A message of the runtime's that the target revision refuses. */
export interface RuntimeProblem {
  /** The runtime message, e.g. `invalid-arguments result (tools/call)`. */
  readonly message: string;
  /** The target definition it was checked against. */
  readonly definition: string;
  /** Where in the message, as a JSON pointer, and the field (`/content/0/annotations`); empty when the target has no definition for the message at all. */
  readonly field: string;
  /** The definition that requires the field (`TextContent`), when the problem is a missing one. */
  readonly requiredBy?: string;
  /** What the validator said. */
  readonly reason: string;
}

/** What the check covered and found. */
export interface RuntimeCheck {
  /** The runtime messages validated, each with its definition. */
  readonly checked: ReadonlyArray<{ readonly message: string; readonly definition: string }>;
  /** The runtime messages of extensions the target does not merge (not sent there, so not checked). */
  readonly skipped: readonly string[];
  readonly problems: readonly RuntimeProblem[];
}

/** One message the runtime built, and the definition the target revision must accept it as. */
interface Sample {
  readonly message: string;
  readonly definitions: readonly string[];
  readonly value: unknown;
  /** The extension whose message it is: checked only when the target has that extension. */
  readonly extension?: string;
}

/** Validates every message the runtime builds against `model`'s definitions. */
export async function checkRuntimeMessages(model: McpModel): Promise<RuntimeCheck> {
  const validate = definitionValidator(model);
  const checked: Array<{ message: string; definition: string }> = [];
  const skipped: string[] = [];
  const problems: RuntimeProblem[] = [];
  const merged = new Set(model.extensions.map((e) => e.id));
  for (const sample of await runtimeSamples()) {
    // An extension's messages are not sent where the extension is not merged.
    if (sample.extension !== undefined && !merged.has(sample.extension)) {
      skipped.push(sample.message);
      continue;
    }
    const definition = sample.definitions.find((d) => validate.has(d));
    if (definition === undefined) {
      problems.push({
        message: sample.message,
        definition: sample.definitions.join(" or "),
        field: "",
        reason: `the target revision defines no ${sample.definitions.join(" or ")}, and the runtime sends this message`,
      });
      continue;
    }
    checked.push({ message: sample.message, definition });
    problems.push(...validate.problems(sample.message, definition, sample.value));
  }
  return { checked, skipped, problems: dedupe(problems) };
}

/** A validator per definition of the model, compiled on first use. */
function definitionValidator(model: McpModel): {
  has: (name: string) => boolean;
  problems: (message: string, name: string, value: unknown) => RuntimeProblem[];
} {
  const defs: JsonObject = {};
  const owners = new Map<unknown, string>();
  for (const d of model.declarations) {
    defs[d.name] = d.validatorSchema;
    owners.set(d.validatorSchema, d.name);
  }
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  // Formats are not asserted, as in the generated validators; every problem is wanted, not the first,
  // and `verbose` gives each error the schema it came from, which names its definition.
  const ajv: Ajv2020Type = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateFormats: false,
    validateSchema: false,
    allowUnionTypes: true,
  });
  ajv.addSchema({ $id: "urn:mcp-gen:target", $defs: defs, definitions: defs });
  return {
    has: (name) => Object.hasOwn(defs, name),
    problems: (message, name, value) => {
      const check = ajv.getSchema(`urn:mcp-gen:target#/$defs/${name}`);
      if (!check || check(value)) return [];
      const errors = check.errors ?? [];
      const missing = errors.filter((e) => e.keyword === "required" && appliesTo(owners, e, value));
      const chosen = missing.length > 0 ? missing : errors.filter((e) => e.keyword !== "anyOf");
      return chosen.map((e) => problemOf(message, name, e, owners.get(e.parentSchema)));
    },
  };
}

/**
 * Whether a `required` error belongs to the union branch that applies: a
 * definition whose `type` is a constant (content blocks) applies only to a
 * value of that type; the other branches' complaints say nothing.
 */
function appliesTo(
  owners: ReadonlyMap<unknown, string>,
  error: ErrorObject,
  root: unknown,
): boolean {
  const schema = error.parentSchema;
  if (!owners.has(schema)) return true;
  const typeConst = isJsonObject(schema?.properties) ? schema.properties.type : undefined;
  if (!isJsonObject(typeConst) || typeConst.const === undefined) return true;
  const value = at(root, error.instancePath);
  return isJsonObject(value) && value.type === typeConst.const;
}

/** The value at a JSON pointer. */
function at(root: unknown, pointer: string): JsonValue | undefined {
  let node = root as JsonValue | undefined;
  for (const segment of pointer.split("/").slice(1)) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(key)] : isJsonObject(node) ? node[key] : undefined;
  }
  return node;
}

/** The runtime problem an ajv error stands for; `owner` is the definition the error's schema is. */
function problemOf(
  message: string,
  definition: string,
  error: ErrorObject,
  owner: string | undefined,
): RuntimeProblem {
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return {
      message,
      definition,
      field: `${error.instancePath}/${missing}`,
      ...(owner ? { requiredBy: `${owner}.${missing}` } : {}),
      reason: `${owner ? `${owner}.${missing}` : missing} is required by the target revision, and the runtime does not set it`,
    };
  }
  return {
    message,
    definition,
    field: error.instancePath || "/",
    reason: `${error.message ?? error.keyword}${owner ? ` (${owner})` : ""}`,
  };
}

/** Each problem once (a union may report the same one from several branches). */
function dedupe(problems: readonly RuntimeProblem[]): RuntimeProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.message}|${p.field}|${p.reason}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** The modern `_meta` envelope of a request, with the client capabilities given. */
function request(
  id: number,
  method: string,
  params: Record<string, unknown>,
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": PROJECT_REVISION,
        "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
        "io.modelcontextprotocol/clientInfo": { name: "mcp-gen upgrade", version: "0" },
      },
    },
  };
}

const TASKS_ID = "io.modelcontextprotocol/tasks";
const TASKS = { extensions: { [TASKS_ID]: {} } };

/** Drives a server of the runtime through each message it builds itself. */
async function runtimeSamples(): Promise<Sample[]> {
  const server = new McpServer({
    // The project revision's module with Tasks: every message the runtime builds, Tasks' included.
    ...(await committedProtocol(["tasks"])),
    info: { name: "mcp-gen-upgrade-check", version: "0" },
    onError: () => {},
    tasks: { store: new InMemoryTaskStore(), pollIntervalMs: 1_000 },
  });
  const object = { type: "object" } as const;
  server.tool(
    { name: "count", inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
    () => ({ content: [{ type: "text", text: "counted" }] }),
  );
  server.tool({ name: "ask", inputSchema: object }, async (_args, ctx) => {
    const answer = await ctx.elicit("name", {
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return { content: [{ type: "text", text: String(answer.content?.name) }] };
  });
  server.tool(
    { name: "later", inputSchema: object, execution: { taskSupport: "required" } },
    (_args, ctx) => ctx.runAsTask(() => ({ content: [{ type: "text", text: "done" }] })),
  );
  let id = 0;
  const answer = async (message: Record<string, unknown>) => {
    const outcome = await server.serve(message, {
      sink: { notify: () => {} },
      signal: new AbortController().signal,
    });
    return outcome.response as { result?: Record<string, unknown>; error?: unknown };
  };
  try {
    const unknownMethod = await answer(request(++id, "mcp-gen/no-such-method", {}));
    const badParams = await answer(request(++id, "tools/call", { arguments: {} }));
    const invalidArguments = await answer(
      request(++id, "tools/call", { name: "count", arguments: { n: "three" } }),
    );
    const discover = await answer(request(++id, "server/discover", {}));
    const mrtr = await answer(
      request(++id, "tools/call", { name: "ask", arguments: {} }, { elicitation: { form: {} } }),
    );
    const created = await answer(
      request(++id, "tools/call", { name: "later", arguments: {} }, TASKS),
    );
    const taskId = String(created.result?.taskId);
    const task = await answer(request(++id, "tasks/get", { taskId }, TASKS));
    const errors = ["JSONRPCErrorResponse", "JSONRPCError"];
    return [
      {
        message: "error response (-32601, unknown method)",
        definitions: errors,
        value: unknownMethod,
      },
      { message: "error response (-32602, invalid params)", definitions: errors, value: badParams },
      {
        message: "invalid-arguments result (tools/call)",
        definitions: ["CallToolResult"],
        value: invalidArguments.result,
      },
      {
        message: "discover result (server/discover)",
        definitions: ["DiscoverResult"],
        value: discover.result,
      },
      {
        message: "MRTR result (tools/call asking for input)",
        definitions: ["InputRequiredResult"],
        value: mrtr.result,
      },
      {
        message: "task created (tools/call as a task)",
        definitions: ["CreateTaskResult"],
        value: created.result,
        extension: TASKS_ID,
      },
      {
        message: "task result (tasks/get)",
        definitions: ["GetTaskResult"],
        value: task.result,
        extension: TASKS_ID,
      },
    ];
  } finally {
    server.tasks?.close();
  }
}
