// A Node preload (`node --import ./loopback.mjs`) for the conformance suite's client mode: the
// suite starts its mock MCP servers and authorization servers with `listen(0)`, on every
// interface. Here a listen() that names no host binds 127.0.0.1 instead, and no name but
// localhost is looked up (the suite may fetch URLs a client hands it), so nothing leaves the
// machine. The suite reads `server.address()` right after listen(): with a host, net.Server
// looks it up first (asynchronously), so that lookup of an IP literal is answered at once.
import dns from "node:dns";
import net from "node:net";

const HOST = "127.0.0.1";
const listen = net.Server.prototype.listen;
const lookup = dns.lookup;
let listening = 0;

dns.lookup = function (hostname, options, callback) {
  const done = typeof options === "function" ? options : callback;
  const family = net.isIP(String(hostname));
  if (listening > 0 && family !== 0) {
    if (typeof options === "object" && options?.all) done(null, [{ address: hostname, family }]);
    else done(null, hostname, family);
    return {};
  }
  const name = String(hostname).toLowerCase().replace(/\.$/, "");
  if (family === 0 && name !== "localhost" && !name.endsWith(".localhost")) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (loopback only)`), {
      code: "ENOTFOUND",
      hostname,
    });
    process.nextTick(done, error);
    return {};
  }
  return lookup.apply(this, arguments);
};

/** The options of a listen() call that gives a port but no host (else undefined: left alone). */
function portOnly(args) {
  const [first, second] = args;
  if (first !== null && typeof first === "object") {
    const special = first.path !== undefined || first.host || first.fd !== undefined;
    return special || "_handle" in first || "handle" in first ? undefined : { ...first };
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return undefined; // a socket path
  if (typeof second === "string") return undefined; // (port, host)
  return {
    port: first == null ? 0 : Number(first),
    ...(typeof second === "number" ? { backlog: second } : {}),
  };
}

net.Server.prototype.listen = function (...args) {
  const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
  const options = portOnly(args);
  if (!options) return listen.apply(this, callback ? [...args, callback] : args);
  if (callback) this.once("listening", callback);
  listening++;
  try {
    return listen.call(this, { ...options, host: HOST });
  } finally {
    listening--;
  }
};
