/**
 * What the load stage hands to the rest of the pipeline: every input read
 * from disk, with its checksum, and nothing interpreted yet beyond parsing.
 */
import type { Dialect } from "../shared/json-schema-dialects.js";
import type { JsonObject } from "./json.js";
import type { Registry } from "./registry.js";
import type { PatchFile } from "./patches.js";

/** A file as read, named the way diagnostics and banners should name it. */
export interface InputFile {
  /** Display name, e.g. `2026-07-28/schema.json`. Never an absolute path, so output stays portable. */
  readonly name: string;
  /** Where it was read from, for diagnostics. */
  readonly path: string;
  readonly sha256: string;
  readonly text: string;
}

export type { Dialect };

/** A parsed schema.json. */
export interface JsonSchemaSource {
  readonly file: InputFile;
  readonly dialect: Dialect;
  /** `$defs` (2020-12) or `definitions` (draft-07). */
  readonly definitionsKey: "$defs" | "definitions";
  readonly document: JsonObject;
}

/** A member of a union type alias in schema.ts. */
export type UnionMember =
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "reference"; readonly name: string }
  | { readonly kind: "keyword"; readonly name: string };

/** Documentation attached to a declaration or member in schema.ts. */
export interface TsDoc {
  readonly line: number;
  readonly description?: string;
  readonly deprecated?: string;
}

/** An exported interface or type alias of schema.ts. */
export interface TsDeclaration extends TsDoc {
  readonly members: Readonly<Record<string, TsDoc>>;
  /** True when the interface has a string index signature, its own or inherited through `extends`. */
  readonly indexSignature: boolean;
}

/** What schema.ts knows that schema.json does not, extracted with ts-morph. */
export interface SchemaTsFacts {
  readonly file: InputFile;
  /** `export const NAME = literal`. */
  readonly constants: Readonly<
    Record<string, { readonly value: string | number; readonly line: number }>
  >;
  /** `export type Name = A | B | "x" | string`, only aliases that are unions. */
  readonly unions: Readonly<
    Record<string, { readonly members: readonly UnionMember[]; readonly line: number }>
  >;
  /** Every exported interface and type alias, with its members' docs. */
  readonly declarations: Readonly<Record<string, TsDeclaration>>;
}

/** A file of an extension manifest: relative to the manifest, or pinned upstream (possibly inside a package's archive). */
export type ManifestFile =
  | string
  | {
      readonly path: string;
      readonly url: string;
      readonly sha256: string;
      readonly archive?: import("./archive-member.js").ArchiveMember;
    };

/** Who sends a message of an extension. */
export type ManifestDirection = "client-to-server" | "server-to-client" | "both";

/** An extension manifest (schema/extension-manifest.schema.json describes it; docs/extensions.md explains it). */
export interface ExtensionManifest {
  readonly id: string;
  readonly name: string;
  readonly mcp?: boolean;
  readonly description?: string;
  readonly revisions: readonly string[];
  /** The JSON Schema; without it, the schema is derived from `schemaTs`. */
  readonly schema?: ManifestFile;
  /** TypeScript: a .ts file, or a page (.md, .mdx) whose typescript blocks declare the types. */
  readonly schemaTs?: ManifestFile;
  readonly resultTypes?: Readonly<Record<string, string>>;
  readonly requests?: Readonly<
    Record<
      string,
      {
        readonly direction?: ManifestDirection;
        readonly result?: string;
        /** The params member mirrored into the Mcp-Name header on Streamable HTTP. */
        readonly name?: string;
        /** The channel it travels on, when not the MCP connection. */
        readonly channel?: string;
      }
    >
  >;
  readonly notifications?: Readonly<
    Record<string, { readonly direction?: ManifestDirection; readonly channel?: string }>
  >;
  /** Channels other than the MCP connection, by name. */
  readonly channels?: Readonly<Record<string, { readonly description: string }>>;
  /** The channel of the messages the manifest does not place otherwise. */
  readonly channel?: string;
  readonly returns?: Readonly<Record<string, readonly string[]>>;
  readonly capability?: {
    readonly definition?: string;
    readonly sides?: ReadonlyArray<"client" | "server">;
    /** What a scaffolded project declares, per side, unless its mcp-gen.json says otherwise. */
    readonly settings?: {
      readonly client?: Readonly<Record<string, unknown>>;
      readonly server?: Readonly<Record<string, unknown>>;
    };
  };
  readonly augments?: Readonly<Record<string, readonly string[]>>;
  /** Members below the top level of core definitions: definition → property path (`/_meta/ui`) → extension definition. */
  readonly members?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** What a server does for a client that did not declare the extension (default "refuse"). */
  readonly undeclared?: "refuse" | "fallback";
  /** Which side declares what before each message may be sent: method or "@result" → conditions. */
  readonly negotiation?: Readonly<Record<string, readonly NegotiationCondition[]>>;
  readonly errorCodes?: ReadonlyArray<{
    readonly constant: string;
    readonly code: number;
    readonly doc?: string;
    readonly definition?: string;
  }>;
}

/** One condition of a manifest's negotiation rule: the side that must declare the extension, and a setting it must give. */
export interface NegotiationCondition {
  readonly declares: "client" | "server";
  readonly setting?: string;
  /** The value `setting` must have (default true). */
  readonly equals?: unknown;
}

/** An extension as loaded: its manifest and its parsed schema (and schema.ts facts). */
export interface ExtensionSource {
  readonly manifest: ExtensionManifest;
  /** Display name of the manifest, e.g. `schema/extensions/tasks.json`. */
  readonly manifestFile: string;
  readonly schema: JsonSchemaSource;
  readonly schemaTs?: SchemaTsFacts;
  /** True when `schema` was derived from the extension's TypeScript (its manifest gives none). */
  readonly derived?: boolean;
  /** Patches of schema/patches/ applied to the schema as read, before it was checked (scope `source`). */
  readonly sourcePatches?: readonly {
    readonly id: string;
    readonly why: string;
    readonly file: string;
  }[];
  /** Warnings and notes of loading it (a derived schema's TypeScript errors). */
  readonly notes?: readonly import("../diagnostics.js").Diagnostic[];
}

/** Every input of one generation run. */
export interface SourceSet {
  /** The revision name for known revisions; the folder name for `--spec <dir>`. */
  readonly revision: string;
  /** True when `revision` is one of the registry's known revisions. */
  readonly known: boolean;
  readonly schema: JsonSchemaSource;
  readonly schemaTs?: SchemaTsFacts;
  readonly registry: Registry;
  readonly patches: readonly PatchFile[];
  /** Extensions to merge, in the order given. */
  readonly extensions: readonly ExtensionSource[];
}
