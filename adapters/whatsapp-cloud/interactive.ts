/**
 * An outbound message with choices (the core's buttons, the chatbot's suggested questions) as
 * the Cloud API can show them, within Meta's limits (the notes, "Sending"):
 *
 *   up to 3 choices, titles ≤ 20 characters, all different   → reply buttons
 *   up to 10 choices, titles ≤ 24 characters, all different  → a list message
 *   anything else                                            → numbered text; the user replies with the number
 *
 * Nothing is cut: a title that does not fit a button or a row makes the choices numbered text.
 * A reply button's body holds at most 1,024 characters: a longer text goes first as a message
 * of its own, and the buttons follow under a short line. Pure: outbound.ts sends the parts.
 */
import { addressFields } from './conversation.js';
import type { OutboundMessage } from '../../src/contract.js';
import { CLOUD_MAX_MESSAGE_LENGTH } from './capabilities.js';

/** Reply buttons (copy of Meta's interactive reply buttons page). */
export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;
export const MAX_BUTTON_ID = 256;
export const MAX_BUTTON_BODY = 1024;
/** List messages (copy of Meta's list messages page): 10 rows in all, row title 24, row id 200, button label 20. */
export const MAX_LIST_ROWS = 10;
export const MAX_ROW_TITLE = 24;
export const MAX_ROW_ID = 200;

/** The reply id of a core button (its value comes back as `Inbound.action`) and of a suggested question (asked as text). */
export const ACTION_ID_PREFIX = 'a:';
export const SUGGESTION_ID_PREFIX = 's:';

/** Above choices that come without text of their own. */
export const OPTIONS_TEXT = 'More options:';
export const SUGGESTIONS_TEXT = 'You can ask:';
/** A list message's button, which opens the list. */
export const OPTIONS_LIST_LABEL = 'Options';
export const SUGGESTIONS_LIST_LABEL = 'Questions';

/** A choice: a core button (`action`, its value) or a suggested question (`suggestion`, its text). */
export interface Choice {
  kind: 'action' | 'suggestion';
  title: string;
  value: string;
}

export type Part =
  | { kind: 'text'; text: string }
  /** `text`: the body; `carriesText`: whether it is the message's own text (else a short line above the choices). */
  | { kind: 'buttons' | 'list'; text: string; carriesText: boolean; choices: Choice[] };

export interface Plan {
  parts: Part[];
  /** Choices shown as numbered text, in order: what a reply with their number means. */
  numbered?: Choice[];
}

/** Meta counts characters; an emoji is one (code points), never more than JS's length. */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function choicesOf(message: Pick<OutboundMessage, 'buttons' | 'suggestions'>): Choice[] {
  return [
    ...(message.buttons ?? []).map((button): Choice => ({
      kind: 'action',
      title: button.label.trim(),
      value: button.value,
    })),
    ...(message.suggestions ?? []).map((suggestion): Choice => ({
      kind: 'suggestion',
      title: suggestion.trim(),
      value: suggestion.trim(),
    })),
  ];
}

export function replyId(choice: Choice): string {
  return `${choice.kind === 'action' ? ACTION_ID_PREFIX : SUGGESTION_ID_PREFIX}${choice.value}`;
}

function fits(choices: readonly Choice[], most: number, titleMax: number, idMax: number): boolean {
  if (choices.length === 0 || choices.length > most) return false;
  const titles = choices.map((choice) => choice.title);
  const ids = choices.map(replyId);
  return (
    titles.every((title) => title !== '' && characters(title) <= titleMax) &&
    ids.every((id) => characters(id) <= idMax) &&
    new Set(titles).size === titles.length &&
    new Set(ids).size === ids.length
  );
}

const onlySuggestions = (choices: readonly Choice[]) => choices.every((choice) => choice.kind === 'suggestion');

function introOf(choices: readonly Choice[]): string {
  return onlySuggestions(choices) ? SUGGESTIONS_TEXT : OPTIONS_TEXT;
}

/** The message's parts; `text` is the core's, already rendered and within 4,096 characters. */
export function planMessage(text: string, choices: readonly Choice[]): Plan {
  if (choices.length === 0) return { parts: [{ kind: 'text', text }] };
  const hasText = text.trim() !== '';
  if (fits(choices, MAX_BUTTONS, MAX_BUTTON_TITLE, MAX_BUTTON_ID)) {
    if (hasText && characters(text) <= MAX_BUTTON_BODY)
      return { parts: [{ kind: 'buttons', text, carriesText: true, choices: [...choices] }] };
    const buttons: Part = { kind: 'buttons', text: introOf(choices), carriesText: false, choices: [...choices] };
    return { parts: hasText ? [{ kind: 'text', text }, buttons] : [buttons] };
  }
  if (fits(choices, MAX_LIST_ROWS, MAX_ROW_TITLE, MAX_ROW_ID)) {
    // A list's body takes as much as a text message.
    return {
      parts: [{ kind: 'list', text: hasText ? text : introOf(choices), carriesText: hasText, choices: [...choices] }],
    };
  }
  return numberedPlan(hasText ? text : '', choices);
}

/** The choices as numbered text after `text` ('' for none), in as few messages as fit. */
export function numberedPlan(text: string, choices: readonly Choice[]): Plan {
  const lines = choices.map((choice, index) => `${index + 1}. ${choice.title}`);
  const hint = onlySuggestions(choices) ? 'Reply with a number to ask it.' : 'Reply with a number to choose.';
  const list = [...(text.trim() === '' ? [introOf(choices)] : []), ...lines, '', hint].join('\n');
  const together = text.trim() === '' ? list : `${text}\n\n${list}`;
  const parts: Part[] =
    characters(together) <= CLOUD_MAX_MESSAGE_LENGTH
      ? [{ kind: 'text', text: together }]
      : [
          ...(text.trim() === '' ? [] : [{ kind: 'text' as const, text }]),
          ...linesWithin([...lines, '', hint]).map((chunk): Part => ({ kind: 'text', text: chunk })),
        ];
  return { parts, numbered: [...choices] };
}

/** Lines joined into messages of at most 4,096 characters; a longer line (a huge suggestion) split at spaces. */
function linesWithin(lines: readonly string[]): string[] {
  const chunks: string[] = [];
  let current = '';
  const push = (piece: string) => {
    const next = current === '' ? piece : `${current}\n${piece}`;
    if (characters(next) <= CLOUD_MAX_MESSAGE_LENGTH) {
      current = next;
      return;
    }
    if (current !== '') chunks.push(current);
    current = piece;
  };
  for (const line of lines) {
    if (characters(line) <= CLOUD_MAX_MESSAGE_LENGTH) {
      push(line);
      continue;
    }
    for (const word of wordsWithin(line)) push(word);
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

function wordsWithin(line: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const word of line.split(/(?<=\s)/)) {
    if (characters(current + word) > CLOUD_MAX_MESSAGE_LENGTH && current !== '') {
      pieces.push(current.trimEnd());
      current = '';
    }
    current += word;
    while (characters(current) > CLOUD_MAX_MESSAGE_LENGTH) {
      const head = [...current].slice(0, CLOUD_MAX_MESSAGE_LENGTH).join('');
      pieces.push(head);
      current = current.slice(head.length);
    }
  }
  if (current.trim() !== '') pieces.push(current.trimEnd());
  return pieces;
}

/** The Graph body of one part, to the user `to`. */
export function graphBody(to: string, part: Part): Record<string, unknown> {
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', ...addressFields(to) };
  if (part.kind === 'text') return { ...envelope, type: 'text', text: { body: part.text, preview_url: false } };
  const action =
    part.kind === 'buttons'
      ? {
          buttons: part.choices.map((choice) => ({
            type: 'reply',
            reply: { id: replyId(choice), title: choice.title },
          })),
        }
      : {
          button: onlySuggestions(part.choices) ? SUGGESTIONS_LIST_LABEL : OPTIONS_LIST_LABEL,
          sections: [{ rows: part.choices.map((choice) => ({ id: replyId(choice), title: choice.title })) }],
        };
  return {
    ...envelope,
    type: 'interactive',
    interactive: { type: part.kind === 'buttons' ? 'button' : 'list', body: { text: part.text }, action },
  };
}
