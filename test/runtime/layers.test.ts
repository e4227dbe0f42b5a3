/**
 * The runtime's layers (templates/runtime): core/ imports nothing else,
 * server/ and client/ import core/, transport/ imports core/ (never a
 * protocol side: what it serves is an interface), scale/ (what several
 * instances share) imports core/ and server/, and only the entry files at
 * the root (index.ts for servers, client.ts for clients, fetch.ts,
 * oauth.ts) bring layers together. No import cycle anywhere, type-only
 * imports included. Only transport/ may use node's HTTP, stream, readline
 * and process modules: protocol code knows nothing of what carries it.
 * auth/ (a server's OAuth authorization, only in projects that turn it on,
 * which import auth/index.ts themselves) sits on the transport's interface
 * and alone imports jose with oauth/ (a client signing in), which alone
 * imports oauth4webapi; scale/ alone imports @redis/client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findCycle,
  importGraph,
  importsOf,
  sourceFiles,
  valueImportsOf,
} from "../helpers/import-graph.js";
import { ROOT } from "../helpers/index.js";

const RUNTIME = join(ROOT, "templates", "runtime");

/** What each layer (the root entry is "") may import. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: ["core"],
  server: ["core", "server"],
  scale: ["core", "server", "scale"],
  client: ["core", "client"],
  transport: ["core", "transport"],
  oauth: ["core", "transport", "oauth"],
  auth: ["core", "transport", "auth"],
  "": ["core", "server", "scale", "client", "transport", "oauth", ""],
};
/** Node modules a layer other than transport/ may import. */
const PROTOCOL_NODE_MODULES = ["node:crypto"];
/** What scale/ may import besides: the Redis client its shared stores are built on (node:module finds whether it is installed). */
const SCALE_MODULES = ["node:crypto", "node:module", "@redis/client"];
/** What oauth/ may import besides: the OAuth library its flow is built on, and jose for DPoP proofs and keys. */
const OAUTH_MODULES = ["node:crypto", "oauth4webapi", "jose"];
/**
 * The sign-in helpers oauth/ keeps beside its flow, and the one kind of
 * I/O each does: the loopback redirect listens on 127.0.0.1 for one
 * redirect, the file token store keeps tokens in files, and the
 * credentials of a client without a user (a key, an assertion) are read
 * from files.
 */
const OAUTH_IO: Readonly<Record<string, readonly string[]>> = {
  "oauth/loopback-redirect.ts": ["node:http", "node:net"],
  "oauth/token-store.ts": ["node:fs", "node:path"],
  "oauth/credentials.ts": ["node:fs", "node:fs/promises"],
};

function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : "";
}

describe("the runtime's layers", () => {
  const graph = importGraph(RUNTIME);

  it("the cycle check finds a cycle, type-only imports included, and passes a graph without one", () => {
    const cyclic = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(findCycle(cyclic)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
    expect(findCycle(new Map([["x.ts", ["x.ts"]]]))).toEqual(["x.ts", "x.ts"]);
    expect(
      findCycle(
        new Map([
          ["a.ts", ["b.ts", "c.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", []],
        ]),
      ),
    ).toBe(undefined);
    expect(importsOf('import type { A } from "./a.js";\nexport { b } from "./b.js";\n')).toEqual([
      "./a.js",
      "./b.js",
    ]);
    expect(
      valueImportsOf(
        'import type { A } from "./a.js";\nimport { type B } from "./b.js";\nimport { c, type C } from "./c.js";\nexport type { D } from "./d.js";\nexport { e } from "./e.js";\n',
      ),
    ).toEqual(["./c.js", "./e.js"]);
  });

  it("has no file outside the layers and the entry", () => {
    expect([...graph.keys()].filter((file) => ALLOWED[layerOf(file)] === undefined)).toEqual([]);
    expect(graph.has("index.ts")).toBe(true);
  });

  it("has no import cycle", () => {
    expect(findCycle(graph)).toBe(undefined);
  });

  it("imports only files of the runtime, and each layer only the layers below it", () => {
    const wrong: string[] = [];
    for (const [file, imported] of graph) {
      for (const target of imported) {
        if (!graph.has(target))
          wrong.push(`${file} imports ${target}, which is not in the runtime`);
        else if (!ALLOWED[layerOf(file)]!.includes(layerOf(target)))
          wrong.push(`${file} (${layerOf(file) || "entry"}) imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("leaves HTTP, streams and processes to transport/ (and oauth/ its sign-in helpers)", () => {
    const wrong = sourceFiles(RUNTIME)
      .filter((file) => layerOf(file) !== "transport")
      .flatMap((file) =>
        importsOf(readFileSync(join(RUNTIME, file), "utf8"))
          .filter((name) => !name.startsWith("."))
          .filter(
            (name) =>
              !(
                layerOf(file) === "scale"
                  ? SCALE_MODULES
                  : layerOf(file) === "oauth"
                    ? OAUTH_MODULES
                    : PROTOCOL_NODE_MODULES
              ).includes(name),
          )
          .filter((name) => !(layerOf(file) === "auth" && name === "jose"))
          .filter((name) => !OAUTH_IO[file]?.includes(name))
          .map((name) => `${file} imports ${name}`),
      );
    expect(wrong).toEqual([]);
  });

  it("the Fetch entry (fetch.ts) reaches no node: module but node:crypto and node:net, nor index.ts", () => {
    // Bun, Deno and workerd's nodejs_compat all have these two; a Worker must not need node:http, fs or streams.
    const reached = new Set<string>();
    const walk = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) walk(next);
    };
    walk("fetch.ts");
    expect(reached.has("transport/fetch.ts")).toBe(true);
    expect(reached.has("index.ts")).toBe(false);
    const outside = [...reached].flatMap((file) =>
      importsOf(readFileSync(join(RUNTIME, file), "utf8"))
        .filter((name) => !name.startsWith("."))
        .map((name) => `${file} imports ${name}`),
    );
    expect(outside.filter((line) => !/ imports node:(crypto|net)$/.test(line))).toEqual([]);
  });

  it("a request of either era loads no part of Tasks: the modules it passes through import none", () => {
    // What a request runs through (modern.ts, legacy.ts, their routing and MRTR) and what they load in turn.
    const loaded = importGraph(RUNTIME, true);
    const reached = new Set<string>();
    const walk = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of loaded.get(file) ?? []) walk(next);
    };
    ["server/modern.ts", "server/legacy.ts", "server/dispatch.ts", "server/mrtr.ts"].forEach(walk);
    expect(reached.has("core/era.ts")).toBe(true);
    expect([...reached].filter((file) => /^server\/task/.test(file))).toEqual([]);
    // The check sees a value import, and not a type-only one.
    expect(
      loaded
        .get("server/features.ts")
        ?.filter((file) => /^server\/tasks/.test(file))
        .sort(),
    ).toEqual(["server/tasks-extension.ts"]);
  });

  it("every file is reachable from an entry (index.ts for servers, client.ts for clients) or its layer's index", () => {
    const roots = [...graph.keys()].filter(
      (f) => !f.includes("/") || /^[a-z]+\/index\.ts$/.test(f),
    );
    expect(roots).toEqual(expect.arrayContaining(["index.ts", "client.ts"]));
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const next of graph.get(file) ?? []) walk(next);
    };
    roots.forEach(walk);
    expect([...graph.keys()].filter((f) => !seen.has(f))).toEqual([]);
  });
});
