import {
  closeUnfinishedMarkdown,
  parseMarkdown,
  renderChunks,
  renderDocChunksFrom,
  visibleTextOf,
  type MarkupRenderer,
  type PlacedChunk,
} from '../../format/index.js';
import type { AskFinal } from '../../upstream/api.js';
import type { Capabilities } from '../../contract.js';
import { userTexts } from '../user-texts.js';

/**
 * The one place the relay turns Markdown into platform text (in the markup the
 * platform's capabilities declare), so every renderer follows the same rules: intermediate renders are `partial` (unfinished Markdown
 * closed, so the platform never rejects them), the final is not.
 */

/** The Markdown the user must end up seeing; `emptyAnswer` in the chatbot's language. */
export function finalMarkdownOf(
  final: AskFinal,
  joinedFragments: string,
  emptyAnswer: string = userTexts.emptyAnswer,
): string {
  // An incomplete stream has no authoritative answer: what we saw arrive is the best we have.
  const markdown = final.incomplete && joinedFragments.trim() !== '' ? joinedFragments : final.answer;
  return markdown.trim() === '' ? emptyAnswer : markdown;
}

export function renderIntermediate(markdown: string, capabilities: Capabilities): string[] {
  return nonEmpty(renderChunks(markdown, capabilities.markup, capabilities.maxMessageLength, { partial: true }));
}

export function renderFinal(
  markdown: string,
  capabilities: Capabilities,
  markup: MarkupRenderer = capabilities.markup,
): string[] {
  const chunks = nonEmpty(renderChunks(markdown, markup, capabilities.maxMessageLength));
  return chunks.length > 0 ? chunks : [userTexts.emptyAnswer];
}

/**
 * An answer laid out for the platform once: what its reader sees (markup aside) and its
 * chunks from any point of that, each with the range it shows. A message that can no
 * longer be edited is known by the visible text it ends at; the answer goes on from there.
 */
export interface LaidOutAnswer {
  /** The visible text, from the answer's start: the text chunk ranges count in. */
  visible: string;
  /** The chunks from offset `from` of `visible` on (the rest of the answer); empty when nothing visible is left. */
  chunksFrom(from: number): PlacedChunk[];
}

/** `renderIntermediate`, laid out: unfinished Markdown closed, so each chunk is valid. */
export function layOutIntermediate(markdown: string, capabilities: Capabilities): LaidOutAnswer {
  const doc = parseMarkdown(closeUnfinishedMarkdown(markdown));
  return {
    visible: visibleTextOf(doc, capabilities.markup),
    chunksFrom: (from) =>
      nonEmptyPlaced(renderDocChunksFrom(doc, capabilities.markup, capabilities.maxMessageLength, from)),
  };
}

/** `renderFinal`, laid out: from 0, an answer with nothing visible is `emptyAnswer`. */
export function layOutFinal(
  markdown: string,
  capabilities: Capabilities,
  markup: MarkupRenderer = capabilities.markup,
  emptyAnswer: string = userTexts.emptyAnswer,
): LaidOutAnswer {
  const doc = parseMarkdown(markdown);
  return {
    visible: visibleTextOf(doc, markup),
    chunksFrom: (from) => {
      const chunks = nonEmptyPlaced(renderDocChunksFrom(doc, markup, capabilities.maxMessageLength, from));
      return chunks.length > 0 || from > 0 ? chunks : [{ text: emptyAnswer, from: 0, to: 0 }];
    },
  };
}

export function fitsOneMessage(rendered: string, capabilities: Capabilities): boolean {
  return capabilities.markup.measure(rendered) <= capabilities.maxMessageLength;
}

function nonEmpty(chunks: string[]): string[] {
  return chunks.filter((chunk) => chunk.trim() !== '');
}

function nonEmptyPlaced(chunks: PlacedChunk[]): PlacedChunk[] {
  return chunks.filter((chunk) => chunk.text.trim() !== '');
}
