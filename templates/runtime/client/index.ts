/**
 * The client side of MCP. So far it holds what a client writes on every
 * modern request, the `_meta` envelope; a client also uses core/ (its
 * requests are matched to answers by PendingRequests, and its HTTP headers
 * come from requestHeaders) and transport/ (connectStdio starts a server
 * as a child process).
 */
export { withEnvelope, type ClientEnvelope } from "./envelope.js";
