/**
 * `subscriptions/listen` (2026-07-28): long-lived streams of change
 * notifications, each filtered by what its client opted in to and tagged
 * with the listen request's id. Legacy sessions get the same changes on
 * their GET stream.
 */

/** What a listen request may ask for (SubscriptionFilter). */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}

/** A change the server publishes. */
export type Change =
  | { readonly kind: "tools" | "prompts" | "resources" }
  | { readonly kind: "resource"; readonly uri: string };

/** Something that receives changes: a listen stream, or a legacy session. */
export interface ChangeListener {
  deliver(change: Change): void;
}

const FILTER_KEY = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
} as const;
const LIST_CHANGED = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
} as const;

/** The notification a change becomes. */
export function changeNotification(
  change: Change,
  meta?: Record<string, unknown>,
): Record<string, unknown> {
  const params: Record<string, unknown> = change.kind === "resource" ? { uri: change.uri } : {};
  if (meta) params._meta = meta;
  return {
    jsonrpc: "2.0",
    method:
      change.kind === "resource" ? "notifications/resources/updated" : LIST_CHANGED[change.kind],
    params,
  };
}

/** Whether a filter asks for a change. */
export function wants(filter: SubscriptionFilter, change: Change): boolean {
  if (change.kind === "resource")
    return filter.resourceSubscriptions?.includes(change.uri) === true;
  return filter[FILTER_KEY[change.kind]] === true;
}

/** The listeners of one server. */
export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();

  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener.deliver(change);
  }

  get size(): number {
    return this.listeners.size;
  }
}
