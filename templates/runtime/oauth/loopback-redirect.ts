/**
 * The redirect of an OAuth authorization back to a command-line client
 * (RFC 8252 7.3, loopback interface redirection): a listener on 127.0.0.1
 * that is open only while one authorization is under way, takes the one
 * redirect that carries the `state` the client sent, and closes, or closes
 * after a timeout. The port is chosen at random once, so the redirect URI
 * the client registered stays the same for every authorization.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the loopback redirect is set up. */
export interface LoopbackRedirectOptions {
  /**
   * Shows the authorization URL to the user: opens a browser, or prints it.
   * Called once the listener is up.
   */
  readonly open: (url: URL) => void | Promise<void>;
  /** The redirect URI's path (default `/callback`). */
  readonly path?: string;
  /** The port (default: one chosen at random when the redirect is set up). */
  readonly port?: number;
  /** How long to wait for the user (default 300 000 ms). */
  readonly timeoutMs?: number;
}

/** A loopback redirect: its URI, and the authorization step of the OAuth flow. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port><path>`: register this and send it as redirect_uri. */
  readonly redirectUri: string;
  /**
   * Opens `authorizationUrl` for the user and resolves with the URL the
   * authorization server redirected back to (code, state, iss). The `state`
   * of `authorizationUrl` is required; a redirect with another state is
   * answered 400 and the wait goes on.
   */
  authorize(authorizationUrl: URL): Promise<URL>;
}

const HOST = "127.0.0.1";

/** Sets up a loopback redirect (binds nothing until an authorization starts). */
export async function loopbackRedirect(
  options: LoopbackRedirectOptions,
): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const port = options.port ?? (await randomPort());
  const redirectUri = `http://${HOST}:${port}${path}`;
  return {
    redirectUri,
    authorize: (authorizationUrl) =>
      receiveRedirect(authorizationUrl, {
        port,
        path,
        open: options.open,
        timeoutMs: options.timeoutMs ?? 300_000,
      }),
  };
}

/** A port the system has free now: bound on 127.0.0.1, read, released. */
async function randomPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Listens for the one redirect of `authorizationUrl`, then closes. */
async function receiveRedirect(
  authorizationUrl: URL,
  options: {
    port: number;
    path: string;
    open: LoopbackRedirectOptions["open"];
    timeoutMs: number;
  },
): Promise<URL> {
  const state = authorizationUrl.searchParams.get("state");
  if (!state)
    throw new Error(
      "the authorization URL has no state parameter: a loopback redirect needs one to know its answer",
    );
  let settle!: { resolve: (url: URL) => void; reject: (error: Error) => void };
  const received = new Promise<URL>((resolve, reject) => (settle = { resolve, reject }));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", `http://${HOST}:${options.port}`);
    if (request.method !== "GET" || url.pathname !== options.path)
      return answer(response, 404, "Not found.");
    if (url.searchParams.get("state") !== state)
      return answer(
        response,
        400,
        "This sign-in answer is not the one this client is waiting for.",
      );
    answer(
      response,
      200,
      url.searchParams.has("error")
        ? "Sign-in did not complete. You may close this window."
        : "Signed in. You may close this window.",
    );
    settle.resolve(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new Error(
          `cannot listen on ${HOST}:${options.port} for the sign-in redirect: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, HOST, resolve);
  });
  const timer = setTimeout(
    () =>
      settle.reject(
        new Error(
          `no sign-in redirect reached ${HOST}:${options.port} within ${Math.round(options.timeoutMs / 1000)} s`,
        ),
      ),
    options.timeoutMs,
  );
  try {
    await options.open(authorizationUrl);
    return await received;
  } finally {
    clearTimeout(timer);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
  });
  response.end(`${text}\n`);
}
