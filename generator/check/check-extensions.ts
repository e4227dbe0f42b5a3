/**
 * Check rules for extensions that need nothing but the extension itself
 * (collisions with the core revision and with other extensions are found
 * when they are merged):
 * - the extension's schema passes the same rules as a revision's;
 * - the identifier follows the `_meta` key rules, with a prefix;
 * - a reserved prefix is used only by an MCP extension (a warning);
 * - the extension targets the revision being generated;
 * - its error codes stay out of -32020..-32099;
 * - every definition the manifest names exists in its schema;
 * - every channel a message is placed on is one the manifest declares;
 * - the negotiation rule names only the extension's messages on the MCP
 *   connection, and "@result" only when it adds resultTypes (or returns results for core methods);
 * - each extension is given once.
 * It also passes on what loading found: the patches that repaired the
 * schema as read (a note each) and a derived schema's TypeScript errors.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { escapePointerSegment } from "../load/json.js";
import { definitionsOf } from "../load/schema-json.js";
import type { ExtensionSource, SourceSet } from "../load/types.js";
import { checkDefinitionNames, checkDialects, checkRefCycles, checkRefs } from "./check-sources.js";

const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
/** `_meta` key rules (MetaObject), with the prefix mandatory and the name non-empty. */
const EXTENSION_ID = new RegExp(
  `^(${LABEL}(?:\\.${LABEL})*)/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`,
);

/** Every extension rule, for every extension of the run. */
export function checkExtensions(sources: SourceSet): Diagnostic[] {
  return [
    ...sources.extensions.flatMap((ext) => [
      ...checkDialects(ext.schema),
      ...checkDefinitionNames(ext.schema),
      ...checkRefs(ext.schema),
      ...checkRefCycles(ext.schema),
      ...checkIdentifier(ext),
      ...checkTargets(ext, sources),
      ...checkErrorCodeRange(ext),
      ...checkNamedDefinitions(ext),
      ...checkReturnsServed(ext),
      ...checkChannels(ext),
      ...checkNegotiation(ext),
      ...loadNotes(ext),
    ]),
    ...checkGivenOnce(sources.extensions),
  ];
}

/** Rule: the identifier follows the `_meta` key rules with a prefix; a reserved prefix needs `mcp: true`. */
export function checkIdentifier(ext: ExtensionSource): Diagnostic[] {
  const where = { file: ext.manifestFile, pointer: "/id" };
  const match = EXTENSION_ID.exec(ext.manifest.id);
  if (!match) return [diagnostic("MCPG605", { id: ext.manifest.id }, where)];
  const second = match[1]!.split(".")[1];
  const reserved = second === "modelcontextprotocol" || second === "mcp";
  return reserved && ext.manifest.mcp !== true
    ? [diagnostic("MCPG606", { id: ext.manifest.id }, where)]
    : [];
}

/** Rule: the extension targets the revision being generated (by name, or a custom spec's declared protocol version). */
export function checkTargets(ext: ExtensionSource, sources: SourceSet): Diagnostic[] {
  const declared = sources.schemaTs?.constants.LATEST_PROTOCOL_VERSION?.value;
  const revision = sources.known
    ? sources.revision
    : typeof declared === "string"
      ? declared
      : undefined;
  if (revision === undefined || ext.manifest.revisions.includes(revision)) return [];
  return [
    diagnostic(
      "MCPG607",
      { id: ext.manifest.id, revision, targets: ext.manifest.revisions },
      { file: ext.manifestFile, pointer: "/revisions" },
    ),
  ];
}

/** Rule: no extension error code in -32020..-32099. */
export function checkErrorCodeRange(ext: ExtensionSource): Diagnostic[] {
  return (ext.manifest.errorCodes ?? []).flatMap((c, i) =>
    c.code <= -32020 && c.code >= -32099
      ? [
          diagnostic(
            "MCPG610",
            { code: c.code },
            { file: ext.manifestFile, pointer: `/errorCodes/${i}/code` },
          ),
        ]
      : [],
  );
}

/**
 * Rule: each extension is given once. The same extension twice (`tasks` and
 * `io.modelcontextprotocol/tasks`) would otherwise collide with itself.
 */
export function checkGivenOnce(extensions: readonly ExtensionSource[]): Diagnostic[] {
  return extensions.flatMap((ext, i) => {
    const first = extensions.findIndex((e) => e.manifest.id === ext.manifest.id);
    return first < i
      ? [
          diagnostic(
            "MCPG617",
            { id: ext.manifest.id, first: extensions[first]!.manifestFile },
            { file: ext.manifestFile, pointer: "/id" },
          ),
        ]
      : [];
  });
}

/**
 * The core requests whose handlers may answer with an extension's result
 * in mcp-gen's runtime: the server sends such a result after negotiation,
 * checked against the merged schema (templates/runtime/server/features.ts).
 */
export const RETURNS_SERVED: readonly string[] = ["tools/call", "prompts/get", "resources/read"];

/**
 * Rule (a warning): `returns` for another core request is typed in the
 * generated code, but a server made with mcp-gen cannot send it; said at
 * generation rather than found by a user whose handler's result is refused.
 */
export function checkReturnsServed(ext: ExtensionSource): Diagnostic[] {
  return Object.keys(ext.manifest.returns ?? {})
    .filter((method) => !RETURNS_SERVED.includes(method))
    .map((method) =>
      diagnostic(
        "MCPG618",
        { id: ext.manifest.id, method, served: RETURNS_SERVED },
        { file: ext.manifestFile, pointer: `/returns/${escapePointerSegment(method)}` },
      ),
    );
}

/** Rule: every definition the manifest names is one of the extension's. */
export function checkNamedDefinitions(ext: ExtensionSource): Diagnostic[] {
  const defined = new Set(Object.keys(definitionsOf(ext.schema)));
  const m = ext.manifest;
  const named: Array<[string, string, string]> = [
    ...(m.capability?.definition
      ? [
          ["capability.definition", m.capability.definition, "/capability/definition"] as [
            string,
            string,
            string,
          ],
        ]
      : []),
    ...Object.entries(m.members ?? {}).flatMap(([core, paths]) =>
      Object.entries(paths).map(
        ([path, d]) =>
          [
            `members.${core}["${path}"]`,
            d,
            `/members/${escapePointerSegment(core)}/${escapePointerSegment(path)}`,
          ] as [string, string, string],
      ),
    ),
    ...Object.entries(m.returns ?? {}).flatMap(([method, defs]) =>
      defs.map(
        (d, i) =>
          [`returns["${method}"]`, d, `/returns/${escapePointerSegment(method)}/${i}`] as [
            string,
            string,
            string,
          ],
      ),
    ),
    ...Object.entries(m.augments ?? {}).flatMap(([core, defs]) =>
      defs.map(
        (d, i) =>
          [`augments.${core}`, d, `/augments/${escapePointerSegment(core)}/${i}`] as [
            string,
            string,
            string,
          ],
      ),
    ),
    ...Object.entries(m.requests ?? {}).flatMap(([method, r]) =>
      r.result
        ? [
            [
              `requests["${method}"].result`,
              r.result,
              `/requests/${escapePointerSegment(method)}/result`,
            ] as [string, string, string],
          ]
        : [],
    ),
    ...(m.errorCodes ?? []).flatMap((c, i) =>
      c.definition
        ? [
            [`errorCodes[${i}].definition`, c.definition, `/errorCodes/${i}/definition`] as [
              string,
              string,
              string,
            ],
          ]
        : [],
    ),
  ];
  return named
    .filter(([, name]) => !defined.has(name))
    .map(([field, name, pointer]) =>
      diagnostic("MCPG613", { field, name }, { file: ext.manifestFile, pointer }),
    );
}

/** Rule: a message's channel (its own, or the manifest's) is one of the manifest's channels. */
export function checkChannels(ext: ExtensionSource): Diagnostic[] {
  const m = ext.manifest;
  const known = Object.keys(m.channels ?? {});
  const placed: Array<[string | undefined, string]> = [
    [m.channel, "/channel"],
    ...Object.entries(m.requests ?? {}).map(
      ([method, r]) =>
        [r.channel, `/requests/${escapePointerSegment(method)}/channel`] as [
          string | undefined,
          string,
        ],
    ),
    ...Object.entries(m.notifications ?? {}).map(
      ([method, n]) =>
        [n.channel, `/notifications/${escapePointerSegment(method)}/channel`] as [
          string | undefined,
          string,
        ],
    ),
  ];
  return placed
    .filter(([channel]) => channel !== undefined && channel !== "mcp" && !known.includes(channel))
    .map(([channel, pointer]) =>
      diagnostic("MCPG623", { channel: channel!, known }, { file: ext.manifestFile, pointer }),
    );
}

/** Rule: the negotiation rule is keyed by the extension's own messages on the MCP connection, or "@result". */
export function checkNegotiation(ext: ExtensionSource): Diagnostic[] {
  const m = ext.manifest;
  const onMcp = (channel: string | undefined) => (channel ?? m.channel ?? "mcp") === "mcp";
  const messages = [
    ...Object.entries(m.requests ?? {}).filter(([, r]) => onMcp(r.channel)),
    ...Object.entries(m.notifications ?? {}).filter(([, n]) => onMcp(n.channel)),
  ].map(([method]) => method);
  // An extension adds resultTypes through the results it returns for core methods (or documents them).
  if (Object.keys(m.resultTypes ?? {}).length > 0 || Object.keys(m.returns ?? {}).length > 0)
    messages.push("@result");
  return Object.keys(m.negotiation ?? {})
    .filter((key) => !messages.includes(key))
    .map((key) =>
      diagnostic(
        "MCPG624",
        { key, messages },
        { file: ext.manifestFile, pointer: `/negotiation/${escapePointerSegment(key)}` },
      ),
    );
}

/** What loading the extension found: a note per patch that repaired its schema, and its TypeScript's errors. */
function loadNotes(ext: ExtensionSource): Diagnostic[] {
  return [
    ...(ext.sourcePatches ?? []).map((p) =>
      diagnostic("MCPG303", { patch: p.id, why: p.why }, { file: p.file }),
    ),
    ...(ext.notes ?? []),
  ];
}
