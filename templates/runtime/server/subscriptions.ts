/**
 * `subscriptions/listen` (2026-07-28): long-lived streams of change
 * notifications, each filtered by what its client opted in to and tagged
 * with the listen request's id. Legacy sessions get the same changes on
 * their standalone stream (spec: subscriptions).
 */
import { META } from "../core/era.js";
import { EndedByServer, principalKey, type Exchange } from "../core/exchange.js";
import { isJsonObject, type JsonRpcId } from "../core/jsonrpc.js";

/** What a listen request may ask for (SubscriptionFilter). */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /**
   * The fields extensions add, each a list of keys: the Tasks extension's
   * `taskIds` (tasks whose `notifications/tasks` the client wants), or a
   * project's own (ServerExtension.listenFields).
   */
  readonly [extensionField: string]: boolean | readonly string[] | undefined;
}

/** A change the server publishes. */
export type Change =
  | { readonly kind: "tools" | "prompts" | "resources" }
  | { readonly kind: "resource"; readonly uri: string }
  | KeyedNotification;

/**
 * A notification of an extension for the listen streams that asked for
 * `key` under the filter field `field` (a task's status change: field
 * `taskIds`, key its taskId, `notifications/tasks`).
 */
export interface KeyedNotification {
  readonly kind: "keyed";
  readonly field: string;
  readonly key: string;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * False when every instance hears of it by itself (task changes come
   * from the shared task store), so it is not relayed to the others.
   */
  readonly relay?: false;
  /**
   * Whom it is for (principalKey of who created what it is about, such as
   * a task): only listen streams acting for the same principal get it.
   * Undefined: every stream that asked for the key.
   */
  readonly owner?: string;
}

/** Whether `value` is a change as this module makes them (for changes heard from other instances). */
export function isChange(value: unknown): value is Change {
  if (!isJsonObject(value)) return false;
  switch (value.kind) {
    case "tools":
    case "prompts":
    case "resources":
      return true;
    case "resource":
      return typeof value.uri === "string";
    case "keyed":
      return (
        typeof value.field === "string" &&
        typeof value.key === "string" &&
        typeof value.method === "string" &&
        isJsonObject(value.params) &&
        (value.owner === undefined || typeof value.owner === "string")
      );
    default:
      return false;
  }
}

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
  if (change.kind === "keyed")
    return {
      jsonrpc: "2.0",
      method: change.method,
      params: meta ? { ...change.params, _meta: meta } : { ...change.params },
    };
  const params: Record<string, unknown> = change.kind === "resource" ? { uri: change.uri } : {};
  if (meta) params._meta = meta;
  return {
    jsonrpc: "2.0",
    method:
      change.kind === "resource" ? "notifications/resources/updated" : LIST_CHANGED[change.kind],
    params,
  };
}

/**
 * The core part of the filter a listen request gets: what it asked for,
 * minus the kinds of change the server has nothing to send of (`offered`).
 */
export function agreedCoreFilter(
  requested: Readonly<Record<string, unknown>>,
  offered: { readonly tools: boolean; readonly prompts: boolean; readonly resources: boolean },
): Record<string, boolean | string[]> {
  const agreed: Record<string, boolean | string[]> = {};
  if (requested.toolsListChanged === true && offered.tools) agreed.toolsListChanged = true;
  if (requested.promptsListChanged === true && offered.prompts) agreed.promptsListChanged = true;
  if (requested.resourcesListChanged === true && offered.resources)
    agreed.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && offered.resources)
    agreed.resourceSubscriptions = requested.resourceSubscriptions.filter(
      (u): u is string => typeof u === "string",
    );
  return agreed;
}

/** The filter fields of the core protocol: an extension's keyed notification never goes under one. */
const CORE_FIELDS: ReadonlySet<string> = new Set([
  ...Object.values(FILTER_KEY),
  "resourceSubscriptions",
]);

/** Whether a filter asks for a change. */
export function wants(filter: SubscriptionFilter, change: Change): boolean {
  if (change.kind === "resource")
    return filter.resourceSubscriptions?.includes(change.uri) === true;
  if (change.kind === "keyed") {
    if (CORE_FIELDS.has(change.field) || !Object.hasOwn(filter, change.field)) return false;
    const keys = filter[change.field];
    return Array.isArray(keys) && keys.includes(change.key);
  }
  return filter[FILTER_KEY[change.kind]] === true;
}

/**
 * Carries changes between the instances of one server (several processes
 * behind a load balancer), so that a listen stream on one instance hears
 * of a change made on another. RedisChangeBus is one.
 */
export interface ChangeBus {
  /** Sends a change made on this instance to the others. */
  send(change: Change): void;
  /** Calls `deliver` with each change another instance sent; the function returned stops. */
  receive(deliver: (change: Change) => void): () => void;
  /** Releases what the bus holds. */
  close(): Promise<void>;
}

/** The listeners of one server. */
export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();
  private bus?: ChangeBus;

  /**
   * Relays changes through `bus`: changes published here go to the other
   * instances too, and theirs reach the listeners here once `accept` says
   * they may (what arrives on a bus is another process's word). A change
   * marked `relay: false` is not relayed: every instance hears of it by
   * itself.
   */
  relay(bus: ChangeBus, accept: (change: Change) => boolean = () => true): () => void {
    this.bus = bus;
    return bus.receive((change) => {
      if (accept(change)) this.deliver(change);
    });
  }

  /** Adds a listener; the function returned removes it. */
  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers a change to every listener (and, with a bus, to the other instances). */
  publish(change: Change): void {
    this.deliver(change);
    if (change.kind !== "keyed" || change.relay !== false) this.bus?.send(change);
  }

  private deliver(change: Change): void {
    for (const listener of this.listeners) listener.deliver(change);
  }

  /** How many listeners there are. */
  get size(): number {
    return this.listeners.size;
  }
}

/**
 * Serves one `subscriptions/listen` request: acknowledges with the filter
 * the server agreed to, then sends every matching change on the request's
 * own stream, tagged with the request's id, until the client goes away
 * (resolves with no response to send) or the transport ends the stream on
 * the server's behalf (EndedByServer: resolves with the closing result,
 * spec: subscriptions, graceful closure). A change meant for one principal
 * (a task's) reaches only a stream acting for that principal.
 */
export function listen(
  hub: ChangeHub,
  filter: SubscriptionFilter,
  exchange: Exchange,
  id: JsonRpcId,
): Promise<Record<string, unknown> | undefined> {
  const tag = { [META.subscriptionId]: id };
  const principal = principalKey(exchange.authorization);
  exchange.sink.notify({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: filter, _meta: tag },
  });
  const remove = hub.add({
    deliver(change) {
      if (change.kind === "keyed" && change.owner !== undefined && change.owner !== principal)
        return;
      if (wants(filter, change)) exchange.sink.notify(changeNotification(change, tag));
    },
  });
  return new Promise((resolve) => {
    const end = () => {
      remove();
      resolve(exchange.signal.reason instanceof EndedByServer ? {} : undefined);
    };
    if (exchange.signal.aborted) end();
    else exchange.signal.addEventListener("abort", end, { once: true });
  });
}
