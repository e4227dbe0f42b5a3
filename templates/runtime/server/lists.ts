/**
 * The four list requests as pages (spec: pagination): `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list` answer
 * at most `pageSize` items and a sealed `nextCursor` (cursors.ts) while
 * more follow, and carry the caching hints configured for lists (spec:
 * caching), which the modern era keeps and the legacy era drops.
 */
import { CursorCodec, listDigest } from "./cursors.js";

/** The page size when nothing sets one: lists of up to 100 items come whole from one request. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest page size a server accepts. */
export const MAX_PAGE_SIZE = 10_000;
/** The environment variable that sets the page size at run time (it wins over mcp-gen.json). */
export const PAGE_SIZE_VARIABLE = "MCP_LIST_PAGE_SIZE";

/** How a server pages its lists and which caching hints they carry. */
export interface ListOptions {
  /** The most items of one page, 1 to 10000 (default 100). */
  readonly pageSize?: number;
  /** How long a client may keep a list page, in milliseconds (`ttlMs`; unset: the server's `cache`). */
  readonly ttlMs?: number;
  /** Who may keep a list page (`cacheScope`; unset: the server's `cache`). */
  readonly cacheScope?: "public" | "private";
  /** Signs cursors; default: the key of MCP_CURSOR_KEY (or MCP_REQUEST_STATE_KEY), else a random one. */
  readonly cursors?: CursorCodec;
}

/** mcp-gen.json's `lists` of a server project (src/generated/lists.gen.ts). */
export interface ListDefaults {
  readonly pageSize?: number;
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

/**
 * The list options of a scaffolded server: mcp-gen.json's `lists`
 * (`defaults`), with MCP_LIST_PAGE_SIZE winning over its page size.
 */
export function listOptionsFromEnvironment(
  defaults: ListDefaults = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): ListOptions {
  const text = env[PAGE_SIZE_VARIABLE]?.trim();
  if (!text) return { ...defaults };
  const pageSize = Number(text);
  if (!/^\d+$/.test(text) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw new Error(
      `${PAGE_SIZE_VARIABLE} must be a whole number from 1 to ${MAX_PAGE_SIZE}, not ${JSON.stringify(text)}`,
    );
  return { ...defaults, pageSize };
}

/** The list requests, the field of their items, and what names an item. */
export const LIST_METHODS = {
  "tools/list": { items: "tools", key: "name" },
  "resources/list": { items: "resources", key: "uri" },
  "resources/templates/list": { items: "resourceTemplates", key: "uriTemplate" },
  "prompts/list": { items: "prompts", key: "name" },
} as const;

/** A list request. */
export type ListMethod = keyof typeof LIST_METHODS;

/** Pages the lists of one server. */
export class ListPager {
  readonly pageSize: number;
  readonly cursors: CursorCodec;
  private readonly hints: Readonly<Record<string, unknown>>;

  constructor(options: ListOptions = {}) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
      throw new Error(
        `lists.pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}, not ${pageSize}`,
      );
    if (options.ttlMs !== undefined && (!Number.isSafeInteger(options.ttlMs) || options.ttlMs < 0))
      throw new Error(
        `lists.ttlMs must be a whole number of milliseconds of 0 or more, not ${options.ttlMs}`,
      );
    this.pageSize = pageSize;
    this.cursors = options.cursors ?? CursorCodec.fromEnvironment();
    this.hints = {
      ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
      ...(options.cacheScope !== undefined ? { cacheScope: options.cacheScope } : {}),
    };
  }

  /**
   * The page of `items` that `params.cursor` asks for (the first without
   * one), with `nextCursor` while items follow and the list's caching
   * hints. A cursor that does not open is -32602 (spec: pagination).
   */
  page<Item extends Readonly<Record<string, unknown>>, Shown>(
    method: ListMethod,
    items: readonly Item[],
    params: Readonly<Record<string, unknown>> | undefined,
    show: (item: Item) => Shown,
  ): Record<string, unknown> {
    const { items: field, key } = LIST_METHODS[method];
    const list = listDigest(items.map((item) => String(item[key])));
    const cursor = params?.cursor;
    const start = cursor === undefined ? 0 : this.cursors.open(cursor, method, list);
    const end = Math.min(start + this.pageSize, items.length);
    return {
      [field]: items.slice(start, end).map(show),
      ...(end < items.length
        ? { nextCursor: this.cursors.seal({ method, offset: end, list }) }
        : {}),
      ...this.hints,
    };
  }
}
