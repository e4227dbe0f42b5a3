/**
 * A pinned file that upstream publishes only inside a package: MCP Apps'
 * schema.json lives in the npm tarball of `@modelcontextprotocol/ext-apps`,
 * not at a URL of its own. The tarball is verified against the integrity
 * npm publishes for it (`dist.integrity`, an SRI sha512) before it is
 * opened, and the member against its own pinned sha256 after, so neither a
 * changed tarball nor a changed file gets through. Unpacking is bounded:
 * the tar stream by {@link MAX_UNPACKED_BYTES}, the member by the input
 * file limit.
 */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { Parser, type ReadEntry } from "tar";
import { LIMITS } from "./limits.js";

/** Where a pinned file sits inside a gzipped tar archive, and the archive's own integrity. */
export interface ArchiveMember {
  /** The member's path inside the archive, e.g. `package/dist/src/generated/schema.json`. */
  readonly member: string;
  /** The archive's Subresource Integrity string as npm publishes it: `sha512-<base64>`. */
  readonly integrity: string;
}

/** An archive unpacks to no more than this (ext-apps 2.0.4: 0.37 MB packed, 2.9 MB unpacked). */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

/**
 * The bytes of `pin.member` inside the gzipped tar `archive`, after the
 * archive matched `pin.integrity`. Throws an Error saying what is wrong
 * (the caller turns it into a diagnostic naming the URL).
 */
export async function archiveMember(archive: Uint8Array, pin: ArchiveMember): Promise<Uint8Array> {
  const actual = sriOf(archive, pin.integrity);
  if (actual !== pin.integrity)
    throw new Error(`the archive has integrity ${actual}, not the pinned ${pin.integrity}`);
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new Error(`the archive does not unpack: ${(error as Error).message}`, { cause: error });
  }
  const found = await readMember(tar, pin.member);
  if (!found) throw new Error(`the archive holds no file ${pin.member}`);
  return found;
}

/** The SRI string of `bytes` in the algorithm `integrity` names (sha512 for npm). */
function sriOf(bytes: Uint8Array, integrity: string): string {
  const algorithm = /^(sha256|sha384|sha512)-/.exec(integrity)?.[1];
  if (!algorithm)
    throw new Error(`the pinned integrity ${integrity} names no sha256, sha384 or sha512`);
  return `${algorithm}-${createHash(algorithm).update(bytes).digest("base64")}`;
}

/** The contents of the regular file `member` in a tar stream, or undefined when there is none. */
function readMember(tar: Buffer, member: string): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    let found: Uint8Array | undefined;
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (entry.path !== member || entry.type !== "File") return entry.resume();
        if (entry.size > LIMITS.fileBytes) {
          reject(new Error(`${member} is ${entry.size} bytes, more than ${LIMITS.fileBytes}`));
          return entry.resume();
        }
        const chunks: Buffer[] = [];
        entry.on("data", (chunk: Buffer) => chunks.push(chunk));
        entry.on("end", () => (found = Buffer.concat(chunks)));
      },
    });
    parser.on("error", (error: Error) =>
      reject(new Error(`the archive does not read as tar: ${error.message}`)),
    );
    parser.on("end", () => resolve(found));
    parser.end(tar);
  });
}
