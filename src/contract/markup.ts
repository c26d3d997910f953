/**
 * The markup part of the contract: the renderer a platform declares in its capabilities
 * (`Capabilities.markup`), and the building blocks of src/format its adapter's markdown.ts
 * writes one with. The contract imports src/format, never the reverse (no cycle).
 */
export type {
  MarkupLayout,
  MarkupRenderer,
  MarkupSyntax,
  Mark as StyleMark,
  Run as StyledRun,
} from '../format/index.js';
export {
  escapeHtmlAttribute,
  escapeHtmlText,
  htmlVisibleText,
  plainMarkup,
  serializeMarkers,
  serializeNested,
} from '../format/index.js';
