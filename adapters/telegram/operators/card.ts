/**
 * A handoff's card as a Telegram message: the handoff's Markdown in the adapter's own HTML
 * (markdown.ts), cut to one message, and an inline keyboard with one button per action. The
 * buttons' callback_data is the door's own prefix and the action's kind, which the door reads
 * back from a press (the topic the press came from names the handoff).
 */
import type { InlineKeyboardMarkup } from 'grammy/types';
import { escapeHtml, renderChunks, type ThreadActionKind, type ThreadCard } from '../../../src/contract.js';
import { telegramMarkup } from '../markdown.js';

/** Telegram's limit on one message, after entity parsing. */
export const MAX_MESSAGE_LENGTH = 4096;

/** Prefix of the door's callback_data: a press of another button of the bot is not the door's. */
const CALLBACK_PREFIX = 'cbdoor:';

const ACTION_KINDS: readonly ThreadActionKind[] = ['claim', 'hand-back'];

export interface RenderedCard {
  html: string;
  /** Absent without actions: an edit without reply_markup removes the keyboard. */
  keyboard?: InlineKeyboardMarkup;
}

/** callback_data of an action's button (well within Telegram's 64 bytes). */
export function actionData(kind: ThreadActionKind): string {
  return `${CALLBACK_PREFIX}${kind}`;
}

/** The action a press of the door's button means; undefined for any other button. */
export function actionOfData(data: string | undefined): ThreadActionKind | undefined {
  if (!data?.startsWith(CALLBACK_PREFIX)) return undefined;
  const kind = data.slice(CALLBACK_PREFIX.length);
  return ACTION_KINDS.find((known) => known === kind);
}

/**
 * Telegram HTML of at most `maxLength` visible characters; a longer text is cut at a place the
 * splitter chooses and ends with "…".
 */
export function renderWithin(markdown: string, maxLength: number = MAX_MESSAGE_LENGTH): string {
  const chunks = renderChunks(markdown, telegramMarkup, maxLength - 1);
  const [first = ''] = chunks;
  return chunks.length > 1 ? `${first}…` : first;
}

export function renderCard(card: ThreadCard): RenderedCard {
  const html = renderWithin(card.markdown) || escapeHtml(card.title);
  if (card.actions.length === 0) return { html };
  return {
    html,
    keyboard: {
      inline_keyboard: [card.actions.map((action) => ({ text: action.label, callback_data: actionData(action.kind) }))],
    },
  };
}
