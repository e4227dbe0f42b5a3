/**
 * What a client without a user signs in with: its own credentials at the
 * authorization server (a client secret, or a private key for
 * `private_key_jwt`, RFC 7523 2.2), and the assertions it presents (a
 * workload's identity token, an enterprise sign-in's ID token), read from
 * a file or an environment variable as platforms provide them.
 *
 * Files are read within a size limit counted while reading (a FIFO or a
 * device that never ends is refused, not read), and read again for every
 * token request: platforms rotate these files in place. Nothing read here
 * is ever put in an error message.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { importPKCS8 } from "jose";
import * as oauth from "oauth4webapi";
import type { StoredClient } from "./token-store.js";
import { clientAuthentication } from "./registration.js";
import { OAuthError } from "./requests.js";

/** The largest assertion or ID token read from a file or a variable (default). */
export const MAX_ASSERTION_BYTES = 64 * 1024;
/** The largest private key file read. */
const MAX_KEY_BYTES = 64 * 1024;

/** A client registered beforehand at the authorization server, for the grants without a user. */
export interface ClientCredentials {
  readonly clientId: string;
  /** For client_secret_basic (the default with a secret) or client_secret_post. */
  readonly clientSecret?: string;
  /** For private_key_jwt: the private key, or how to get it (privateKeyFromFile). */
  readonly privateKey?: oauth.CryptoKey | (() => Promise<oauth.CryptoKey>);
  /** How it authenticates at the token endpoint (default: private_key_jwt with a key, client_secret_basic with a secret, else none). */
  readonly method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
}

/** Where an assertion comes from each time a token is asked for: assertionFromFile, assertionFromVariable, or your own. */
export type AssertionSource = () => Promise<string>;

/** How this client authenticates at a token endpoint (oauth4webapi's ClientAuth), and its client_id. */
export async function machineAuthentication(
  credentials: ClientCredentials,
): Promise<{ client: StoredClient; auth: oauth.ClientAuth }> {
  const method =
    credentials.method ??
    (credentials.privateKey !== undefined
      ? "private_key_jwt"
      : credentials.clientSecret !== undefined
        ? "client_secret_basic"
        : "none");
  const client: StoredClient = {
    client_id: credentials.clientId,
    token_endpoint_auth_method: method,
  };
  if (method === "private_key_jwt") {
    const source = credentials.privateKey;
    if (source === undefined)
      throw new OAuthError("token", `private_key_jwt needs the client's private key (keyFile)`);
    const key = typeof source === "function" ? await source() : source;
    // The assertion's aud is the issuer (RFC 7523 3; oauth4webapi's choice), signed with the key's own algorithm.
    return { client, auth: oauth.PrivateKeyJwt(key) };
  }
  if (method !== "none" && credentials.clientSecret === undefined)
    throw new OAuthError("token", `${method} needs the client secret (MCP_AUTH_CLIENT_SECRET)`);
  return {
    client,
    auth: clientAuthentication({
      ...client,
      ...(credentials.clientSecret !== undefined
        ? { client_secret: credentials.clientSecret }
        : {}),
    }),
  };
}

/**
 * A PKCS #8 private key (PEM, `-----BEGIN PRIVATE KEY-----`) read from
 * `path` when first needed, for `algorithm` (ES256, RS256, PS256, EdDSA...).
 */
export function privateKeyFromFile(
  path: string,
  algorithm = "ES256",
): () => Promise<oauth.CryptoKey> {
  let key: Promise<oauth.CryptoKey> | undefined;
  return () => {
    key ??= (async () => {
      const pem = await readBoundedText(path, MAX_KEY_BYTES, "the client's private key file");
      try {
        return await importPKCS8(pem.trim(), algorithm);
      } catch (error) {
        throw new OAuthError(
          "token",
          `${path} is not a PKCS #8 private key (PEM, BEGIN PRIVATE KEY) for ${algorithm}: ${(error as Error).message}`,
        );
      }
    })().catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}

/**
 * An assertion (a JWT) read from `path` every time one is needed, within
 * `maxBytes`: Kubernetes, cloud platforms and CI runners write a workload's
 * identity token to a file and replace it before it expires.
 */
export function assertionFromFile(path: string, maxBytes = MAX_ASSERTION_BYTES): AssertionSource {
  return async () =>
    checkedAssertion(await readBoundedText(path, maxBytes, "the assertion file"), path, maxBytes);
}

/** An assertion (a JWT) read from the environment variable `name` every time one is needed. */
export function assertionFromVariable(
  name: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  maxBytes = MAX_ASSERTION_BYTES,
): AssertionSource {
  return () =>
    Promise.resolve().then(() => {
      const value = env[name];
      if (value === undefined || value.trim() === "")
        throw new OAuthError("token", `the environment variable ${name} holds no assertion`);
      return checkedAssertion(value, `the environment variable ${name}`, maxBytes);
    });
}

/** The assertion, trimmed, when it has the shape of a JWT and fits `maxBytes`; the error never quotes it. */
function checkedAssertion(text: string, where: string, maxBytes: number): string {
  const assertion = text.trim();
  if (Buffer.byteLength(assertion) > maxBytes)
    throw new OAuthError("token", `${where} holds more than ${maxBytes} bytes: not an assertion`);
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(assertion))
    throw new OAuthError("token", `${where} does not hold a JWT (three base64url parts)`);
  return assertion;
}

/**
 * The text of the regular file at `path`, refused past `maxBytes` (counted
 * while reading) or when it is not a regular file (a FIFO would block).
 */
async function readBoundedText(path: string, maxBytes: number, what: string): Promise<string> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new OAuthError(
      "token",
      `cannot open ${what} ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    if (!(await handle.stat()).isFile())
      throw new OAuthError("token", `${what} ${path} is not a regular file`);
    const buffer = Buffer.alloc(maxBytes + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes)
        throw new OAuthError("token", `${what} ${path} is larger than ${maxBytes} bytes`);
    }
    return buffer.subarray(0, total).toString("utf8");
  } finally {
    await handle.close();
  }
}
