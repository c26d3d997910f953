/**
 * WelcomeMessage on the first contact. A WhatsApp user has no "Start" button (Telegram's
 * client sends /start; Slack's assistant pane opens a thread): the first message of a
 * private chat the bot never greeted is preceded by a `/start` of its own, which the core
 * answers with the chatbot's WelcomeMessage, then the message is answered. Which chats were
 * greeted is kept in the bot's platform storage (Redis), so a restart or another replica
 * does not greet again. The mark goes with the conversation's session: it expires after the
 * gateway's idle time (storage.conversationIdleTtlMs), renewed by each message, so a chat quiet
 * that long is greeted again when it comes back, with its new session.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Inbound, Logger, PlatformStorage } from '../../src/contract.js';

/** The `/start` queued before a first message: its own dedupe key, so it is queued once however often that message is delivered. */
export function greetingBefore(inbound: Inbound): Inbound {
  return { ...inbound, text: '/start', attachments: [], platformMessageId: `welcome:${inbound.platformMessageId}` };
}

export const greetedKey = (chatId: string): string => `greeted:${chatId}`;

const MARK = new Uint8Array([49]);

/**
 * Longest wait for the store to say whether a chat was greeted. A message goes to the gateway
 * only after this check, and it is the gateway that holds a message through a Redis outage and
 * tells its user, after DELAY_NOTICE_AFTER_MS, that the answer will come: a frozen Redis never
 * answers the check, so without this bound the message would wait here, its user told nothing.
 * Well above a Redis answer's time on a busy machine, so a working Redis still greets.
 */
export const GREETING_CHECK_MAX_MS = 1_000;

const UNANSWERED = Symbol('the store did not answer in time');

export class Greeter {
  constructor(private readonly storage: PlatformStorage, private readonly logger: Logger, private readonly checkMaxMs = GREETING_CHECK_MAX_MS) {}

  /**
   * Whether `inbound` is the first contact of a private chat never greeted. False for groups, for
   * chats greeted before, and when the storage cannot say within checkMaxMs (then the message is
   * answered without).
   */
  async isFirstContact(inbound: Inbound): Promise<boolean> {
    if (inbound.isGroup || !inbound.addressed) return false;
    const deadline = new AbortController();
    try {
      // One command checks and renews: a mark written before marks expired gets its lifetime here too.
      const renewed = this.storage.renew(greetedKey(inbound.conversation.id), this.storage.conversationIdleTtlMs);
      const answer = await Promise.race([renewed, sleep(this.checkMaxMs, UNANSWERED, { signal: deadline.signal })]);
      if (answer === UNANSWERED) {
        this.logger.warn({ conversation: inbound.conversation.id, waitedMs: this.checkMaxMs }, 'whatsapp: the state store did not say in time whether the chat was greeted (is Redis frozen?); not greeting it');
        return false;
      }
      return !answer;
    } catch (error) {
      // Redis down: answering the message matters more than the greeting (the core holds it until Redis is back).
      this.logger.warn({ err: error, conversation: inbound.conversation.id }, 'whatsapp: could not check whether the chat was greeted; not greeting it');
      return false;
    } finally {
      deadline.abort();
    }
  }

  /** Notes the chat as greeted (after its first message was queued). */
  async greeted(chatId: string): Promise<void> {
    await this.storage.setBytes(greetedKey(chatId), MARK, { ttlMs: this.storage.conversationIdleTtlMs }).catch((error: unknown) => {
      this.logger.warn({ err: error, conversation: chatId }, 'whatsapp: could not note the chat as greeted; it may be greeted again');
    });
  }
}
