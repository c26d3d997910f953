/**
 * The one-string name of a conversation used by the admin API, the CLI and the
 * e-mail: `<bot>:<platform>:<conversation id>`. Bot ids and platform names
 * have no ':' but platform ids may (a Slack thread is `C123:1712.5`), so only
 * the first two colons separate.
 */
import type { ConversationRef, PlatformModule } from '../contract.js';

/**
 * The longest `<bot>:<platform>:<conversation id>` of any platform (a Slack thread's is some 40 characters): a longer
 * one names no conversation, whatever its platform, so it is refused before any key is built from it.
 */
export const CONVERSATION_ID_MAX_CHARS = 256;

export function formatConversationId(c: ConversationRef): string {
  return `${c.bot}:${c.platform}:${c.id}`;
}

export function parseConversationId(text: string): ConversationRef | null {
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (first <= 0 || second <= first + 1 || second === text.length - 1) return null;
  return { bot: text.slice(0, first), platform: text.slice(first + 1, second), id: text.slice(second + 1) };
}

/**
 * Why `conversation.id` cannot be one of its platform's conversations, or null when it can.
 * The shape comes from the platform's module (PlatformModule.conversationId), among the ones
 * given; a platform without a fixed shape, or not among them, takes any id of a bounded length.
 */
export function conversationIdProblem(
  conversation: ConversationRef,
  platforms: readonly PlatformModule[],
): string | null {
  if (formatConversationId(conversation).length > CONVERSATION_ID_MAX_CHARS)
    return `a conversation is named in at most ${CONVERSATION_ID_MAX_CHARS} characters (<bot>:<platform>:<conversation id>)`;
  const shape = platforms.find((platform) => platform.name === conversation.platform)?.conversationId;
  if (!shape || shape.pattern.test(conversation.id)) return null;
  return `"${conversation.id}" is not a ${conversation.platform} conversation id; expected ${shape.expected}.`;
}
