/**
 * The e-mail outbox: a mail is written to Redis in the same MULTI as the pause
 * that causes it, then a sender loop in every gateway process delivers due
 * mails. Each mail is claimed with a lease before sending and deleted after
 * success, so it is sent once however many processes run; a failed send is
 * retried with capped exponential backoff; a process that dies mid-send lets
 * its lease lapse and another one sends the mail. (The one gap: SMTP accepted
 * the mail and Redis failed before the delete — then it is sent again; a
 * duplicate beats a lost handoff.)
 *
 * Transient failures (no connection, 4xx) are retried for as long as it takes;
 * permanent ones (5xx, e.g. a refused recipient) only up to the policy's limits,
 * then the mail becomes a dead letter that an operator can requeue once the
 * address or the SMTP settings are fixed.
 */
import type { ConversationRef } from '../../contract.js';
import type { Logger } from '../../logger.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { handoffKeys, mailTag, newMailId } from '../keys.js';
import { retryDelayMs, type OutboxPolicy } from '../policy.js';
import { isPermanentSmtpFailure, smtpResponseCode } from './smtp-errors.js';
import { conversationTag } from '../../gateway/index.js';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files it carries (a digest's CSV or full logs). */
  attachments?: MailAttachment[];
  /** `<bot>:<platform>:<id>`, for the logs (a digest's: `digest:<serial>:<kind>:<day>`). */
  conversation: string;
  createdAt: number;
  failures: number;
  /** Failures that were permanent refusals (5xx); counted toward the dead letters. */
  permanentFailures?: number;
  lastError?: string;
  /** When it became a dead letter (ms); absent while it is still tried. */
  deadAt?: number;
}

/** A change to a waiting mail (its text, say); the id and counters are kept. */
export type MailChange = (mail: OutboxMail) => Pick<OutboxMail, 'subject' | 'text' | 'html'>;

/** A file a mail carries (the leads' CSV, the full chat logs), as nodemailer takes it. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

/** The part of a nodemailer Transporter the outbox uses. */
export interface MailTransport {
  sendMail(mail: OutgoingMail): Promise<unknown>;
  close?(): void;
}

export interface OutboxOptions {
  state: StateStore;
  /** null = no SMTP_URL: mails wait in the outbox. */
  transport: MailTransport | null;
  from: string;
  policy: OutboxPolicy;
  logger: Logger;
}

export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: OutboxOptions) {}

  /**
   * A new mail about `conversation`, due at `dueAt` (now by default); run the commands in the
   * caller's MULTI, then call `wake()`. `id` (newMailId) lets the caller keep a handle on it. The
   * mail and its outbox entry live in the conversation's shard, like the pause written with them.
   */
  enqueueCommands(
    conversation: ConversationRef,
    mail: Omit<OutboxMail, 'id' | 'createdAt' | 'failures'>,
    now = Date.now(),
    dueAt = now,
    id: string = newMailId(conversation),
  ): AtomicCommand[] {
    const tag = conversationTag(conversation);
    if (mailTag(id) !== tag)
      throw new Error(`mail id ${id} does not name the shard of its conversation (use newMailId)`);
    const full: OutboxMail = { ...mail, id, createdAt: now, failures: 0 };
    return [
      { op: 'set', key: handoffKeys.mail(tag, full.id), value: JSON.stringify(full) },
      { op: 'sortedAdd', key: handoffKeys.outbox(tag), score: dueAt, member: full.id },
    ];
  }

  /** Mails not sent yet (due or waiting for a retry), soonest first. */
  pending(): Promise<OutboxMail[]> {
    return this.mailsIn(handoffKeys.outbox);
  }

  /** Mails given up after permanent refusals, oldest first. */
  dead(): Promise<OutboxMail[]> {
    return this.mailsIn(handoffKeys.dead);
  }

  /** Puts a dead letter back into the outbox, due now, with fresh counters; null when `id` is not a dead letter. */
  async requeue(id: string, now = Date.now()): Promise<OutboxMail | null> {
    const { state } = this.options;
    const tag = mailTag(id);
    if (tag === null) return null;
    const raw =
      (await state.sortedScore(handoffKeys.dead(tag), id)) === null ? null : await state.get(handoffKeys.mail(tag, id));
    if (raw === null) return null;
    const { deadAt: _deadAt, permanentFailures: _permanent, ...rest } = JSON.parse(raw) as OutboxMail;
    // createdAt restarts too: otherwise an old mail would die again at its first refusal (maxPermanentAgeMs).
    const mail: OutboxMail = { ...rest, createdAt: now, failures: 0 };
    await state.atomic([
      { op: 'set', key: handoffKeys.mail(tag, id), value: JSON.stringify(mail) },
      { op: 'sortedRemove', key: handoffKeys.dead(tag), member: id },
      { op: 'sortedAdd', key: handoffKeys.outbox(tag), score: now, member: id },
    ]);
    this.options.logger.info(
      { mail: id, to: mail.to, conversation: mail.conversation },
      'a dead handoff e-mail was put back into the outbox',
    );
    this.wake();
    return mail;
  }

  /**
   * Changes a mail still waiting in the outbox, under its sending lease so that
   * no process sends the old text meanwhile. False when it was sent, or is
   * being sent, or is a dead letter: the caller then writes a new mail.
   */
  update(id: string, change: MailChange): Promise<boolean> {
    return this.underLease(id, async (mail, tag) => {
      await this.options.state.set(handoffKeys.mail(tag, id), JSON.stringify({ ...mail, ...change(mail) }));
    });
  }

  /** Drops a mail still waiting in the outbox (false when it was sent or is being sent). */
  cancel(id: string): Promise<boolean> {
    return this.underLease(id, async (_mail, tag) => {
      await this.options.state.atomic([
        { op: 'del', key: handoffKeys.mail(tag, id) },
        { op: 'sortedRemove', key: handoffKeys.outbox(tag), member: id },
      ]);
    });
  }

  private async underLease(id: string, act: (mail: OutboxMail, tag: string) => Promise<void>): Promise<boolean> {
    const { state, policy } = this.options;
    const tag = mailTag(id);
    if (tag === null) return false;
    const leaseKey = handoffKeys.mailLease(tag, id);
    const token = await state.acquireLock(leaseKey, policy.leaseMs);
    if (!token) return false;
    try {
      const raw =
        (await state.sortedScore(handoffKeys.outbox(tag), id)) === null
          ? null
          : await state.get(handoffKeys.mail(tag, id));
      if (raw === null) return false;
      await act(JSON.parse(raw) as OutboxMail, tag);
      return true;
    } finally {
      await state.releaseLock(leaseKey, token).catch(() => undefined);
    }
  }

  /** The mails indexed in every shard's set of kind `index` (outbox or dead letters), lowest score first. */
  private async mailsIn(index: (tag: string) => string): Promise<OutboxMail[]> {
    const entries = await rangeEveryShard(this.options.state, index, 0, Number.MAX_SAFE_INTEGER);
    const raw = await this.options.state.getMany(entries.map(({ tag, member }) => handoffKeys.mail(tag, member)));
    return raw.flatMap((value) => (value ? [JSON.parse(value) as OutboxMail] : []));
  }

  get canSend(): boolean {
    return this.options.transport !== null;
  }

  start(): void {
    if (!this.options.transport) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.policy.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Sends what is due now (a run already in progress goes round once more). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Stops polling and waits for a send in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    this.options.transport?.close?.();
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        const due = await rangeEveryShard(
          this.options.state,
          handoffKeys.outbox,
          0,
          Date.now(),
          this.options.policy.batchSize,
        );
        for (const { tag, member } of due) {
          if (this.stopped) return;
          await this.sendOne(tag, member);
        }
      } catch (error) {
        this.options.logger.warn({ err: error }, 'the handoff outbox could not be read; trying again at the next poll');
      }
    } while (this.again && !this.stopped);
  }

  private async sendOne(tag: string, id: string): Promise<void> {
    const { state, policy, logger } = this.options;
    const transport = this.options.transport;
    if (!transport) return;
    const leaseKey = handoffKeys.mailLease(tag, id);
    const token = await state.acquireLock(leaseKey, policy.leaseMs);
    if (!token) return; // another process is sending it
    const heartbeat = setInterval(
      () => {
        void state.extendLock(leaseKey, token, policy.leaseMs).then(
          (kept) => {
            if (!kept)
              logger.warn({ mail: id }, 'lost the claim of a handoff e-mail while sending it; it may be sent twice');
          },
          () => undefined,
        );
      },
      Math.max(policy.leaseMs / 3, 1),
    );
    try {
      // Re-read under the lease: another process may have sent it (or rescheduled it) since our range read.
      const score = await state.sortedScore(handoffKeys.outbox(tag), id);
      const raw = await state.get(handoffKeys.mail(tag, id));
      if (score === null || score > Date.now() || raw === null) {
        if (score !== null && raw === null) await state.sortedRemove(handoffKeys.outbox(tag), id);
        return;
      }
      const mail = JSON.parse(raw) as OutboxMail;
      try {
        await transport.sendMail({
          from: this.options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
        });
      } catch (error) {
        await this.reschedule(tag, mail, error);
        return;
      }
      await state.atomic([
        { op: 'del', key: handoffKeys.mail(tag, id) },
        { op: 'sortedRemove', key: handoffKeys.outbox(tag), member: id },
      ]);
      logger.info(
        { mail: id, to: mail.to, conversation: mail.conversation, attempts: mail.failures + 1 },
        'handoff e-mail sent',
      );
    } finally {
      clearInterval(heartbeat);
      await state.releaseLock(leaseKey, token).catch(() => undefined);
    }
  }

  private async reschedule(tag: string, mail: OutboxMail, error: unknown): Promise<void> {
    const { policy, logger, state } = this.options;
    const now = Date.now();
    const permanent = isPermanentSmtpFailure(error);
    const permanentFailures = (mail.permanentFailures ?? 0) + (permanent ? 1 : 0);
    const failed: OutboxMail = {
      ...mail,
      failures: mail.failures + 1,
      permanentFailures,
      lastError: error instanceof Error ? error.message : String(error),
    };
    if (
      permanent &&
      (permanentFailures >= policy.maxPermanentFailures || now - mail.createdAt >= policy.maxPermanentAgeMs)
    ) {
      await this.bury(tag, failed, now, smtpResponseCode(error));
      return;
    }
    const delay = retryDelayMs(failed.failures, policy);
    await state.atomic([
      { op: 'set', key: handoffKeys.mail(tag, mail.id), value: JSON.stringify(failed) },
      { op: 'sortedAdd', key: handoffKeys.outbox(tag), score: now + delay, member: mail.id },
    ]);
    logger.warn(
      {
        mail: mail.id,
        to: mail.to,
        conversation: mail.conversation,
        failures: failed.failures,
        permanent,
        retryInMs: delay,
        err: error,
      },
      permanent
        ? "the SMTP server refused a handoff e-mail (check the chatbot's TalkToHumanEmail and SMTP_FROM); it is retried a few times, then kept as a dead letter"
        : 'sending a handoff e-mail failed (check SMTP_URL / smtp.url and the SMTP server); it stays in the outbox and is retried',
    );
  }

  /** Out of the outbox into the dead letters (the JSON stays, for the operator to read and requeue). */
  private async bury(tag: string, mail: OutboxMail, now: number, responseCode: number | undefined): Promise<void> {
    await this.options.state.atomic([
      { op: 'set', key: handoffKeys.mail(tag, mail.id), value: JSON.stringify({ ...mail, deadAt: now }) },
      { op: 'sortedRemove', key: handoffKeys.outbox(tag), member: mail.id },
      { op: 'sortedAdd', key: handoffKeys.dead(tag), score: now, member: mail.id },
    ]);
    this.options.logger.error(
      {
        mail: mail.id,
        to: mail.to,
        conversation: mail.conversation,
        failures: mail.failures,
        responseCode,
        lastError: mail.lastError,
      },
      `The SMTP server refused the handoff e-mail to "${mail.to}" permanently (${mail.lastError}); nobody was told about ${mail.conversation}. ` +
        "The mail is kept as a dead letter (GET /admin/handoff-mail, chatbridge handoff list). Fix the chatbot's TalkToHumanEmail setting " +
        `or SMTP_URL / SMTP_FROM (smtp.url / smtp.from), then requeue it: chatbridge handoff retry-mail ${mail.id}`,
    );
  }
}
