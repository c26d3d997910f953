/**
 * The core's `Outbound` on the Cloud API: `send` (text, or text with choices as reply buttons,
 * a list or numbered text: interactive.ts), `sendFile` (an operator's photo or document, uploaded
 * then sent by its media id: outbound-file.ts) and `typing` (the read mark with the typing
 * indicator, on the very message being answered). No `edit`, `draft` or `startStream`: Meta
 * cannot change a business message once sent, so the core shows "typing…" and sends the answer
 * whole at its end, split within 4,096 characters (README, "Long answers").
 *
 * Rate limits: Meta answers 131056 when one business number writes one user faster than about
 * a message per 6 s (bursts borrow from later), 130429 over the number's throughput. A message
 * that must be delivered (all but an intermediate render) waits here and tries again, the
 * pause doubling from 4 s up to 30 s, for up to RATE_LIMIT_PATIENCE_MS: the limit lifts as
 * the borrowed time is paid back, and the answer goes within 30 s of it. Past that, or for an
 * intermediate render, it is 'rate-limited' with the next pause, and the core's own rule takes
 * over. Every other refusal is a PlatformError at once (errors.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  backoffDelay,
  describeSent,
  GREETING_ID_PREFIX,
  PlatformError,
  type Backoff,
  type ConversationRef,
  type Logger,
  type Outbound,
  type OutboundFile,
  type OutboundMessage,
  type SentMessage,
} from '../../src/contract.js';
import type { NumberedChoices } from './choices.js';
import { addressFields, recipientOf } from './conversation.js';
import { planCloudFile, type CloudFilePlan } from './outbound-file.js';
import { isRateLimit, META_CODES, MetaApiError, toPlatformError } from './errors.js';
import type { GraphClient } from './graph.js';
import { choicesOf, graphBody, numberedPlan, planMessage, type Part, type Plan } from './interactive.js';
import type { SentTexts } from './sent-texts.js';

/** Meta's advice for 131056 is to wait 4^n s; the first pause is 4 s, doubled, never more than 30 s apart. */
export const RATE_LIMIT_BACKOFF: Backoff = { firstMs: 4_000, maxMs: 30_000, jitter: 0.25 };
/**
 * How long a message that must be delivered waits out Meta's rate limits here. A burst of 45
 * messages to one user owes 270 s before the next goes (the pair limit's payback); ten minutes
 * covers that with room, and then the core's own retries follow.
 */
export const RATE_LIMIT_PATIENCE_MS = 10 * 60_000;
/** A message whose first parts went and whose next one failed: the parts sent are not sent again for this long. */
const PARTIAL_MEMORY_MS = 15 * 60_000;

export interface CloudOutboundOptions {
  graph: GraphClient;
  phoneNumberId: string;
  choices: NumberedChoices;
  /** Where a conversation's messages go: its id, or the newest business-scoped id of its user (identities.ts). */
  addressOf(conversationId: string): Promise<string>;
  /** What each message sent said, by its wamid, for a reply that quotes it (sent-texts.ts). */
  sentTexts: SentTexts;
  logger: Logger;
  /** Aborted when the adapter stops (a new one each start): a wait on a rate limit ends at once. */
  stopping(): AbortSignal;
  /** Tests shorten the waits. */
  rateLimitBackoff?: Backoff;
  rateLimitPatienceMs?: number;
}

interface Partial {
  sent: number;
  lastId: string;
  at: number;
}

export class CloudOutbound implements Outbound {
  private readonly partial = new Map<string, Partial>();

  constructor(private readonly options: CloudOutboundOptions) {}

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    const to = recipientOf(conversation.id);
    const address = await this.options.addressOf(to);
    const choices = choicesOf(message);
    const plan = planMessage(message.text, choices);
    // Before the message: the user may answer a number as soon as they read it. Numbers sent
    // before mean nothing once the bot said something else: dropped beside the send (it never fails).
    if (plan.numbered) await this.options.choices.remember(to, plan.numbered);
    const forgetting = plan.numbered ? undefined : this.options.choices.forget(to);
    try {
      return await this.sendParts(to, address, message, plan);
    } finally {
      await forgetting;
    }
  }

  /** `to`: the conversation (what choices and partial sends are kept by); `address`: whom Meta writes to. */
  private async sendParts(to: string, address: string, message: OutboundMessage, initial: Plan): Promise<SentMessage> {
    let plan = initial;
    const key = partialKey(to, message);
    const earlier = this.partialOf(key);
    let lastId = earlier?.lastId ?? '';
    for (let index = earlier?.sent ?? 0; index < plan.parts.length; index++) {
      const part = plan.parts[index]!;
      try {
        lastId = await this.post(graphBody(address, part), describePart(to, part), message.progress === true);
        await this.options.sentTexts.remember(to, lastId, part.text);
      } catch (error) {
        if (part.kind !== 'text' && error instanceof MetaApiError && error.code === META_CODES.parameterValueNotValid) {
          // Meta refused the buttons or the list after all: the choices go as numbered text, never lost.
          this.options.logger.warn(
            { err: error, conversation: to },
            'whatsapp-cloud: Meta refused the interactive message; sending its choices as numbered text',
          );
          const numbered = numberedPlan(part.carriesText ? part.text : '', part.choices);
          await this.options.choices.remember(to, part.choices);
          plan = {
            parts: [...plan.parts.slice(0, index), ...numbered.parts, ...plan.parts.slice(index + 1)],
            numbered: part.choices,
          };
          index--;
          continue;
        }
        if (index > 0) this.partial.set(key, { sent: index, lastId, at: Date.now() });
        throw toPlatformError(error, { sent: describePart(to, part) });
      }
    }
    this.partial.delete(key);
    return { id: lastId };
  }

  /**
   * An operator's photo or document (outbound-file.ts decides how it goes, or refuses it before any
   * upload): `POST /{phone-number-id}/media` gives a media id, then the message names it. An audio
   * shows no caption: its caption goes first as a text. Meta's refusals map as a text's do (a closed
   * 24-hour window is 'window-closed': the upload succeeds, the message is refused).
   */
  async sendFile(conversation: ConversationRef, file: OutboundFile): Promise<SentMessage> {
    const to = recipientOf(conversation.id);
    const plan = planCloudFile(file, 'POST /{phone-number-id}/media');
    const caption = file.caption?.trim() ? file.caption : undefined;
    const sent = describeSent({ to, text: caption, files: 1 });
    const address = await this.options.addressOf(to);
    // A file is the bot saying something else: numbers sent before mean nothing now (as in send()).
    const forgetting = this.options.choices.forget(to);
    try {
      const mediaId = await this.upload(file, plan, sent);
      // After the upload (the likelier failure), so that a retried file does not repeat its caption for nothing.
      if (caption && plan.message === 'audio') await this.send(conversation, { text: caption });
      const media = {
        id: mediaId,
        ...(caption && plan.message !== 'audio' ? { caption } : {}),
        ...(plan.message === 'document' ? { filename: file.fileName } : {}),
      };
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        ...addressFields(address),
        type: plan.message,
        [plan.message]: media,
      };
      const id = await this.post(body, sent, false);
      await this.options.sentTexts.remember(to, id, caption && plan.message !== 'audio' ? caption : '');
      return { id };
    } catch (error) {
      throw toPlatformError(error, { sent });
    } finally {
      await forgetting;
    }
  }

  /** The file uploaded to the number's media (Meta keeps it 30 days); its media id. */
  private async upload(file: OutboundFile, plan: CloudFilePlan, sent: string): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', plan.mimeType);
    // Meta reads the type from the file part's own Content-Type: without it, it sees application/octet-stream and refuses.
    form.append('file', new Blob([file.bytes], { type: plan.mimeType }), file.fileName);
    let answer: unknown;
    try {
      answer = await this.options.graph.postForm(
        [this.options.phoneNumberId, 'media'],
        form,
        'POST /{phone-number-id}/media',
      );
    } catch (error) {
      throw toPlatformError(error, { sent });
    }
    const id = (answer as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '')
      throw new PlatformError('WhatsApp Cloud POST /{phone-number-id}/media answered no media id', 'other', undefined, {
        method: 'POST /{phone-number-id}/media',
        sent,
      });
    return id;
  }

  async typing(conversation: ConversationRef, replyingTo?: { platformMessageId: string }): Promise<void> {
    recipientOf(conversation.id);
    // The greeting before a first message carries that message's id after its prefix.
    const messageId = replyingTo?.platformMessageId.replace(GREETING_ID_PREFIX, '');
    // Meta shows the indicator only on a message of the user's: without one, there is nothing to show it on.
    if (!messageId) return;
    try {
      await this.options.graph.post(
        [this.options.phoneNumberId, 'messages'],
        { messaging_product: 'whatsapp', status: 'read', message_id: messageId, typing_indicator: { type: 'text' } },
        'mark read with the typing indicator',
      );
    } catch (error) {
      throw toPlatformError(error, { sent: describeSent({ to: conversation.id, message: messageId }) });
    }
  }

  /**
   * One Graph message, its rate limits waited out unless it is an intermediate render; its wamid.
   * A rate limit that outlasts the wait is a PlatformError with the next pause; any other refusal
   * comes as Meta said it (send() reads its code).
   */
  private async post(body: Record<string, unknown>, sent: string, progress: boolean): Promise<string> {
    const backoff = this.options.rateLimitBackoff ?? RATE_LIMIT_BACKOFF;
    const patienceMs = this.options.rateLimitPatienceMs ?? RATE_LIMIT_PATIENCE_MS;
    const started = Date.now();
    for (let failures = 1; ; failures++) {
      try {
        const answer = (await this.options.graph.post(
          [this.options.phoneNumberId, 'messages'],
          body,
          'POST /{phone-number-id}/messages',
        )) as { messages?: { id?: unknown }[] };
        const id = answer.messages?.[0]?.id;
        return typeof id === 'string' ? id : '';
      } catch (error) {
        if (!isRateLimit(error)) throw error;
        const waitMs = backoffDelay(failures, backoff);
        const limited = toPlatformError(error, { retryAfterMs: waitMs, sent });
        const stopping = this.options.stopping();
        if (progress || stopping.aborted || Date.now() - started + waitMs > patienceMs) throw limited;
        if (failures === 1)
          this.options.logger.info(
            { sent, code: limited.platformCode, waitMs },
            'whatsapp-cloud: Meta rate-limited a message; waiting, then trying again',
          );
        await sleep(waitMs, undefined, { signal: stopping }).catch(() => {
          throw limited;
        });
      }
    }
  }

  private partialOf(key: string): Partial | undefined {
    const now = Date.now();
    for (const [stale, entry] of this.partial) if (now - entry.at > PARTIAL_MEMORY_MS) this.partial.delete(stale);
    return this.partial.get(key);
  }
}

/** The same message to the same user: its text and choices. */
function partialKey(to: string, message: OutboundMessage): string {
  return JSON.stringify([to, message.text, message.buttons ?? [], message.suggestions ?? []]);
}

/** One Graph message for a failed call's log: its recipient, its text's start and length, its choices. */
function describePart(to: string, part: Part): string {
  return describeSent({ to, text: part.text, buttons: part.kind === 'text' ? undefined : part.choices.length });
}
