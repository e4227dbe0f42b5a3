/**
 * What a diff is made of (one Change per fact, the sides it breaks) and
 * the helpers every part of the comparison shares.
 */
import type { JsonValue } from "../load/json.js";
import type { Direction, McpModel } from "../model/types.js";
import { refsOf } from "./compare-schemas.js";

/** A side of the protocol that a change can break. */
export type Side = "servers" | "clients";

/** What a change is about. */
export type ChangeCategory =
  "method" | "notification" | "result-type" | "error-code" | "capability" | "definition";

/** One fact that differs between the two models. */
export interface Change {
  readonly category: ChangeCategory;
  /** The method, definition, `resultType` value, error code or `client:path.to.capability`. */
  readonly subject: string;
  readonly change: "added" | "removed" | "changed";
  /** For a change inside the subject: which part (see docs/diff-upgrade.md for the list). */
  readonly aspect?: string;
  /** The property, member, enum value or result definition the aspect concerns. */
  readonly detail?: string;
  readonly from?: JsonValue;
  readonly to?: JsonValue;
  /** The sides the change breaks; empty when it breaks neither. */
  readonly breaking: readonly Side[];
  /** One line for people, without the subject. */
  readonly summary: string;
}

/** One side of a diff, as the user named it and as it was read. */
export interface DiffSide {
  /** The argument: a revision name or a folder. */
  readonly spec: string;
  readonly revision: string;
  readonly protocolVersion: string;
  readonly known: boolean;
  readonly extensions: readonly string[];
  readonly sources: ReadonlyArray<{ readonly name: string; readonly sha256: string }>;
}

/** The whole diff; `--json` prints exactly this object. */
export interface ModelDiff {
  /** The version of this format; it changes only when a field changes meaning or goes away. */
  readonly format: 1;
  readonly from: DiffSide;
  readonly to: DiffSide;
  readonly summary: {
    readonly changes: number;
    readonly breakingServers: number;
    readonly breakingClients: number;
  };
  /** Sorted by category (as listed in {@link ChangeCategory}), subject, aspect and detail. */
  readonly changes: readonly Change[];
}

/** Both sides: what a change breaks when either may send the thing that changed. */
export const BOTH: readonly Side[] = ["servers", "clients"];
/** The order of the categories in a diff. */
const CATEGORY_ORDER: readonly ChangeCategory[] = [
  "method",
  "notification",
  "result-type",
  "error-code",
  "capability",
  "definition",
];

/** The name of a model's MRTR result (known by shape), for summaries. */
export function mrtrResultName(model: McpModel): string {
  return model.mrtrResults?.join(", ") || "InputRequiredResult";
}

export function arrow(direction: Direction, mrtrResult = "InputRequiredResult"): string {
  switch (direction) {
    case "client-to-server":
      return "client -> server";
    case "server-to-client":
      return "server -> client";
    case "input-request":
      return `server -> client, inside ${mrtrResult}`;
    case "both":
      return "both ways";
  }
}

export function union(...lists: ReadonlyArray<readonly Side[]>): Side[] {
  return BOTH.filter((s) => lists.some((l) => l.includes(s)));
}

export function sortChanges(changes: Change[]): Change[] {
  const rank = (c: Change) => CATEGORY_ORDER.indexOf(c.category);
  const text = (c: Change) => [c.subject, c.aspect ?? "", c.detail ?? "", c.change];
  return changes.sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    const [x, y] = [text(a), text(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

export function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectOf(value: JsonValue): Record<string, JsonValue> | undefined {
  return isObject(value) ? value : undefined;
}

export function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The definition names of an `anyOf`/`oneOf` made only of `$ref`s. */
export function refList(value: JsonValue | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value.map((v) =>
    isObject(v) && Object.keys(v).length === 1 ? refsOf(v)[0] : undefined,
  );
  return names.every((n) => n !== undefined) ? names : undefined;
}
