/**
 * Which conversation a user's business-scoped user id (BSUID) belongs to, and where to write a
 * conversation keyed by a BSUID that has since changed. Meta gives a user a new BSUID now and then
 * (a new number, among other reasons) and tells the bot with a `system` message of type
 * `user_changed_user_id`, which names the new id (and, in its body, the old one) and no `from`.
 * The user stays in the conversation they had, so that their transcript, session and handoff go
 * on: the new id is mapped to it, and replies to it go to the new id.
 *
 * Kept in the bot's platform storage (`cb:platform:whatsapp-cloud:<bot>:…`), for as long as the
 * gateway keeps a quiet conversation (renewed by each message of the user):
 *
 *   alias:<new BSUID>        → the conversation id it belongs to (an earlier BSUID, or a number)
 *   recipient:<conversation> → the BSUID replies to a BSUID-keyed conversation go to now
 */
import type { Logger, PlatformStorage } from '../../src/contract.js';
import { isBusinessScopedId, isPhoneId } from './conversation.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

export class CloudIdentities {
  constructor(
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
  ) {}

  /** The conversation of a user Meta names `userId` (a number is its own; a BSUID may be mapped to an earlier one). */
  async conversationOf(userId: string): Promise<string> {
    if (!isBusinessScopedId(userId)) return userId;
    const mapped = await this.storage.getBytes(aliasKey(userId));
    if (!mapped) return userId;
    const conversation = decode(mapped);
    await this.storage.renew(aliasKey(userId), this.storage.conversationIdleTtlMs);
    return conversation;
  }

  /** Where a message to `conversationId` goes: the user's newest BSUID when it changed, else the id itself. */
  async addressOf(conversationId: string): Promise<string> {
    if (!isBusinessScopedId(conversationId)) return conversationId;
    const current = await this.storage.getBytes(recipientKey(conversationId));
    return current ? decode(current) : conversationId;
  }

  /** The user's BSUID changed from `previous` to `next`: `next` joins the conversation `previous` had. */
  async changed(previous: string, next: string): Promise<string> {
    const conversation = await this.conversationOf(previous);
    const ttlMs = this.storage.conversationIdleTtlMs;
    await this.storage.setBytes(aliasKey(next), encode(conversation), { ttlMs });
    // A conversation keyed by a number is still written to by its number.
    if (!isPhoneId(conversation)) await this.storage.setBytes(recipientKey(conversation), encode(next), { ttlMs });
    this.logger.info({ conversation, next }, "whatsapp-cloud: a user's business-scoped id changed; same conversation");
    return conversation;
  }
}

const aliasKey = (userId: string): string => `alias:${userId}`;
const recipientKey = (conversationId: string): string => `recipient:${conversationId}`;

/**
 * The ids of a `user_changed_user_id` notice: the new one from `system.user_id`, the old one from
 * the sender field when Meta gives it, else from the body ("User <name> changed from <old> to <new>").
 */
export function idChange(notice: {
  from_user_id?: string | undefined;
  system?: { user_id?: string | undefined; body?: string | undefined } | undefined;
}): { previous: string; next: string } | undefined {
  const fromBody = / changed from (\S+) to (\S+)\s*$/.exec(notice.system?.body ?? '');
  const previous = notice.from_user_id ?? fromBody?.[1];
  const next = notice.system?.user_id ?? fromBody?.[2];
  if (!previous || !next || previous === next) return undefined;
  if (!isBusinessScopedId(previous) || !isBusinessScopedId(next)) return undefined;
  return { previous, next };
}
