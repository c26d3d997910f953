/**
 * The question ClientAsk is sent for the messages of one turn: their texts in order, one per line,
 * each reply preceded by what it replies to, marked as quoted and cut to `quoteMaxChars`, so that
 * "how much is this one?" sent as a reply to a listing can be answered. The transcript keeps each
 * message as the user wrote it (turn/run-turn.ts); only the service reads the quotes.
 */
import type { Inbound, QuotedMessage } from '../../contract.js';

type Asked = Pick<Inbound, 'text' | 'quoted'>;

export function questionText(messages: readonly Asked[], quoteMaxChars: number): string {
  return messages
    .flatMap((message) => [message.quoted ? quoteLine(message.quoted, quoteMaxChars) : '', message.text])
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** `[In reply to the assistant's message: "…"]`: one line, whitespace folded, cut at a word where it can be. */
export function quoteLine(quoted: QuotedMessage, maxChars: number): string {
  const folded = quoted.text.replace(/\s+/g, ' ').trim();
  const whose =
    quoted.from === 'bot' ? "the assistant's message" : quoted.author ? `${quoted.author}'s message` : 'a message';
  if (folded === '') return `[In reply to ${whose} (a file)]`;
  return `[In reply to ${whose}: "${cut(folded, maxChars)}"]`;
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = text.slice(0, maxChars);
  const space = head.lastIndexOf(' ');
  return `${space > maxChars * 0.6 ? head.slice(0, space) : head}…`;
}
