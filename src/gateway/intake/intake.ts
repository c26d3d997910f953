/**
 * Accepting messages: the InboundSink the adapters hand their messages to.
 * A message is checked (a conversation this gateway serves, addressed to the
 * bot), queued durably (deduped by its platform id, capped per conversation),
 * refused with a "please wait" when its conversation's queue is full, and, when
 * its arrival claimed the conversation's lock, its conversation starts draining
 * here (or waits for a free slot: drains.ts). `accept` resolves once the message is
 * durably queued; at most ACCEPTS_AT_ONCE are being accepted at once, the others wait their
 * turn first (accept-line.ts). A source that cannot be told to send again (polling: patient-sink.ts)
 * also waits for `roomForMore()`, so that it stops fetching while this process has a
 * long line of conversations waiting for a slot.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import { AcceptLine } from './accept-line.js';
import type { GatewayObserver } from '../observer.js';
import { notServedError, type AdapterRoutes } from './adapter-routes.js';
import type { PacedSink } from './patient-sink.js';
import type { ConversationRef, Inbound, InboundRevision } from '../../contract.js';
import type { StateStore } from '../../state/index.js';
import { parseCommand, STOP_COMMAND } from '../commands/index.js';
import { reviseQueued } from './revise.js';
import { toQueuedMessage, type ConversationQueue, type Drains, type LocalAttachments } from '../drain/index.js';
import { OUT_OF_TURN_REPLY_RETRY, sendReply } from '../reply/index.js';
import type { UserTexts } from '../user-texts.js';
import { describeAttachment, type TranscriptStore } from '../stores/index.js';

/**
 * Conversations waiting for a slot in this process beyond which a polling source waits
 * before fetching more. Their messages are already in Redis and each costs only its id
 * here, so the bound is not about memory: it keeps a backlog of a few seconds of answers
 * (at the measured ~400 answers/s per process) so that no slot idles, and leaves the rest
 * with the platform, which keeps them (Telegram 24 h) until this process has room.
 */
export const WAITING_FOR_SLOT_MAX = 1_000;

/**
 * Messages being accepted at once in this process (accept-line.ts); more wait their turn.
 * Telegram opens at most 100 webhook connections and its poller hands over 100 updates at a
 * time, so real sources rarely wait here; 100 offers in flight keep Redis busy (each is one
 * round trip), and a source that hands over thousands at once no longer holds them all in memory.
 */
export const ACCEPTS_AT_ONCE = 100;

export interface IntakeOptions {
  routes: AdapterRoutes;
  queue: ConversationQueue;
  drains: Drains;
  /** Attachments of the messages accepted here, until they are answered. */
  local: LocalAttachments;
  transcript: TranscriptStore;
  observer: GatewayObserver;
  logger: Logger;
  state: StateStore;
  /**
   * Stops the answer being written in the conversation, in whichever process writes it (a /stop arrived
   * while its conversation's lock was held); `platformMessageId` is the /stop's.
   */
  stopAnswer(conversation: ConversationRef, platformMessageId: string): Promise<void>;
  /** What the gateway says in a conversation, in its chatbot's language. */
  textsOf(conversation: Inbound['conversation']): Promise<UserTexts>;
}

export class Intake implements PacedSink {
  /** This process, as the origin of the messages it queues. */
  private readonly origin = randomUUID();
  private closed = false;
  private readonly line = new AcceptLine(ACCEPTS_AT_ONCE);

  constructor(private readonly options: IntakeOptions) {}

  /** Messages whose arrival claims a conversation start draining it (gateway start). */
  open(): void {
    this.closed = false;
  }

  /**
   * The gateway is stopping: messages are still queued, but a conversation they claim is
   * let go at once, so that another process answers it now.
   */
  close(): void {
    this.closed = true;
  }

  /** `signal`: the accept was given up while it waited for its turn (its webhook was answered 503); it then does nothing. */
  async accept(inbound: Inbound, signal?: AbortSignal): Promise<void> {
    const fullQueue = await this.line.run(() => this.queueNow(inbound), signal);
    if (fullQueue === undefined) return;
    // After its place in line is given back: a platform that is down may hold this reply up to a
    // minute (OUT_OF_TURN_REPLY_RETRY), and the messages behind it must not wait for that.
    this.options.logger.info(
      { conversation: inbound.conversation, waiting: fullQueue },
      'conversation queue is full; asking the user to wait',
    );
    await this.refuseFullQueue(inbound, fullQueue).catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'could not send the queue-full reply'),
    );
  }

  /** An edit or a deletion of a message accepted before (InboundSink.revise): applied while it waits for its answer. */
  async revise(revision: InboundRevision): Promise<void> {
    const conversation = revision.kind === 'edited' ? revision.message.conversation : revision.conversation;
    if (!this.options.routes.serves(conversation)) throw notServedError(conversation);
    if (revision.kind === 'edited' && !revision.message.addressed) return;
    await reviseQueued(this.options.state, this.options.local, revision, this.options.logger);
  }

  /** Queues the message (and starts or lines up its conversation); the length of its conversation's queue when that is full. */
  private async queueNow(inbound: Inbound): Promise<number | undefined> {
    const { routes, queue, local, logger } = this.options;
    const { conversation } = inbound;
    if (!routes.serves(conversation)) throw notServedError(conversation);
    if (!inbound.addressed) {
      logger.debug({ conversation }, 'ignoring a group message not addressed to the bot');
      return;
    }
    const message = toQueuedMessage(inbound, randomUUID(), this.origin, Date.now());
    // Kept before the offer: a drain may start on this message before offer() returns here.
    local.keep(message.id, inbound.attachments);
    // No room to answer now: queued without taking the lock, rather than taking it only to let it go.
    const hold = this.closed ? undefined : this.options.drains.hold(conversation);
    const entry = JSON.stringify(message);
    // A platform that redelivers for longer than the core remembers ids (Meta: 7 days) says so in its capabilities.
    const redeliveryWindowMs = routes.adapterOf(conversation)?.capabilities.redeliveryWindowMs;
    const offered = { claim: hold !== undefined, ...(redeliveryWindowMs !== undefined ? { redeliveryWindowMs } : {}) };
    const result = await queue
      .offer(conversation, inbound.platformMessageId, entry, offered)
      .catch((error: unknown) => {
        local.forget(message.id);
        void hold?.end();
        throw error;
      });
    const claim = result.outcome === 'queued' ? result.claim : null;
    // A /stop is queued (recorded, and answered when there was nothing to stop), and told at once to whoever writes an answer.
    const lockHeld = result.outcome === 'full' || (result.outcome === 'queued' && !claim && result.lockFree !== true);
    if (lockHeld && !inbound.action && parseCommand(inbound.text)?.name === STOP_COMMAND)
      await this.options.stopAnswer(conversation, inbound.platformMessageId);
    // No claim came of it (duplicate, full, the lock held elsewhere): the slot goes back at once (it holds no lock yet).
    if (hold && !claim) void hold.end();
    if (result.outcome !== 'queued') local.forget(message.id);
    if (result.outcome === 'duplicate') {
      logger.debug({ conversation, platformMessageId: inbound.platformMessageId }, 'dropping a redelivered message');
      return;
    }
    if (result.outcome === 'full') return result.length;
    this.options.observer.accepted?.(conversation);
    // A claim comes only with a hold (offered with `claim` only then).
    if (!claim || !hold) {
      // Alone in its queue, this message is the head: the claim can ride on its turn's first batch.
      if (result.lockFree && !this.closed)
        this.options.drains.enqueue(conversation, result.length === 1 ? entry : undefined);
      return;
    }
    hold.claimed(claim);
    // Closed (the gateway stopping): the lock goes back at once with the slot, so that another process answers now.
    if (this.closed) await hold.end();
    // Alone in its queue, this message is the head and no turn of it has started; otherwise the head may have been started before.
    else await this.options.drains.start(hold, claim.head, result.length === 1 ? 'new' : 'again');
    return undefined;
  }

  /** Resolves once few enough conversations wait for a slot here (WAITING_FOR_SLOT_MAX). */
  roomForMore(): Promise<void> {
    return this.options.drains.whenFewerWaiting(WAITING_FOR_SLOT_MAX);
  }

  /** The message and the "please wait" both go into the transcript: nothing a user sent is missing from it. */
  private async refuseFullQueue(inbound: Inbound, waiting: number): Promise<void> {
    const target = this.options.routes.outboundFor(inbound.conversation, inbound.isGroup);
    if (!target) return;
    const text = (await this.options.textsOf(inbound.conversation)).queueFull(waiting);
    const attachments = inbound.attachments.map(describeAttachment);
    await this.options.transcript.append(
      inbound.conversation,
      {
        at: Date.now(),
        role: 'user',
        text: inbound.text,
        user: inbound.user,
        ...(attachments.length ? { attachments } : {}),
      },
      { at: Date.now(), role: 'bot', text },
    );
    await sendReply(
      target.outbound,
      target.capabilities,
      inbound.conversation,
      text,
      {},
      undefined,
      OUT_OF_TURN_REPLY_RETRY,
    );
  }
}
