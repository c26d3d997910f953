/**
 * The markup part of the contract: the renderer a platform declares in its capabilities
 * (`Capabilities.markup`), and the building blocks of src/format its adapter's markdown.ts
 * writes one with; and the `html` template, the project's one way to write an HTML page (an
 * adapter's own pages, as WhatsApp's link page). The contract imports src/format, never the
 * reverse (no cycle).
 */
export type {
  MarkupLayout,
  MarkupRenderer,
  MarkupSyntax,
  Mark as StyleMark,
  Run as StyledRun,
  HtmlValue,
} from '../format/index.js';
export {
  escapeHtml,
  html,
  Html,
  htmlVisibleText,
  plainMarkup,
  // Standard Markdown in a platform's markup, split within its limit: what an operator door posts.
  renderChunks,
  serializeMarkers,
  serializeNested,
} from '../format/index.js';
