/**
 * A handoff's card as Block Kit: the title as a header, the card's Markdown rendered to
 * mrkdwn (the adapter's own renderer) in one section, and a button per action. Slack refuses
 * a section text over 3,000 characters and a header over 150: the card is cut to fit, ending
 * with "…", never refused. The message's `text` (notifications, and clients without blocks)
 * is the title.
 */
import type { KnownBlock } from '@slack/web-api';
import { renderChunks, type ThreadActionKind, type ThreadCard } from '../../../src/contract.js';
import { slackMarkup } from '../markdown.js';

/** Block Kit: a section's text holds at most 3,000 characters. */
export const SECTION_TEXT_MAX = 3000;
/** Block Kit: a header's plain text holds at most 150 characters. */
export const HEADER_TEXT_MAX = 150;
/** Block Kit: a button's text holds at most 75 characters. */
const BUTTON_LABEL_MAX = 75;
/** action_id of a card's buttons: `<prefix><kind>`; the door recognises its own by it. */
export const DOOR_ACTION_PREFIX = 'chatbridge_operator_';
const ELLIPSIS = '…';

const KINDS: readonly ThreadActionKind[] = ['claim', 'hand-back'];

export function actionIdOf(kind: ThreadActionKind): string {
  return `${DOOR_ACTION_PREFIX}${kind}`;
}

/** The kind of a card's button from its action_id; undefined for anything else (the bot's own answer buttons…). */
export function actionKindOf(actionId: string): ThreadActionKind | undefined {
  if (!actionId.startsWith(DOOR_ACTION_PREFIX)) return undefined;
  const kind = actionId.slice(DOOR_ACTION_PREFIX.length);
  return KINDS.find((known) => known === kind);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - ELLIPSIS.length).trimEnd()}${ELLIPSIS}`;
}

/** The card's Markdown as mrkdwn within one section: the first chunk, and "…" when there was more. */
export function cardMrkdwn(markdown: string): string {
  const chunks = renderChunks(markdown, slackMarkup, SECTION_TEXT_MAX - ELLIPSIS.length);
  const first = chunks[0] ?? '';
  return chunks.length > 1 ? `${first.trimEnd()}${ELLIPSIS}` : first;
}

/** The card's blocks: header, section (when the Markdown shows anything), actions (when there are buttons). */
export function cardBlocks(card: ThreadCard): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (card.title.trim() !== '')
    blocks.push({ type: 'header', text: { type: 'plain_text', text: cut(card.title, HEADER_TEXT_MAX), emoji: true } });
  const body = cardMrkdwn(card.markdown);
  if (body.trim() !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: body } });
  if (card.actions.length > 0)
    blocks.push({
      type: 'actions',
      block_id: 'chatbridge_operator_actions',
      elements: card.actions.map((action) => ({
        type: 'button',
        action_id: actionIdOf(action.kind),
        text: { type: 'plain_text', text: cut(action.label, BUTTON_LABEL_MAX), emoji: true },
        value: action.kind,
        ...(action.kind === 'claim' ? { style: 'primary' as const } : {}),
      })),
    });
  return blocks;
}

/** The message's `text`: notifications show it; Slack wants one with blocks. */
export function cardText(card: ThreadCard): string {
  return card.title.trim() === '' ? 'Handoff' : card.title;
}
