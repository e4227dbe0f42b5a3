/**
 * The shapes handlers return, typed as strictly as the 2026-07-28 schema
 * (and 2025-11-25, whose shapes are the same) so that a typo such as
 * `{ type: "txt" }`, resource contents without a `uri` or a prompt message
 * with another role fails `tsc`, not a client at run time. The runtime
 * knows no generated module, so these are declared here; mcp-gen's own
 * tests check that each is assignable to the generated protocol type of
 * the same name. Results are also validated against the schema when they
 * go out (ServerOptions.validateResults).
 */

/** Metadata reserved by MCP (`_meta`). */
export type Meta = Readonly<Record<string, unknown>>;

/** Who an object is for, and how important it is (spec: Annotations). */
export interface Annotations {
  readonly audience?: ReadonlyArray<Role>;
  readonly priority?: number;
  readonly lastModified?: string;
}

/** The sender or recipient of a message. */
export type Role = "user" | "assistant";

/** An icon a client may show. */
export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: ReadonlyArray<string>;
  readonly theme?: "dark" | "light";
}

/** Text. */
export interface TextContent {
  readonly type: "text";
  readonly text: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** An image, base64-encoded. */
export interface ImageContent {
  readonly type: "image";
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** Audio, base64-encoded. */
export interface AudioContent {
  readonly type: "audio";
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A link to a resource the client may read. */
export interface ResourceLink {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: ReadonlyArray<Icon>;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A resource's contents as text. */
export interface TextResourceContents {
  readonly uri: string;
  readonly text: string;
  readonly mimeType?: string;
  readonly _meta?: Meta;
}

/** A resource's contents as base64-encoded bytes. */
export interface BlobResourceContents {
  readonly uri: string;
  readonly blob: string;
  readonly mimeType?: string;
  readonly _meta?: Meta;
}

/** A resource's contents: text or bytes, always with its URI. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** A resource embedded in a message or a tool result. */
export interface EmbeddedResource {
  readonly type: "resource";
  readonly resource: ResourceContents;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** One block of content in a tool result or a prompt message. */
export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: Role;
  readonly content: ContentBlock;
}
