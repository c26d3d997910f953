/**
 * What the bot said, by the wamid Meta gave each message, so that a user's reply to it can carry
 * it: Meta's webhook names the quoted message only by its id (`context.id`), never its text.
 * Kept in the bot's platform storage (`cb:platform:whatsapp-cloud:<bot>:sent:<wamid>`): the
 * conversation it went to and its first SENT_TEXT_MAX_CHARS characters.
 *
 * Only the bot's messages are kept. A user who quotes their own message quotes words the chatbot
 * already got (they were a question of that conversation, in its session); keeping every user's
 * text as well would cost a write in every webhook's bounded hand-over, and keep people's words in
 * a second place, for little.
 */
import type { Logger, PlatformStorage, QuotedMessage } from '../../src/contract.js';

/**
 * How long a sent message can still be quoted with its text. Meta's 24-hour window bounds when
 * the bot can write, not when a user can reply: anyone may come back days later and reply to a
 * listing ("is this one still free?"), and that reply opens a new window. A week covers a user who
 * looks again after a weekend; past it a listing has likely changed anyway, and the memory grows
 * with every day kept (about 0.6 KB per message sent).
 */
export const SENT_TEXT_TTL_MS = 7 * 24 * 60 * 60_000;
/** Enough to know which listing or answer it was; the core caps the quote shorter still. */
export const SENT_TEXT_MAX_CHARS = 500;

export const sentTextKey = (wamid: string): string => `sent:${wamid}`;

interface Stored {
  /** The conversation it went to: a quote is only ever of that conversation's messages. */
  c: string;
  t: string;
}

export class SentTexts {
  constructor(
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
  ) {}

  /** The bot sent `text` to `conversation` as `wamid` (a file: its caption, '' for none). Never fails. */
  async remember(conversation: string, wamid: string, text: string): Promise<void> {
    if (!wamid) return;
    const stored: Stored = { c: conversation, t: Array.from(text).slice(0, SENT_TEXT_MAX_CHARS).join('') };
    await this.storage
      .setBytes(sentTextKey(wamid), new TextEncoder().encode(JSON.stringify(stored)), { ttlMs: SENT_TEXT_TTL_MS })
      .catch((error: unknown) => {
        // The message went: a reply to it only loses what it quotes.
        this.logger.warn(
          { err: error, conversation },
          'whatsapp-cloud: could not keep the text of a message sent; a reply to it will come without it',
        );
      });
  }

  /** The bot's message `wamid` as a user of `conversation` quotes it; undefined when it is not one kept for them. */
  async quoted(conversation: string, wamid: string): Promise<QuotedMessage | undefined> {
    const bytes = await this.storage.getBytes(sentTextKey(wamid));
    if (!bytes) return undefined;
    let stored: Partial<Stored>;
    try {
      stored = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Stored>;
    } catch {
      return undefined;
    }
    if (stored.c !== conversation || typeof stored.t !== 'string') return undefined;
    return { text: stored.t, from: 'bot' };
  }
}
