/**
 * Where a client keeps what OAuth gave it: the client registration and the
 * tokens for one resource (an MCP server) at one authorization server. The
 * OAuth flow (flow.ts) asks a TokenStore; this file has the in-memory one and
 * the file default.
 *
 * The file store writes one file per issuer and resource (and, for a grant
 * without a user, per grant and client), readable by the
 * user alone (mode 0600, in a folder of mode 0700), each write to a
 * temporary file renamed over the old one: a crash never leaves half a
 * token file, and two clients never read one being written.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Whose grant: the authorization server (its issuer), the resource the tokens are for, and for a grant without a user its client. */
export interface GrantKey {
  readonly issuer: string;
  readonly resource: string;
  /** For a grant without a user: which grant and client (`client_credentials svc`), kept apart. */
  readonly client?: string;
}

/** How this client is known to an authorization server. */
export interface StoredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  /** How it authenticates at the token endpoint (client_secret_basic, client_secret_post, none). */
  readonly token_endpoint_auth_method?: string;
}

/** What a client keeps for one issuer and resource. */
export interface StoredGrant {
  readonly client: StoredClient;
  readonly access_token?: string;
  readonly refresh_token?: string;
  /** When the access token expires (ms since the epoch), when the server said. */
  readonly expires_at?: number;
  /** The scopes granted (space-separated). */
  readonly scope?: string;
  /** `dpop` when the access token is bound to `dpop_key` (RFC 9449), else bearer. */
  readonly token_type?: "bearer" | "dpop";
  /** The DPoP key pair the tokens are bound to, as a private JWK: kept, like the tokens, readable by the user alone. */
  readonly dpop_key?: Readonly<Record<string, string>>;
}

/** Keeps grants; every method may be asynchronous (a keychain, a database). */
export interface TokenStore {
  load(key: GrantKey): StoredGrant | undefined | Promise<StoredGrant | undefined>;
  save(key: GrantKey, grant: StoredGrant): void | Promise<void>;
  remove(key: GrantKey): void | Promise<void>;
}

/** Grants kept for the life of the process. */
export class MemoryTokenStore implements TokenStore {
  private readonly grants = new Map<string, StoredGrant>();

  load(key: GrantKey): StoredGrant | undefined {
    return this.grants.get(keyName(key));
  }

  save(key: GrantKey, grant: StoredGrant): void {
    this.grants.set(keyName(key), grant);
  }

  remove(key: GrantKey): void {
    this.grants.delete(keyName(key));
  }
}

/** The file written for one grant: the grant and whose it is, so a file never answers for another key. */
interface GrantFile extends GrantKey {
  readonly grant: StoredGrant;
}

/**
 * Grants kept in `dir`, one JSON file per issuer and resource (named by a
 * hash of both), mode 0600. A file that cannot be read as a grant of its
 * key is treated as absent, never as an error: the client signs in again.
 */
export class FileTokenStore implements TokenStore {
  constructor(readonly dir: string) {}

  /** The file that holds the grant of `key`. */
  fileOf(key: GrantKey): string {
    return join(this.dir, `${createHash("sha256").update(keyName(key)).digest("hex")}.json`);
  }

  load(key: GrantKey): StoredGrant | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.fileOf(key), "utf8"));
    } catch {
      return undefined;
    }
    if (
      !isGrantFile(parsed) ||
      parsed.issuer !== key.issuer ||
      parsed.resource !== key.resource ||
      parsed.client !== key.client
    )
      return undefined;
    return parsed.grant;
  }

  save(key: GrantKey, grant: StoredGrant): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(key);
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    const contents: GrantFile = { ...key, grant };
    try {
      writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, {
        mode: 0o600,
        flag: "wx",
      });
      chmodSync(temporary, 0o600); // the umask may have taken bits away, never added: make it exact
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  remove(key: GrantKey): void {
    rmSync(this.fileOf(key), { force: true });
  }
}

function keyName(key: GrantKey): string {
  return `${key.issuer}\n${key.resource}${key.client === undefined ? "" : `\n${key.client}`}`;
}

function isGrantFile(value: unknown): value is GrantFile {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Record<string, unknown>;
  const grant = file.grant as Record<string, unknown> | undefined;
  const client = grant?.client as Record<string, unknown> | undefined;
  return (
    typeof file.issuer === "string" &&
    typeof file.resource === "string" &&
    typeof grant === "object" &&
    grant !== null &&
    typeof client === "object" &&
    client !== null &&
    typeof client.client_id === "string"
  );
}
