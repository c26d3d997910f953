/**
 * Slack conversation ids: `<channel>` (a DM, answered at its top level) or
 * `<channel>:<thread_ts>` (a thread: a channel mention, a DM thread, an assistant
 * thread). One service session per id, so a thread is a conversation of its own.
 */

/**
 * C… channels, G… private channels and group DMs, D… DMs (short uppercase ids: 9 to 11 characters today, up to 24
 * taken); then an optional thread ts (seconds since 1970, a dot, a sequence number).
 */
export const CONVERSATION_ID_PATTERN = /^[CDG][A-Z0-9]{2,23}(?::\d{1,12}\.\d{1,8})?$/;
export const CONVERSATION_ID_EXPECTED =
  'a Slack channel id (D…, C…, G…), optionally followed by :<thread ts>, e.g. D0123ABCD or C0123ABCD:1712345678.000100';

export interface SlackPlace {
  channel: string;
  /** The thread the conversation lives in; absent for a DM's top level. */
  threadTs?: string;
}

export function conversationId(place: SlackPlace): string {
  return place.threadTs ? `${place.channel}:${place.threadTs}` : place.channel;
}

export function parseConversationId(id: string): SlackPlace {
  const colon = id.indexOf(':');
  if (colon < 0) return { channel: id };
  return { channel: id.slice(0, colon), threadTs: id.slice(colon + 1) };
}

/** DM channel ids start with D (Slack's convention for `im` conversations). */
export function isDirectMessage(channel: string): boolean {
  return channel.startsWith('D');
}

/** A Slack ts ("1712345678.000100") as ms since epoch. */
export function tsToMs(ts: string): number {
  const seconds = Number.parseFloat(ts);
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : Date.now();
}
