/**
 * A server's lists as a client reads them whole: `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list` are
 * followed page by page along `nextCursor` (spec: pagination), within a
 * bound of pages and items so that a server cannot keep the client
 * listing forever, and a cursor seen twice is a loop. Each page is kept
 * for its `ttlMs` (spec: caching) and dropped at once by the matching
 * `notifications/…/list_changed`.
 */
import { Codes, McpError, RemoteError } from "../core/errors.js";

/** The most pages one list may take unless the client says otherwise. */
export const DEFAULT_MAX_PAGES = 100;
/** The most items one list may hold unless the client says otherwise. */
export const DEFAULT_MAX_ITEMS = 10_000;

/** How far a client follows a server's pages. */
export interface ListLimits {
  /** The most pages of one list (default 100); past it the list fails. */
  readonly maxPages?: number;
  /** The most items of one list (default 10000); past it the list fails. */
  readonly maxItems?: number;
}

/** The list requests, the field of their items, and the notification that says they changed. */
export const LISTS = {
  "tools/list": { items: "tools", changed: "notifications/tools/list_changed" },
  "resources/list": { items: "resources", changed: "notifications/resources/list_changed" },
  "resources/templates/list": {
    items: "resourceTemplates",
    changed: "notifications/resources/list_changed",
  },
  "prompts/list": { items: "prompts", changed: "notifications/prompts/list_changed" },
} as const;

/** A list request. */
export type ListMethod = keyof typeof LISTS;

/** A list that could not be read whole: too many pages or items, or a cursor loop; `reason` says which. */
export class ListError extends McpError {
  constructor(
    method: ListMethod,
    readonly reason: "too_many_pages" | "too_many_items" | "cursor_loop",
    detail: string,
  ) {
    super(Codes.InternalError, `${method}: ${detail}`, { reason });
    this.name = "ListError";
  }
}

/** Fetches one page of a list: its checked result. */
export type FetchPage = (
  method: ListMethod,
  params: Readonly<Record<string, unknown>>,
) => Promise<Record<string, unknown>>;

interface CachedPage {
  readonly result: Record<string, unknown>;
  readonly freshUntil: number;
}

/** Reads lists whole and keeps their pages for as long as the server allows. */
export class ListReader {
  private readonly maxPages: number;
  private readonly maxItems: number;
  /** Kept pages by method, then by cursor (undefined for the first page, which has none). */
  private readonly pages = new Map<ListMethod, Map<string | undefined, CachedPage>>();

  constructor(
    limits: ListLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxPages = limits.maxPages ?? DEFAULT_MAX_PAGES;
    this.maxItems = limits.maxItems ?? DEFAULT_MAX_ITEMS;
    for (const [name, value] of Object.entries({
      maxPages: this.maxPages,
      maxItems: this.maxItems,
    }))
      if (!Number.isSafeInteger(value) || value < 1)
        throw new Error(`lists.${name} must be a whole number of 1 or more, not ${value}`);
  }

  /**
   * Every item of `method`, page after page. A cursor the server refuses
   * (-32602: its list changed, or another instance could not open it)
   * drops the pages kept and starts over once from the first page (spec:
   * caching, interaction with pagination).
   */
  async all(method: ListMethod, fetch: FetchPage): Promise<unknown[]> {
    try {
      return await this.walk(method, fetch);
    } catch (error) {
      if (!(error instanceof StaleCursor)) throw error;
      this.forget(method);
    }
    try {
      return await this.walk(method, fetch);
    } catch (error) {
      throw error instanceof StaleCursor ? error.refusal : error;
    }
  }

  /** Drops the pages kept of one list. */
  forget(method: ListMethod): void {
    this.pages.delete(method);
  }

  /** Drops the pages a notification says are out of date; other notifications change nothing. */
  invalidate(notification: string): void {
    for (const [method, { changed }] of Object.entries(LISTS))
      if (changed === notification) this.forget(method as ListMethod);
  }

  private async walk(method: ListMethod, fetch: FetchPage): Promise<unknown[]> {
    const items: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      if (pages > this.maxPages)
        throw new ListError(
          method,
          "too_many_pages",
          `the server still sent a nextCursor after ${this.maxPages} pages (lists.maxPages)`,
        );
      const page = await this.page(method, cursor, fetch);
      const field = page[LISTS[method].items];
      if (Array.isArray(field)) items.push(...(field as unknown[]));
      if (items.length > this.maxItems)
        throw new ListError(
          method,
          "too_many_items",
          `the server listed more than ${this.maxItems} items (lists.maxItems)`,
        );
      // Any string is a cursor, the empty one too (spec: pagination); only its absence ends the list.
      if (typeof page.nextCursor !== "string") return items;
      if (seen.has(page.nextCursor))
        throw new ListError(
          method,
          "cursor_loop",
          `the server sent a nextCursor it had sent before, after ${pages} pages (a loop)`,
        );
      seen.add(page.nextCursor);
      cursor = page.nextCursor;
    }
  }

  /** One page: kept while fresh, else fetched (and kept for its ttlMs). */
  private async page(
    method: ListMethod,
    cursor: string | undefined,
    fetch: FetchPage,
  ): Promise<Record<string, unknown>> {
    const kept = this.pages.get(method)?.get(cursor);
    if (kept && this.now() < kept.freshUntil) return kept.result;
    let result: Record<string, unknown>;
    try {
      result = await fetch(method, cursor === undefined ? {} : { cursor });
    } catch (error) {
      if (
        cursor !== undefined &&
        error instanceof RemoteError &&
        error.code === Codes.InvalidParams
      )
        throw new StaleCursor(error);
      throw error;
    }
    this.keep(method, cursor, result);
    return result;
  }

  /** Keeps a page for its ttlMs (absent, 0 or negative: not at all), at most maxPages per list. */
  private keep(
    method: ListMethod,
    cursor: string | undefined,
    result: Record<string, unknown>,
  ): void {
    const ttlMs = typeof result.ttlMs === "number" && result.ttlMs > 0 ? result.ttlMs : 0;
    const kept = this.pages.get(method) ?? new Map<string | undefined, CachedPage>();
    kept.delete(cursor);
    if (ttlMs === 0) return;
    const now = this.now();
    for (const [key, page] of kept) if (page.freshUntil <= now) kept.delete(key);
    if (kept.size >= this.maxPages) kept.clear();
    kept.set(cursor, { result, freshUntil: now + ttlMs });
    this.pages.set(method, kept);
  }
}

/** A cursor the server refused in the middle of a list: the list is read again from the start. */
class StaleCursor extends Error {
  constructor(readonly refusal: RemoteError) {
    super(refusal.message);
  }
}
