/**
 * The Skills extension (io.modelcontextprotocol/skills, SEP-2640) served
 * from skills given as files: each file of a skill is a resource under
 * `skill://<skill-path>/<file-path>`, read with resources/read;
 * `skills/list` and `skills/get` answer entries with the frontmatter as
 * given (verbatim, parsed by the caller from SKILL.md's YAML) and every
 * file with its `sha256:` digest and size; `resources/directory/read`
 * lists a directory's direct children. The skills are checked when they
 * are served, so a server never publishes one a conforming host may
 * refuse: a name the Agent Skills rules refuse, a path whose last segment
 * is not the name, no SKILL.md, more than 512 files or 16 MiB.
 *
 * Nothing here reads files: the caller gives the bytes (a project's
 * src/skills.ts reads them from a folder), so this layer stays free of
 * I/O, as the runtime's server/ is.
 */
import { createHash } from "node:crypto";
import { invalidParams } from "../core/errors.js";
import type { ResourceContents } from "./content.js";
import type { ServerExtension } from "./extension.js";
import type { McpServer } from "./server.js";

/** The Skills extension's identifier. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The per-skill limits every conforming host accepts (spec: Limits). */
export const SKILL_LIMITS = { resources: 512, bytes: 16 * 1024 * 1024 } as const;

/** One file of a skill. */
export interface SkillFile {
  /** Its path relative to the skill's root, `/`-separated (`SKILL.md`, `templates/invoice.md`). */
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Default: text/markdown for .md, else text/plain when it is UTF-8, else application/octet-stream. */
  readonly mimeType?: string;
}

/** A skill: a directory of files, SKILL.md among them. */
export interface Skill {
  /** Its path in the server's namespace (`git-workflow`, `acme/billing/refunds`); the last segment is its name. */
  readonly path: string;
  /** SKILL.md's YAML frontmatter as a JSON object, verbatim: `name` and `description` at least. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly files: readonly SkillFile[];
}

/** How the skills are served. */
export interface SkillsOptions {
  /** Entries per skills/list page, and children per resources/directory/read page (default 100). */
  readonly pageSize?: number;
  /** The caching hints of skills/list and skills/get (default 0 and "private", as lists'). */
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

const SKILL_MD = "SKILL.md";
const DIRECTORY = "inode/directory";
/** Agent Skills' name rule: 1-64 lowercase letters, digits and hyphens, no hyphen at either end or twice in a row. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEGMENT = /^[^/?#\s]+$/;

interface Served {
  readonly uri: string;
  readonly entry: Readonly<Record<string, unknown>>;
}

/**
 * Serves `skills` on `server`: their files as resources, the Skills
 * extension's three methods, and the extension declared with
 * `directoryRead: true`. Throws (a mistake of the server's author, at
 * start) for a skill a conforming host could refuse.
 */
export function serveSkills(
  server: McpServer,
  skills: readonly Skill[],
  options: SkillsOptions = {},
): McpServer {
  const pageSize = options.pageSize ?? 100;
  const hints = { ttlMs: options.ttlMs ?? 0, cacheScope: options.cacheScope ?? "private" };
  const served: Served[] = [];
  /** Every directory of the namespace, by URI: its direct children as Resource metadata. */
  const directories = new Map<string, Map<string, Record<string, unknown>>>();
  for (const skill of skills) {
    checkSkill(skill);
    const root = `skill://${skill.path}`;
    const resources = skill.files.map((file) => {
      const uri = `${root}/${file.path}`;
      const mimeType = file.mimeType ?? mimeTypeOf(file);
      const isSkillMd = file.path === SKILL_MD;
      const definition = {
        uri,
        name: isSkillMd ? String(skill.frontmatter.name) : basename(file.path),
        mimeType,
        ...(isSkillMd ? { description: String(skill.frontmatter.description) } : {}),
      };
      server.resource(definition, () => ({ contents: [contentOf(uri, mimeType, file.bytes)] }));
      addToDirectories(directories, root, file.path, { uri, name: basename(file.path), mimeType });
      return { uri, digest: digestOf(file.bytes), size: file.bytes.byteLength };
    });
    const uri = `${root}/${SKILL_MD}`;
    served.push({ uri, entry: { uri, frontmatter: skill.frontmatter, resources } });
  }
  const extension: ServerExtension = {
    id: SKILLS_EXTENSION,
    capability: { directoryRead: true },
    methods: {
      "skills/list": (params) => {
        const { items, nextCursor } = page(served, params.cursor, pageSize);
        return { skills: items.map((s) => s.entry), ...hints, ...nextCursor };
      },
      "skills/get": (params) => {
        const skill = served.find((s) => s.uri === params.uri);
        if (!skill) throw invalidParams(`No skill is served at ${String(params.uri)}`);
        return { skill: skill.entry, ...hints };
      },
      "resources/directory/read": (params) => {
        const children = directories.get(String(params.uri));
        if (!children)
          throw invalidParams(`${String(params.uri)} is not a directory resource of this server`);
        const { items, nextCursor } = page([...children.values()], params.cursor, pageSize);
        return { resources: items, ...nextCursor };
      },
    },
  };
  return server.use(extension);
}

/** Throws for a skill a conforming host could refuse (spec: Skill Format, Resource Mapping, Limits). */
function checkSkill(skill: Skill): void {
  const segments = skill.path.split("/");
  const name = skill.frontmatter.name;
  const problem = !segments.every((s) => SEGMENT.test(s))
    ? "its path has an empty or unusable segment"
    : typeof name !== "string" || !SKILL_NAME.test(name)
      ? "its frontmatter's name breaks the Agent Skills naming rules (1-64 of a-z, 0-9 and single hyphens inside)"
      : segments.at(-1) !== name
        ? `the last segment of its path is not its name "${name}"`
        : typeof skill.frontmatter.description !== "string" || skill.frontmatter.description === ""
          ? "its frontmatter has no description"
          : !skill.files.some((f) => f.path === SKILL_MD)
            ? "it has no SKILL.md at its root"
            : skill.files.length > SKILL_LIMITS.resources
              ? `it has ${skill.files.length} files, more than ${SKILL_LIMITS.resources}`
              : total(skill.files) > SKILL_LIMITS.bytes
                ? `its files hold ${total(skill.files)} bytes, more than ${SKILL_LIMITS.bytes}`
                : undefined;
  if (problem) throw new Error(`skill ${skill.path}: ${problem}`);
}

function total(files: readonly SkillFile[]): number {
  return files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
}

/** `sha256:{hex}` of the raw bytes (spec: Integrity and Verification). */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Text when the bytes are UTF-8 (the same bytes again when the client encodes it), else a blob. */
function contentOf(uri: string, mimeType: string, bytes: Uint8Array): ResourceContents {
  const text = utf8(bytes);
  return text !== undefined ? { uri, mimeType, text } : { uri, mimeType, blob: base64(bytes) };
}

/** Base64 without Buffer (the Fetch entry's runtimes need not have it). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function mimeTypeOf(file: SkillFile): string {
  if (file.path.endsWith(".md")) return "text/markdown";
  return utf8(file.bytes) !== undefined ? "text/plain" : "application/octet-stream";
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Files `path` under the skill `root`, and each directory on its way under its parent. */
function addToDirectories(
  directories: Map<string, Map<string, Record<string, unknown>>>,
  root: string,
  path: string,
  resource: Record<string, unknown>,
): void {
  const parts = path.split("/");
  let directory = root;
  for (const part of parts.slice(0, -1)) {
    const child = `${directory}/${part}`;
    childrenOf(directories, directory).set(child, { uri: child, name: part, mimeType: DIRECTORY });
    directory = child;
  }
  childrenOf(directories, directory).set(String(resource.uri), resource);
}

function childrenOf(
  directories: Map<string, Map<string, Record<string, unknown>>>,
  uri: string,
): Map<string, Record<string, unknown>> {
  let children = directories.get(uri);
  if (!children) directories.set(uri, (children = new Map<string, Record<string, unknown>>()));
  return children;
}

/** One page of `items` from `cursor` (the offset, as a decimal string); -32602 for a cursor this server did not give. */
function page<T>(
  items: readonly T[],
  cursor: unknown,
  size: number,
): { items: readonly T[]; nextCursor: { nextCursor?: string } } {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (
    cursor !== undefined &&
    (typeof cursor !== "string" || !/^\d+$/.test(cursor) || start > items.length)
  )
    throw invalidParams("Invalid cursor");
  const end = start + size;
  return {
    items: items.slice(start, end),
    nextCursor: end < items.length ? { nextCursor: String(end) } : {},
  };
}
