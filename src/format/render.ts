/**
 * The public rendering entry points: Markdown (or an already parsed doc) to one
 * platform's text in its markup (the `MarkupRenderer` its capabilities declare),
 * whole or split into messages within the platform's limit.
 */
import type { MarkdownDoc } from './ir.js';
import { layoutDoc } from './layout.js';
import type { MarkupRenderer } from './markup.js';
import { parseMarkdown } from './parse.js';
import { closeUnfinishedMarkdown } from './partial.js';
import { splitRuns, splitRunsFrom, type ChunkRenderer } from './split.js';
import { visibleText, type Run } from './styled.js';

export interface RenderOptions {
  /**
   * The Markdown is an answer still being streamed: close what is unfinished (an
   * open code fence, `**bold`, a `code` span, a half-written `[link](htt`) and drop
   * dangling markers, so an intermediate render is valid and shows no stray `**`.
   */
  partial?: boolean;
}

const visibleTextLength = (_serialized: string, runs: readonly Run[]): number =>
  runs.reduce((sum, run) => sum + run.text.length, 0);

/** What the splitter needs of a markup: serialize a chunk, and measure it the cheap way when the platform allows. */
function chunkRendererOf(markup: MarkupRenderer): ChunkRenderer {
  return {
    serialize: (runs) => markup.serialize(runs),
    measure: markup.countsVisibleText ? visibleTextLength : (serialized) => markup.measure(serialized),
    measuresVisibleText: markup.countsVisibleText,
  };
}

/** The whole answer as one message, trimmed like a chunk (possibly longer than any limit). */
export function renderDoc(doc: MarkdownDoc, markup: MarkupRenderer): string {
  return splitRuns(layoutDoc(doc, markup.layout), Number.POSITIVE_INFINITY, chunkRendererOf(markup))[0] ?? '';
}

export function renderMarkdown(markdown: string, markup: MarkupRenderer, options: RenderOptions = {}): string {
  return renderDoc(parseFor(markdown, options), markup);
}

/**
 * Renders and splits into messages of at most `maxLength` each, as the platform
 * counts (`markup.measure`). Empty when nothing visible is left. `maxLength`
 * should leave room for a little markup (≥ 16 or so); below that, formatting is
 * dropped from chunks it would not fit in.
 */
export function renderChunks(
  markdown: string,
  markup: MarkupRenderer,
  maxLength: number,
  options: RenderOptions = {},
): string[] {
  return renderDocChunks(parseFor(markdown, options), markup, maxLength);
}

/** renderChunks for a doc already parsed (the relay parses the final answer once). */
export function renderDocChunks(doc: MarkdownDoc, markup: MarkupRenderer, maxLength: number): string[] {
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  return splitRuns(layoutDoc(doc, markup.layout), maxLength, chunkRendererOf(markup));
}

/** A message's worth of a rendered answer, and the part of the answer's visible text it shows: [from, to). */
export interface PlacedChunk {
  text: string;
  from: number;
  to: number;
}

/**
 * The answer as its reader sees it in `markup`, markup aside (bullets, numbers and
 * blank lines included): the text whose offsets `renderDocChunksFrom` takes and gives.
 */
export function visibleTextOf(doc: MarkdownDoc, markup: MarkupRenderer): string {
  return visibleText(layoutDoc(doc, markup.layout));
}

/**
 * renderDocChunks for the answer's visible text from `from` on, each chunk with the range
 * it shows: the rest of an answer whose beginning is already on screen. The first chunk
 * opens again what is open at `from` (bold, a code block), so it is valid on its own.
 */
export function renderDocChunksFrom(
  doc: MarkdownDoc,
  markup: MarkupRenderer,
  maxLength: number,
  from: number,
): PlacedChunk[] {
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  return splitRunsFrom(layoutDoc(doc, markup.layout), from, maxLength, chunkRendererOf(markup));
}

function parseFor(markdown: string, options: RenderOptions): MarkdownDoc {
  return parseMarkdown(options.partial ? closeUnfinishedMarkdown(markdown) : markdown);
}
