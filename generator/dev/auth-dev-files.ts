/**
 * The folder `mcp-gen auth-dev` keeps in a server project, `.auth-dev/`:
 *
 * - `keys.json`: the signing key (ES256, private) and the cookie secret,
 *   made on the first run and reused after, so tokens and registrations
 *   outlive a restart;
 * - `clients.json`: the clients registered dynamically (RFC 7591), so a
 *   client that kept its registration is still known after a restart;
 * - `server.env`: `MCP_AUTH_ISSUER=...` while the authorization server
 *   runs (removed when it stops), which `mcp-gen dev` gives the server;
 * - `.gitignore` (`*`): none of it is ever committed, whatever the
 *   project's own .gitignore says.
 *
 * Every write goes to a temporary file that is then renamed; the private
 * key and the secrets are readable by the user alone.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { isJsonObject, parseJsonText } from "../load/json.js";
import { readBoundedFile } from "../load/read-file.js";

/** The folder's name, in the project folder. */
export const AUTH_DEV_DIR = ".auth-dev";
/** The file the server's settings are written to while the authorization server runs. */
export const SERVER_ENV_FILE = join(AUTH_DEV_DIR, "server.env");

/** What the authorization server signs with. */
export interface DevKeys {
  /** The private signing key as a JWK (EC P-256, `alg` ES256, with its `kid`). */
  readonly signing: Readonly<Record<string, string>>;
  /** The secrets oidc-provider signs its cookies with. */
  readonly cookies: readonly string[];
}

/** Creates `.auth-dev/` (with its `.gitignore`) when it is not there yet; its path. */
export function authDevFolder(projectDir: string): string {
  const dir = join(projectDir, AUTH_DEV_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(join(dir, ".gitignore")))
    writeAtomically(
      join(dir, ".gitignore"),
      "# Written by mcp-gen auth-dev: keys and secrets, never committed.\n*\n",
    );
  return dir;
}

/** The keys of `.auth-dev/keys.json`, made (and written) on the first run. */
export function loadOrCreateKeys(dir: string): DevKeys {
  const file = join(dir, "keys.json");
  if (existsSync(file)) return readKeys(file);
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = privateKey.export({ format: "jwk" }) as Record<string, string>;
  const keys: DevKeys = {
    signing: {
      ...jwk,
      kid: `dev-${randomBytes(6).toString("base64url")}`,
      alg: "ES256",
      use: "sig",
    },
    cookies: [randomBytes(32).toString("base64url")],
  };
  writeAtomically(file, `${JSON.stringify(keys, null, 2)}\n`);
  return keys;
}

function readKeys(file: string): DevKeys {
  const value = parseJsonText(readBoundedFile(file).toString("utf8"), file);
  const signing = isJsonObject(value) ? value.signing : undefined;
  const cookies = isJsonObject(value) ? value.cookies : undefined;
  const isKey =
    isJsonObject(signing) &&
    signing.kty === "EC" &&
    signing.crv === "P-256" &&
    ["x", "y", "d", "kid"].every((name) => typeof signing[name] === "string");
  const isSecrets =
    Array.isArray(cookies) && cookies.length > 0 && cookies.every((c) => typeof c === "string");
  if (!isKey || !isSecrets)
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        {
          reason: `${file} is not the key file mcp-gen auth-dev writes (an EC P-256 signing key and cookie secrets); delete it to have new keys made`,
        },
        { file },
      ),
    ]);
  return { signing: signing as Record<string, string>, cookies: cookies };
}

/** The clients kept in `.auth-dev/clients.json` (client ID to oidc-provider's stored record). */
export function readClients(dir: string): Map<string, Record<string, unknown>> {
  const file = join(dir, "clients.json");
  const clients = new Map<string, Record<string, unknown>>();
  if (!existsSync(file)) return clients;
  const value = parseJsonText(readBoundedFile(file).toString("utf8"), file);
  if (isJsonObject(value))
    for (const [id, record] of Object.entries(value))
      if (isJsonObject(record)) clients.set(id, record);
  return clients;
}

/** Writes the registered clients to `.auth-dev/clients.json`. */
export function writeClients(dir: string, clients: ReadonlyMap<string, unknown>): void {
  writeAtomically(
    join(dir, "clients.json"),
    `${JSON.stringify(Object.fromEntries(clients), null, 2)}\n`,
  );
}

/** Writes `.auth-dev/server.env`: the server's settings while this authorization server runs. */
export function writeServerEnv(
  projectDir: string,
  settings: Readonly<Record<string, string>>,
): void {
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  writeAtomically(
    join(projectDir, SERVER_ENV_FILE),
    `# Written by mcp-gen auth-dev while it runs (npm run auth:dev); npm run dev reads it.\n${lines.join("\n")}\n`,
  );
}

/** Removes `.auth-dev/server.env` (the authorization server stopped). */
export function removeServerEnv(projectDir: string): void {
  rmSync(join(projectDir, SERVER_ENV_FILE), { force: true });
}

/**
 * The MCP_AUTH_* settings of `.auth-dev/server.env`, when the file is there
 * (an authorization server of `mcp-gen auth-dev` runs); other lines are
 * ignored, so the file cannot set anything else in the server's environment.
 */
export function readServerEnv(projectDir: string): Record<string, string> | undefined {
  const file = join(projectDir, SERVER_ENV_FILE);
  let text: string;
  try {
    text = readBoundedFile(file).toString("utf8");
  } catch {
    return undefined;
  }
  const settings: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^(MCP_AUTH_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) settings[match[1]!] = match[2]!;
  }
  return settings;
}

/** Writes `text` to `file` through a temporary file renamed into place, readable by the user alone. */
export function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}
