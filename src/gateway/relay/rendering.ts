import { renderChunks, visibleLength } from '../../format/index.js';
import type { AskFinal } from '../../upstream/api.js';
import type { Capabilities, TextFormat } from '../../contract.js';
import { EMPTY_ANSWER_TEXT } from './policy.js';

/**
 * The one place the relay turns Markdown into platform text, so every renderer
 * follows the same rules: intermediate renders are `partial` (unfinished Markdown
 * closed, so the platform never rejects them), the final is not.
 */

/** The Markdown the user must end up seeing. */
export function finalMarkdownOf(final: AskFinal, joinedFragments: string): string {
  // An incomplete stream has no authoritative answer: what we saw arrive is the best we have.
  const markdown = final.incomplete && joinedFragments.trim() !== '' ? joinedFragments : final.answer;
  return markdown.trim() === '' ? EMPTY_ANSWER_TEXT : markdown;
}

export function renderIntermediate(markdown: string, capabilities: Capabilities): string[] {
  return nonEmpty(renderChunks(markdown, capabilities.format, capabilities.maxMessageLength, { partial: true }));
}

export function renderFinal(markdown: string, capabilities: Capabilities, format: TextFormat = capabilities.format): string[] {
  const chunks = nonEmpty(renderChunks(markdown, format, capabilities.maxMessageLength));
  return chunks.length > 0 ? chunks : [EMPTY_ANSWER_TEXT];
}

export function fitsOneMessage(rendered: string, capabilities: Capabilities): boolean {
  return visibleLength(rendered, capabilities.format) <= capabilities.maxMessageLength;
}

function nonEmpty(chunks: string[]): string[] {
  return chunks.filter((chunk) => chunk.trim() !== '');
}
