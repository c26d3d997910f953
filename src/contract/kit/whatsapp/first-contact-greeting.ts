/**
 * The WelcomeMessage on a first contact, for a platform without a "Start" button (WhatsApp Web
 * and the Cloud API; Telegram's client sends /start, Slack's assistant pane opens a thread): the
 * first message of a private conversation the bot never greeted is preceded by a `/start` of its
 * own, which the core answers with the chatbot's WelcomeMessage (and its SuggestedMessage as
 * choices), then the message is answered. Which conversations were greeted is kept in the bot's
 * platform storage (Redis), so a restart or another replica does not greet again. The mark goes
 * with the conversation's session: it expires after the gateway's idle time
 * (storage.conversationIdleTtlMs), renewed by each message, so a conversation quiet that long is
 * greeted again when it comes back, with its new session.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Inbound, Logger } from '../../adapter.js';
import type { PlatformStorage } from '../../platform-module.js';

/** Prefix of the greeting's message id: the platform's id after it is the message it greets. */
export const GREETING_ID_PREFIX = 'welcome:';

/** The `/start` queued before a first message: its own dedupe key, so it is queued once however often the platform delivers that message. */
export function greetingBefore(inbound: Inbound): Inbound {
  // A first message that is a button press (a forwarded list, an old chat) is greeted as typed text would be.
  const { action: _pressed, ...message } = inbound;
  return {
    ...message,
    text: '/start',
    attachments: [],
    platformMessageId: `${GREETING_ID_PREFIX}${inbound.platformMessageId}`,
  };
}

export const greetedKey = (conversationId: string): string => `greeted:${conversationId}`;

const MARK = new Uint8Array([49]);

/**
 * Longest wait for the store to say whether a conversation was greeted. A message goes to the
 * gateway only after this check, and it is the gateway that holds a message through a Redis
 * outage and tells its user, after DELAY_NOTICE_AFTER_MS, that the answer will come; a webhook
 * (Meta) waits only seconds for its answer. A frozen Redis never answers the check, so without
 * this bound the message would wait here, its user told nothing. Well above a Redis answer's
 * time on a busy machine, so a working Redis still greets.
 */
export const GREETING_CHECK_MAX_MS = 1_000;

const UNANSWERED = Symbol('the store did not answer in time');

export interface FirstContactGreeterOptions {
  /** The platform's id, which starts the greeter's log lines ("whatsapp", "whatsapp-cloud"). */
  platform: string;
  /** Longest wait for the store's answer; GREETING_CHECK_MAX_MS unless a test wants less. */
  checkMaxMs?: number;
}

export class FirstContactGreeter {
  private readonly platform: string;
  private readonly checkMaxMs: number;

  constructor(
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
    options: FirstContactGreeterOptions,
  ) {
    this.platform = options.platform;
    this.checkMaxMs = options.checkMaxMs ?? GREETING_CHECK_MAX_MS;
  }

  /**
   * Whether `inbound` is the first contact of a private conversation never greeted. False for
   * groups, for conversations greeted before, and when the storage cannot say within checkMaxMs
   * (then the message is answered without).
   */
  async isFirstContact(inbound: Inbound): Promise<boolean> {
    if (inbound.isGroup || !inbound.addressed) return false;
    const deadline = new AbortController();
    try {
      // One command checks and renews: a mark written before marks expired gets its lifetime here too.
      const renewed = this.storage.renew(greetedKey(inbound.conversation.id), this.storage.conversationIdleTtlMs);
      const answer = await Promise.race([renewed, sleep(this.checkMaxMs, UNANSWERED, { signal: deadline.signal })]);
      if (answer === UNANSWERED) {
        this.logger.warn(
          { conversation: inbound.conversation.id, waitedMs: this.checkMaxMs },
          `${this.platform}: the state store did not say in time whether the conversation was greeted (is Redis frozen?); not greeting it`,
        );
        return false;
      }
      return !answer;
    } catch (error) {
      // Redis down: answering the message matters more than the greeting (the core holds it until Redis is back).
      this.logger.warn(
        { err: error, conversation: inbound.conversation.id },
        `${this.platform}: could not check whether the conversation was greeted; not greeting it`,
      );
      return false;
    } finally {
      deadline.abort();
    }
  }

  /** Notes the conversation as greeted (after its first message was queued). */
  async greeted(conversationId: string): Promise<void> {
    await this.storage
      .setBytes(greetedKey(conversationId), MARK, { ttlMs: this.storage.conversationIdleTtlMs })
      .catch((error: unknown) => {
        this.logger.warn(
          { err: error, conversation: conversationId },
          `${this.platform}: could not note the conversation as greeted; it may be greeted again`,
        );
      });
  }
}
