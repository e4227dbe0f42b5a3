/**
 * Reading an input file within mcp-gen's bounds. The size limit is kept
 * while reading, not by a size looked up beforehand: a file that grows in
 * between, or a device that never ends (/dev/zero), is cut at the limit. A
 * file that is not a regular file (a FIFO, a device, a socket, a folder) is
 * refused before anything is read from it: a FIFO would block mcp-gen
 * until something writes to it. A file that must stay inside a folder (a
 * schema folder's files, an extension's) is refused when it, or a symbolic
 * link on its way, leads outside that folder.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { isAbsolute, relative } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { LIMITS } from "./limits.js";

/** The bytes of the regular file at `path`, at most LIMITS.fileBytes (MCPG211 past it, MCPG214 for a non-regular file). */
export function readBoundedFile(path: string, shown: string = path): Buffer {
  // Non-blocking, so that opening a FIFO does not wait for a writer; reads of a regular file ignore it.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new McpGenError([diagnostic("MCPG214", { kind: kindOf(stats) }, { file: shown })]);
    return readUpToLimit(fd, stats.size, shown);
  } finally {
    closeSync(fd);
  }
}

/** Reads `fd` to its end, refusing it (MCPG211) as soon as more than LIMITS.fileBytes have come. */
function readUpToLimit(fd: number, statedSize: number, shown: string): Buffer {
  const limit = LIMITS.fileBytes;
  if (statedSize > limit)
    throw new McpGenError([diagnostic("MCPG211", { bytes: statedSize, limit }, { file: shown })]);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - total));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > limit)
      throw new McpGenError([diagnostic("MCPG211", { bytes: total, limit }, { file: shown })]);
  }
  return Buffer.concat(chunks, total);
}

/** What a file that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a folder";
  return "not a regular file";
}

/**
 * Refuses (MCPG215) a file of `folder` that leads outside it: by `..` in
 * its path, or through a symbolic link. Both are resolved to where they
 * really are before they are compared. A file that does not exist is left
 * to the caller's own diagnostic.
 */
export function checkInsideFolder(path: string, folder: string, shown: string = path): void {
  let target: string;
  let root: string;
  try {
    target = realpathSync(path);
    root = realpathSync(folder);
  } catch {
    return;
  }
  const inside = relative(root, target);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside))
    throw new McpGenError([diagnostic("MCPG215", { path, target, folder }, { file: shown })]);
}
