/**
 * The TypeScript of an extension that publishes its types in a
 * specification page rather than a schema.ts: the page's ```typescript
 * (or ```ts) blocks, found by a CommonMark parser (micromark, through
 * mdast-util-from-markdown), since fences have rules (indentation, ``` or
 * ~~~, a closing fence at least as long) a pattern would get wrong. MDX's
 * components (`<Note>`) read as HTML blocks and do not hide a fence.
 *
 * Every line of the page that is not inside such a block becomes an empty
 * line, so line N of the TypeScript is line N of the page: TypeScript's
 * diagnostics point into the page as published.
 */
import type { Code, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import type { InputFile } from "./types.js";

/** File names read as pages: their typescript blocks are the TypeScript. */
const PAGE = /\.(md|mdx|markdown)$/i;
const TYPESCRIPT_FENCES = new Set(["ts", "typescript"]);

/** Whether a file is a page whose code blocks hold the TypeScript. */
export function isPage(file: InputFile): boolean {
  return PAGE.test(file.name);
}

/** The TypeScript of a file: itself for a .ts file; a page's typescript blocks, each at its own lines. */
export function typescriptOf(file: InputFile): string {
  if (!isPage(file)) return file.text;
  const lines = file.text.split(/\r?\n/);
  const kept = new Array<string>(lines.length).fill("");
  for (const node of codeBlocks(fromMarkdown(file.text))) {
    if (!TYPESCRIPT_FENCES.has((node.lang ?? "").toLowerCase())) continue;
    // The block's content starts on the line after its opening fence (lines count from 1, indexes from 0).
    const first = node.position!.start.line;
    node.value.split(/\r?\n/).forEach((line, i) => (kept[first + i] = line));
  }
  return kept.join("\n");
}

/** Every code block of a page, in lists and quotes too, in page order. */
function codeBlocks(root: Root): Code[] {
  const found: Code[] = [];
  const stack: Array<Root | RootContent> = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "code") found.push(node);
    else if ("children" in node) stack.push(...[...node.children].reverse());
  }
  return found;
}
