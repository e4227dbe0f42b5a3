/**
 * The registry of known MCP revisions (schema/revisions.json): canonical
 * upstream URLs and pinned sha256 of each file (the schemas, and the
 * example messages upstream ships beside them), plus facts about each
 * revision that generating one revision needs to know about the others
 * (which methods and error codes each defines).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";
import type { Dialect } from "../shared/json-schema-dialects.js";
import type { ArchiveMember } from "./archive-member.js";

/** A pinned upstream file. */
export interface PinnedFile {
  /** Where to download it: the file itself, or the archive holding it (see `archive`). */
  readonly url: string;
  /** The file's own sha256 (of the member, for a file inside an archive). */
  readonly sha256: string;
  /** Set when upstream publishes the file only inside a package: `url` is then the gzipped tar archive. */
  readonly archive?: ArchiveMember;
}

/** What the registry records about one revision. */
export interface RegistryRevision {
  readonly dialect: Dialect;
  readonly files: { readonly "schema.json": PinnedFile; readonly "schema.ts": PinnedFile };
  /**
   * Example messages upstream ships with the revision, by path below
   * `<revision>/examples/` (`CallToolRequest/call-tool.json`). Generation
   * never reads them; `mcp-gen schema pull` fetches them with the schemas.
   */
  readonly examples?: Readonly<Record<string, PinnedFile>>;
  /** Request methods the revision defines. */
  readonly methods: readonly string[];
  /** Notification methods the revision defines. */
  readonly notifications: readonly string[];
  /** Error code constants the revision's schema.ts exports, by constant name. */
  readonly errorCodes: Readonly<Record<string, number>>;
}

/** An error code that a revision defines in its specification text rather than its schema. */
export interface SpecTextErrorCode {
  readonly constant: string;
  readonly code: number;
  readonly revisions: readonly string[];
  readonly doc: string;
  readonly source: string;
}

/** The whole registry. */
export interface Registry {
  readonly upstream: { readonly repository: string; readonly commit: string };
  readonly revisions: Readonly<Record<string, RegistryRevision>>;
  readonly specTextErrorCodes: readonly SpecTextErrorCode[];
  /**
   * Further upstream files, by the folder they are kept in below
   * MCP_GEN_SCHEMA_DIR and the cache (`extensions/tasks`), then by name:
   * texts mcp-gen's own tests read, such as an extension's specification.
   * `mcp-gen schema pull --all` fetches them.
   */
  readonly documents: Readonly<Record<string, Readonly<Record<string, PinnedFile>>>>;
}

/** schema/revisions.json as scripts/registry/index.ts writes it: facts a revision lacks take defaults. */
export interface RevisionsFile {
  readonly upstream: Registry["upstream"];
  readonly revisions: Readonly<Record<string, Partial<RegistryRevision>>>;
  readonly documents?: Registry["documents"];
}

/** schema/error-codes.json. */
interface ErrorCodesFile {
  readonly codes: readonly SpecTextErrorCode[];
}

let cached: Registry | undefined;

/** Reads schema/revisions.json and schema/error-codes.json once per process. */
export function readRegistry(): Registry {
  if (cached) return cached;
  const root = join(packageRoot(), "schema");
  // Both files ship with mcp-gen and are written by its own script, so their shape is trusted.
  const revisions = JSON.parse(readFileSync(join(root, "revisions.json"), "utf8")) as RevisionsFile;
  const codes = JSON.parse(readFileSync(join(root, "error-codes.json"), "utf8")) as ErrorCodesFile;
  const entries = Object.entries(revisions.revisions).map(
    ([name, entry]): [string, RegistryRevision] => [
      name,
      { methods: [], notifications: [], errorCodes: {}, ...entry } as RegistryRevision,
    ],
  );
  cached = {
    upstream: revisions.upstream,
    revisions: Object.fromEntries(entries),
    specTextErrorCodes: codes.codes,
    documents: revisions.documents ?? {},
  };
  return cached;
}

/** Known revision names, oldest first. */
export function knownRevisions(registry: Registry): string[] {
  return Object.keys(registry.revisions).sort();
}
