/**
 * A chatbot's conversations of one day, with that day's entries, read in chunks: a day of 10,000
 * conversations is never held in memory at once, and the reads leave room for the answers being
 * written meanwhile (one chunk's transcripts at a time).
 */
import type { Gateway } from '../../gateway/index.js';
import type { DayIndex } from './day-index.js';
import type { DayConversation, DayWindow } from './types.js';

/** Transcripts read at once. */
const CHUNK = 100;

export async function* dayConversations(
  gateway: Pick<Gateway, 'transcript'>,
  index: DayIndex,
  serial: string,
  window: DayWindow,
  /** The bot whose conversations these are (two bots may serve one chatbot: each has its own digests). */
  bot: string,
): AsyncGenerator<DayConversation> {
  const conversations = (await index.conversations(serial, window.day)).filter((each) => each.bot === bot);
  for (let from = 0; from < conversations.length; from += CHUNK) {
    const chunk = conversations.slice(from, from + CHUNK);
    const transcripts = await Promise.all(chunk.map((conversation) => gateway.transcript.read(conversation)));
    for (const [n, conversation] of chunk.entries()) {
      const entries = (transcripts[n] ?? []).filter((entry) => entry.at >= window.start && entry.at < window.end);
      if (entries.length === 0) continue;
      const user = entries.findLast((entry) => entry.role === 'user' && entry.user)?.user;
      yield { conversation, entries, ...(user ? { user } : {}) };
    }
  }
}
