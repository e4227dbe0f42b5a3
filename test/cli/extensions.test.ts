/**
 * `--extension` through the real command line: the known Tasks extension
 * yields exactly generated/2026-07-28+tasks, and named by its identifier, its
 * manifest file or a folder of one's own it is the same extension; every policy violation of an extension is one
 * line on stderr with its code, where (manifest or schema file plus JSON
 * pointer), what and how to fix it; exit 2; and nothing is written. The
 * fixtures are test/fixtures/ext-bad-<case>/, named by the repository-relative
 * path a user would type (the CLI runs in the repository root).
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listFiles } from "../../generator/write/write-output.js";
import { loadExtensions } from "../../generator/load/extensions.js";
import { ROOT, SCHEMA_DIR, testSources } from "../helpers/index.js";
import { leftovers, runCli, tempDir, type CliRun } from "../helpers/run-cli.js";

const SPEC = "2026-07-28";

const FIX_MANIFEST =
  "(fix: follow schema/extension-manifest.schema.json; docs/extensions.md shows a complete manifest)";
const FIX_ID =
  "(fix: use reverse-DNS labels that start with a letter and end with a letter or digit, a slash, then a name)";
const FIX_RESERVED =
  '(fix: use a prefix of your own (com.example/...), or set "mcp": true if the MCP project publishes it)';
const FIX_TARGET =
  "(fix: generate one of the revisions the extension targets, or drop the extension)";
const FIX_RESULT_TYPE =
  "(fix: choose a resultType value no other extension and no core revision uses)";
const FIX_METHOD =
  "(fix: give the extension's method a name of its own (e.g. prefixed by the extension))";
const FIX_RANGE =
  "(fix: pick a code outside -32768..-32000, or in -32000..-32019 (implementation-defined))";
const FIX_CODE = "(fix: pick a code no core revision and no other extension uses)";
const FIX_COPY =
  "(fix: copy the definition exactly (descriptions may differ), or give the extension's variant a name of its own)";
const FIX_NAMED = "(fix: name a definition of the extension's schema.json)";
const FIX_RETURNS = "(fix: name an existing request method (see METHODS), e.g. tools/call)";
const FIX_NAME =
  "(fix: name a string member of the request's params (the Mcp-Name header mirrors a string), or leave name out)";
const FIX_AUGMENT = "(fix: an augment may only add properties, or repeat one unchanged)";
const FIX_EXTEND = "(fix: the core revision must define it as an object schema with properties)";
const FIX_TWICE =
  "(fix: pass each extension once; two different extensions need identifiers of their own)";

/** The `--extension` argument of a fixture. */
const ext = (name: string) => `test/fixtures/ext-bad-${name}`;
/** Where diagnostics place a fixture's manifest. */
const manifest = (name: string) => `${ext(name)}/mcp-extension.json`;
/** Where diagnostics place a fixture's schema.json: `extensions/<manifest name>/`, as for pinned files. */
const schema = (name: string) => `extensions/ext-bad-${name}/schema.json`;

const PEER = ext("peer");
const REVISION_DEFINED = "the core revision (2026-07-28/schema.json)";

/** Runs `generate --spec <spec> --extension ...` into a folder that does not exist yet. */
async function generateWith(
  refs: readonly string[],
  options: { spec?: string; extra?: readonly string[] } = {},
): Promise<{ run: CliRun; out: string; parent: string }> {
  const parent = tempDir("out");
  const out = join(parent, "mcp");
  const spec = options.spec ?? SPEC;
  const run = await runCli([
    "generate",
    "--spec",
    spec,
    ...refs.flatMap((r) => ["--extension", r]),
    "--out",
    out,
    ...(options.extra ?? []),
  ]);
  return { run, out, parent };
}

/** What generation reads of the extension an `--extension` argument names (where its files are aside). */
async function loaded(ref: string) {
  const [extension] = await loadExtensions([ref], testSources());
  const {
    schema: _schema,
    schemaTs: _schemaTs,
    $schema: _$schema,
    ...manifest
  } = extension!.manifest as unknown as Record<string, unknown>;
  return {
    manifest,
    dialect: extension!.schema.dialect,
    document: extension!.schema.document,
    schemaTs: extension!.schemaTs && {
      ...extension!.schemaTs,
      file: extension!.schemaTs.file.sha256,
    },
  };
}

/** The diagnostic lines of a run; asserts that stderr holds nothing else but the progress line. */
function diagnosticLines(run: CliRun, spec = SPEC): readonly string[] {
  const [progress, ...rest] = run.stderrLines;
  expect(progress).toBe(`mcp-gen: generating ${spec}`);
  for (const line of rest)
    expect(line).toMatch(/^\S.*: (error|warning) MCPG\d{3}: .+ \(fix: .+\)$/);
  return rest;
}

/** Asserts a failed run: exit 2, nothing on stdout, no output folder and no temporary files. */
function expectNothingWritten(result: { run: CliRun; out: string; parent: string }): void {
  expect(result.run.code).toBe(2);
  expect(result.run.stdout).toBe("");
  expect(existsSync(result.out), "a failed run leaves no output folder").toBe(false);
  expect(leftovers(result.parent)).toEqual([]);
}

describe.concurrent("each policy violation is one line, exit 2, and nothing is written", () => {
  it.each<[string, string[], string[]]>([
    [
      "a documented resultType value the core revision has",
      [ext("result-type-core")],
      [
        `${manifest("result-type-core")}#/resultTypes/complete: error MCPG608: resultType "complete" is already defined by the core revision (2026-07-28/schema.ts) ${FIX_RESULT_TYPE}`,
      ],
    ],
    [
      "a resultType value another extension added (here pinned by a const, not documented)",
      [PEER, ext("result-type-peer")],
      [
        `${schema("result-type-peer")}#/$defs/EnqueueResult: error MCPG608: resultType "deferred" is already defined by extension com.example/jobs ${FIX_RESULT_TYPE}`,
      ],
    ],
    [
      "a method the core revision defines",
      [ext("method-core")],
      [
        `${schema("method-core")}#/$defs/ListEveryToolRequest: error MCPG609: method "tools/list" is already defined by ${REVISION_DEFINED} ${FIX_METHOD}`,
      ],
    ],
    [
      "a method another extension defines (a draft-07 schema)",
      [PEER, ext("method-peer")],
      [
        `${schema("method-peer")}#/definitions/BeginJobRequest: error MCPG609: method "jobs/start" is already defined by extension com.example/jobs ${FIX_METHOD}`,
      ],
    ],
    [
      "an error code in -32020..-32099",
      [ext("error-code-reserved")],
      [
        `${manifest("error-code-reserved")}#/errorCodes/0/code: error MCPG610: error code -32050 is in -32020..-32099, which is reserved for the MCP specification ${FIX_RANGE}`,
      ],
    ],
    [
      "error codes the core revision defines (a JSON-RPC code, and a legacy MCP code that stays reserved)",
      [ext("error-code-core")],
      [
        `${manifest("error-code-core")}#/errorCodes/0/code: error MCPG611: error code -32602 is already defined by the core revision (INVALID_PARAMS) ${FIX_CODE}`,
        `${manifest("error-code-core")}#/errorCodes/1/code: error MCPG611: error code -32002 is already defined by the core revision (RESOURCE_NOT_FOUND) ${FIX_CODE}`,
      ],
    ],
    [
      "an error code another extension defines",
      [PEER, ext("error-code-peer")],
      [
        `${manifest("error-code-peer")}#/errorCodes/0/code: error MCPG611: error code -31001 is already defined by extension com.example/jobs ${FIX_CODE}`,
      ],
    ],
    [
      "an identifier without a prefix",
      [ext("id-no-prefix")],
      [
        `${manifest("id-no-prefix")}#/id: error MCPG605: extension identifier "jobs" breaks the _meta key rules: it needs a prefix of dot-separated labels and a name (e.g. com.example/my-extension) ${FIX_ID}`,
      ],
    ],
    [
      "an identifier with a label that starts with a digit",
      [ext("id-label")],
      [
        `${manifest("id-label")}#/id: error MCPG605: extension identifier "com.1example/jobs" breaks the _meta key rules: it needs a prefix of dot-separated labels and a name (e.g. com.example/my-extension) ${FIX_ID}`,
      ],
    ],
    [
      "an extension that does not target the revision",
      [ext("revision")],
      [
        `${manifest("revision")}#/revisions: error MCPG607: extension com.example/legacy-jobs does not target revision 2026-07-28 (it targets 2025-06-18, 2025-11-25) ${FIX_TARGET}`,
      ],
    ],
    [
      "a spliced copy of a core definition that differs (the unchanged copy of Cursor folds silently)",
      [ext("copy")],
      [
        `${schema("copy")}#/$defs/Role: error MCPG612: definition Role differs from the one in 2026-07-28/schema.json#/$defs/Role; an extension may copy a definition only unchanged ${FIX_COPY}`,
      ],
    ],
    [
      "a manifest that fails its JSON Schema: each problem at its pointer",
      [ext("manifest-schema")],
      [
        `${manifest("manifest-schema")}#/version: error MCPG601: extension manifest: is not a manifest field ${FIX_MANIFEST}`,
        `${manifest("manifest-schema")}#/name: error MCPG601: extension manifest: must match pattern "^[a-z][a-z0-9-]*$" ${FIX_MANIFEST}`,
        `${manifest("manifest-schema")}#/mcp: error MCPG601: extension manifest: must be boolean ${FIX_MANIFEST}`,
        `${manifest("manifest-schema")}#/revisions: error MCPG601: extension manifest: must be array ${FIX_MANIFEST}`,
        `${manifest("manifest-schema")}#/requests/jobs~1start/direction: error MCPG601: extension manifest: must be one of "client-to-server", "server-to-client", "both" ${FIX_MANIFEST}`,
        `${manifest("manifest-schema")}#/errorCodes/0/code: error MCPG601: extension manifest: must be integer ${FIX_MANIFEST}`,
      ],
    ],
    [
      "a manifest naming definitions its schema lacks",
      [ext("missing-definition")],
      [
        `${manifest("missing-definition")}#/capability/definition: error MCPG613: the manifest's capability.definition names JobsCapability, which the extension's schema does not define ${FIX_NAMED}`,
        `${manifest("missing-definition")}#/returns/tools~1call/0: error MCPG613: the manifest's returns["tools/call"] names JobHandle, which the extension's schema does not define ${FIX_NAMED}`,
        `${manifest("missing-definition")}#/requests/jobs~1start/result: error MCPG613: the manifest's requests["jobs/start"].result names StartedJob, which the extension's schema does not define ${FIX_NAMED}`,
      ],
    ],
    [
      "returns naming a method that does not exist",
      [ext("returns")],
      [
        `${manifest("returns")}#/returns/tools~1run: error MCPG614: the manifest's returns names "tools/run", which is not a request method of this revision ${FIX_RETURNS}`,
      ],
    ],
    [
      "a request's Mcp-Name member that its params do not have as a string",
      [ext("name")],
      [
        `${manifest("name")}#/requests/jobs~1get/name: error MCPG619: the manifest's requests["jobs/get"].name is job, which is not a string property of the params of jobs/get ${FIX_NAME}`,
      ],
    ],
    [
      "augments that redefine a property, and that name a definition the revision lacks",
      [ext("augment")],
      [
        `${manifest("augment")}#/augments/Tool/0: error MCPG615: augmenting Tool: property name is already defined differently (by Tool) ${FIX_AUGMENT}`,
        `${manifest("augment")}#/augments/ToolShelf: error MCPG616: cannot extend ToolShelf: the revision does not define it ${FIX_EXTEND}`,
      ],
    ],
    [
      "the same extension twice, by name and by identifier",
      ["tasks", "io.modelcontextprotocol/tasks"],
      [
        `schema/extensions/tasks.json#/id: error MCPG617: extension io.modelcontextprotocol/tasks is given more than once (first by schema/extensions/tasks.json) ${FIX_TWICE}`,
      ],
    ],
  ])("%s", async (_what, refs, want) => {
    const result = await generateWith(refs);
    expect(diagnosticLines(result.run)).toEqual(want);
    expectNothingWritten(result);
  });

  it("the Tasks extension with a revision it does not target (2025-11-25)", async () => {
    const result = await generateWith(["tasks"], { spec: "2025-11-25" });
    expect(diagnosticLines(result.run, "2025-11-25")).toEqual([
      `schema/extensions/tasks.json#/revisions: error MCPG607: extension io.modelcontextprotocol/tasks does not target revision 2025-11-25 (it targets 2026-07-28) ${FIX_TARGET}`,
    ]);
    expectNothingWritten(result);
  });

  it("the extension the collisions are with is fine on its own", async () => {
    const { run, out } = await generateWith([PEER], { extra: ["--quiet"] });
    expect(run.stderrLines).toEqual([]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(out, "methods.gen.ts"), "utf8")).toContain(
      " * Options: extensions: com.example/jobs\n",
    );
  });
});

describe.concurrent('a reserved prefix without "mcp": true is a warning, not an error', () => {
  const WARNING = `${manifest("reserved-prefix")}#/id: warning MCPG606: extension "dev.mcp/jobs" uses a prefix reserved for MCP (second label modelcontextprotocol or mcp) but does not claim to be an MCP extension ${FIX_RESERVED}`;

  it("generation succeeds (exit 0) and prints the MCPG606 line", async () => {
    const { run, out } = await generateWith([ext("reserved-prefix")], { extra: ["--quiet"] });
    expect(run.stderrLines).toEqual([WARNING]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`wrote ${listFiles(out).length} files to ${out}\n`);
    expect(readFileSync(join(out, "types.gen.ts"), "utf8")).toContain(
      " * Options: extensions: dev.mcp/jobs\n",
    );
  });

  it("is printed with the errors when the run fails", async () => {
    const result = await generateWith([ext("reserved-prefix"), ext("error-code-reserved")]);
    expect(diagnosticLines(result.run)).toEqual([
      WARNING,
      `${manifest("error-code-reserved")}#/errorCodes/0/code: error MCPG610: error code -32050 is in -32020..-32099, which is reserved for the MCP specification ${FIX_RANGE}`,
    ]);
    expectNothingWritten(result);
  });
});

describe("a request's Mcp-Name member written as a $ref", () => {
  /** The name fixture in a folder of its own, with jobId a $ref to `target` and the manifest naming jobId. */
  function nameByRef(target: Record<string, unknown>): string {
    const dir = tempDir("name-ref");
    const from = join(ROOT, ext("name"));
    const schemaText = JSON.parse(readFileSync(join(from, "schema.json"), "utf8")) as {
      $defs: Record<string, { properties: { params: { properties: Record<string, unknown> } } }>;
    };
    schemaText.$defs.GetJobRequest!.properties.params.properties.jobId = { $ref: "#/$defs/JobId" };
    (schemaText.$defs as Record<string, unknown>).JobId = target;
    writeFileSync(join(dir, "schema.json"), JSON.stringify(schemaText, null, 2));
    const manifestText = JSON.parse(readFileSync(join(from, "mcp-extension.json"), "utf8")) as {
      requests: Record<string, { name: string }>;
    };
    manifestText.requests["jobs/get"]!.name = "jobId";
    writeFileSync(join(dir, "mcp-extension.json"), JSON.stringify(manifestText, null, 2));
    return dir;
  }

  it("naming a string definition is a string member: generation succeeds", async () => {
    const { run } = await generateWith([nameByRef({ type: "string" })]);
    expect(run.stderr).not.toContain("MCPG619");
    expect(run.code).toBe(0);
  });

  it("naming a definition that is not a string is MCPG619", async () => {
    const dir = nameByRef({ type: "integer" });
    const { run } = await generateWith([dir]);
    expect(run.code).toBe(2);
    expect(diagnosticLines(run)).toEqual([
      `${join(dir, "mcp-extension.json")}#/requests/jobs~1get/name: error MCPG619: the manifest's requests["jobs/get"].name is jobId, which is not a string property of the params of jobs/get ${FIX_NAME}`,
    ]);
  });
});

describe.concurrent("several problems are all reported together, in one run", () => {
  it("every problem of one manifest", async () => {
    const result = await generateWith([ext("several")]);
    expect(diagnosticLines(result.run)).toEqual([
      `${manifest("several")}#/id: error MCPG605: extension identifier "jobs/" breaks the _meta key rules: it needs a prefix of dot-separated labels and a name (e.g. com.example/my-extension) ${FIX_ID}`,
      `${manifest("several")}#/revisions: error MCPG607: extension jobs/ does not target revision 2026-07-28 (it targets 2025-11-25) ${FIX_TARGET}`,
      `${manifest("several")}#/errorCodes/0/code: error MCPG610: error code -32099 is in -32020..-32099, which is reserved for the MCP specification ${FIX_RANGE}`,
      `${manifest("several")}#/capability/definition: error MCPG613: the manifest's capability.definition names JobsCapability, which the extension's schema does not define ${FIX_NAMED}`,
    ]);
    expectNothingWritten(result);
  });

  it("manifests that cannot be loaded, and an unknown extension", async () => {
    const result = await generateWith([ext("manifest-schema"), "nope"]);
    const lines = diagnosticLines(result.run);
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe(
      `${manifest("manifest-schema")}#/version: error MCPG601: extension manifest: is not a manifest field ${FIX_MANIFEST}`,
    );
    expect(lines[6]).toBe(
      `--extension: error MCPG602: --extension "nope" is neither a known extension, a folder with mcp-extension.json, nor a manifest file (fix: name a known extension (apps, skills, tasks), or the folder or file of your extension's manifest)`,
    );
    expectNothingWritten(result);
  });

  it("the check rules of several extensions", async () => {
    const result = await generateWith([
      ext("id-no-prefix"),
      ext("revision"),
      ext("error-code-reserved"),
    ]);
    expect(
      diagnosticLines(result.run)
        .map((l) => l.slice(0, l.indexOf(": error")))
        .join("\n"),
    ).toBe(
      [
        `${manifest("id-no-prefix")}#/id`,
        `${manifest("revision")}#/revisions`,
        `${manifest("error-code-reserved")}#/errorCodes/0/code`,
      ].join("\n"),
    );
    expectNothingWritten(result);
  });

  it("every collision and conflict found while merging, in the order the extensions are given", async () => {
    const refs = [
      PEER,
      ext("result-type-core"),
      ext("method-core"),
      ext("error-code-core"),
      ext("copy"),
      ext("returns"),
      ext("augment"),
      ext("result-type-peer"),
      ext("method-peer"),
      ext("error-code-peer"),
    ];
    const result = await generateWith(refs);
    expect(diagnosticLines(result.run).map((l) => l.slice(0, l.indexOf(" (fix: ")))).toEqual([
      `${manifest("result-type-core")}#/resultTypes/complete: error MCPG608: resultType "complete" is already defined by the core revision (2026-07-28/schema.ts)`,
      `${schema("method-core")}#/$defs/ListEveryToolRequest: error MCPG609: method "tools/list" is already defined by ${REVISION_DEFINED}`,
      `${manifest("error-code-core")}#/errorCodes/0/code: error MCPG611: error code -32602 is already defined by the core revision (INVALID_PARAMS)`,
      `${manifest("error-code-core")}#/errorCodes/1/code: error MCPG611: error code -32002 is already defined by the core revision (RESOURCE_NOT_FOUND)`,
      `${schema("copy")}#/$defs/Role: error MCPG612: definition Role differs from the one in 2026-07-28/schema.json#/$defs/Role; an extension may copy a definition only unchanged`,
      `${manifest("returns")}#/returns/tools~1run: error MCPG614: the manifest's returns names "tools/run", which is not a request method of this revision`,
      `${manifest("augment")}#/augments/Tool/0: error MCPG615: augmenting Tool: property name is already defined differently (by Tool)`,
      `${manifest("augment")}#/augments/ToolShelf: error MCPG616: cannot extend ToolShelf: the revision does not define it`,
      `${schema("result-type-peer")}#/$defs/EnqueueResult: error MCPG608: resultType "deferred" is already defined by extension com.example/jobs`,
      `${schema("method-peer")}#/definitions/BeginJobRequest: error MCPG609: method "jobs/start" is already defined by extension com.example/jobs`,
      `${manifest("error-code-peer")}#/errorCodes/0/code: error MCPG611: error code -31001 is already defined by extension com.example/jobs`,
    ]);
    expectNothingWritten(result);
  });
});

const TASKS_GENERATED = join(ROOT, "generated", "2026-07-28+tasks");

/**
 * Asserts that `out` holds the files of generated/2026-07-28+tasks, byte for
 * byte but for the banner's Regenerate line, which names the command that was run.
 */
function expectCommittedTasksOutput(out: string, command: string): void {
  expect(listFiles(out)).toEqual(listFiles(TASKS_GENERATED));
  for (const file of listFiles(TASKS_GENERATED)) {
    const committed = readFileSync(join(TASKS_GENERATED, file), "utf8");
    expect(committed, `${file} names npm run generate`).toContain(
      " * Regenerate: npm run generate\n",
    );
    const written = readFileSync(join(out, file), "utf8");
    expect(written, `${file} names the command that was run`).toContain(
      ` * Regenerate: ${command}\n`,
    );
    expect(
      written.replace(` * Regenerate: ${command}\n`, " * Regenerate: npm run generate\n"),
      file,
    ).toBe(committed);
  }
}

describe.concurrent("--extension tasks", () => {
  it("generates exactly the committed generated/2026-07-28+tasks, with the extension in every banner", async () => {
    const { run, out } = await generateWith(["tasks"], { extra: ["--quiet"] });
    expect(run.stderrLines).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`wrote ${listFiles(TASKS_GENERATED).length} files to ${out}\n`);
    for (const file of listFiles(out).filter((f) => f.endsWith(".ts"))) {
      expect(readFileSync(join(out, file), "utf8"), file).toContain(
        "\n * Options: extensions: io.modelcontextprotocol/tasks\n",
      );
    }
    expectCommittedTasksOutput(
      out,
      `mcp-gen generate --spec ${SPEC} --extension tasks --out . (run in this file's folder)`,
    );
  });

  // The other ways to name it resolve to the same extension: the same manifest (file locations
  // aside), schema and schema.ts, which is everything generation reads of an extension. Compared
  // where they are loaded, in process; the full run through the command line is the test above.
  it("its identifier io.modelcontextprotocol/tasks is the same extension", async () => {
    expect(await loaded("io.modelcontextprotocol/tasks")).toEqual(await loaded("tasks"));
  });

  it("its manifest file, by absolute path, is the same extension", async () => {
    const file = join(ROOT, "schema", "extensions", "tasks.json");
    expect(await loaded(file)).toEqual(await loaded("tasks"));
  });

  it("a folder of one's own with mcp-extension.json and the same files as plain paths is the same extension", async () => {
    const folder = tempDir("tasks-ext");
    for (const f of ["schema.json", "schema.ts"])
      copyFileSync(join(SCHEMA_DIR, "extensions", "tasks", f), join(folder, f));
    const { $schema: _unused, ...known } = JSON.parse(
      readFileSync(join(ROOT, "schema", "extensions", "tasks.json"), "utf8"),
    ) as Record<string, unknown>;
    writeFileSync(
      join(folder, "mcp-extension.json"),
      JSON.stringify({ ...known, schema: "schema.json", schemaTs: "schema.ts" }, null, 2),
    );
    expect(await loaded(folder)).toEqual(await loaded("tasks"));
  });

  it("an unknown --extension nope is MCPG602, listing the known extensions", async () => {
    const result = await generateWith(["nope"]);
    expect(diagnosticLines(result.run)).toEqual([
      `--extension: error MCPG602: --extension "nope" is neither a known extension, a folder with mcp-extension.json, nor a manifest file (fix: name a known extension (apps, skills, tasks), or the folder or file of your extension's manifest)`,
    ]);
    expectNothingWritten(result);
  });

  it("a folder without mcp-extension.json is MCPG602 too", async () => {
    const folder = tempDir("empty-ext");
    const result = await generateWith([folder]);
    expect(diagnosticLines(result.run)).toEqual([
      `--extension: error MCPG602: --extension "${folder}" is neither a known extension, a folder with mcp-extension.json, nor a manifest file (fix: name a known extension (apps, skills, tasks), or the folder or file of your extension's manifest)`,
    ]);
    expectNothingWritten(result);
  });
});
