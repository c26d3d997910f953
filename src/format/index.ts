/**
 * Markdown parsed once, laid out and split within limits here, written in each
 * platform's markup by the renderer its capabilities declare (markup.ts).
 * See render.ts for the entry points and split.ts for how chunks stay valid.
 */
export type { Block, Inline, ListItem, MarkdownDoc } from './ir.js';
export { parseMarkdown } from './parse.js';
export { closeUnfinishedMarkdown } from './partial.js';
export {
  renderChunks,
  renderDoc,
  renderDocChunks,
  renderDocChunksFrom,
  renderMarkdown,
  visibleTextOf,
  type PlacedChunk,
  type RenderOptions,
} from './render.js';
// A platform's renderer and the building blocks it is written with (re-exported by the contract).
export type { MarkupLayout, MarkupRenderer, MarkupSyntax } from './markup.js';
export type { Mark, Run } from './styled.js';
export { serializeNested } from './nested-tags.js';
export { serializeMarkers } from './markers.js';
export { escapeHtml, htmlVisibleText } from './html.js';
// HTML pages and e-mails (re-exported by the contract for the pages an adapter serves).
export { html, Html, type HtmlValue } from './html-template.js';
export { plainMarkup } from './plain.js';
export { escapeMarkdown } from './markdown-escape.js';
