/**
 * WelcomeMessage on a user's first message. A WhatsApp user has no "Start" button: the first
 * message of a user the bot never greeted is preceded by a `/start` of its own, which the core
 * answers with the chatbot's WelcomeMessage (and its SuggestedMessage as choices), then the
 * message is answered. Which users were greeted is kept in the bot's platform storage (Redis),
 * so another replica or a restart does not greet again; the mark lives as long as the
 * conversation's session (storage.conversationIdleTtlMs), renewed by each message.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Inbound, Logger, PlatformStorage } from '../../src/contract.js';

/** The `/start` queued before a first message: its own dedupe key, so it is queued once however often Meta delivers that message. */
export function greetingBefore(inbound: Inbound): Inbound {
  // A first message that is a button press (a forwarded list, an old chat) is greeted as typed text would be.
  const { action: _pressed, ...message } = inbound;
  return { ...message, text: '/start', attachments: [], platformMessageId: `${GREETING_ID_PREFIX}${inbound.platformMessageId}` };
}

/** Prefix of the greeting's message id: the wamid after it is the user's message it greets. */
export const GREETING_ID_PREFIX = 'welcome:';

export const greetedKey = (user: string): string => `greeted:${user}`;

const MARK = new Uint8Array([49]);

/**
 * Longest wait for the store to say whether a user was greeted. Meta waits only seconds for
 * the webhook's answer, and a frozen Redis never answers: then the message goes on ungreeted
 * (the core holds it until Redis is back). Well above a Redis answer on a busy machine.
 */
export const GREETING_CHECK_MAX_MS = 1_000;

const UNANSWERED = Symbol('the store did not answer in time');

export class Greeter {
  constructor(private readonly storage: PlatformStorage, private readonly logger: Logger, private readonly checkMaxMs = GREETING_CHECK_MAX_MS) {}

  /** Whether `inbound` is the first message of a user never greeted; false when the store cannot say in time. */
  async isFirstContact(inbound: Inbound): Promise<boolean> {
    const deadline = new AbortController();
    try {
      // One command checks and renews: a user greeted before keeps the mark as long as the session.
      const renewed = this.storage.renew(greetedKey(inbound.conversation.id), this.storage.conversationIdleTtlMs);
      const answer = await Promise.race([renewed, sleep(this.checkMaxMs, UNANSWERED, { signal: deadline.signal })]);
      if (answer === UNANSWERED) {
        this.logger.warn({ conversation: inbound.conversation.id, waitedMs: this.checkMaxMs }, 'whatsapp-cloud: the state store did not say in time whether the user was greeted (is Redis frozen?); not greeting');
        return false;
      }
      return !answer;
    } catch (error) {
      this.logger.warn({ err: error, conversation: inbound.conversation.id }, 'whatsapp-cloud: could not check whether the user was greeted; not greeting');
      return false;
    } finally {
      deadline.abort();
    }
  }

  /** Notes the user as greeted (after their first message was queued). */
  async greeted(user: string): Promise<void> {
    await this.storage.setBytes(greetedKey(user), MARK, { ttlMs: this.storage.conversationIdleTtlMs }).catch((error: unknown) => {
      this.logger.warn({ err: error, conversation: user }, 'whatsapp-cloud: could not note the user as greeted; they may be greeted again');
    });
  }
}
