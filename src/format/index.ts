/**
 * Markdown parsed once, rendered per platform, split within limits.
 * See render.ts for the entry points and split.ts for how chunks stay valid.
 */
export type { Block, Inline, ListItem, MarkdownDoc } from './ir.js';
export { parseMarkdown } from './parse.js';
export { closeUnfinishedMarkdown } from './partial.js';
export { renderChunks, renderDoc, renderDocChunks, renderDocChunksFrom, renderMarkdown, visibleTextOf, type PlacedChunk, type RenderOptions } from './render.js';
export { telegramVisibleText, visibleLength } from './visible-length.js';
