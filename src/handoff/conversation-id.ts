/**
 * The one-string name of a conversation used by the admin API, the CLI and the
 * e-mail: `<bot>:<platform>:<conversation id>`. Bot ids and platform names
 * have no ':' but platform ids may (a Slack thread is `C123:1712.5`), so only
 * the first two colons separate.
 */
import type { ConversationRef } from '../gateway/types.js';

export function formatConversationId(c: ConversationRef): string {
  return `${c.bot}:${c.platform}:${c.id}`;
}

export function parseConversationId(text: string): ConversationRef | null {
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (first <= 0 || second <= first + 1 || second === text.length - 1) return null;
  return { bot: text.slice(0, first), platform: text.slice(first + 1, second), id: text.slice(second + 1) };
}
