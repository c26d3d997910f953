/**
 * The e-mail outbox: a mail is written to Redis in the same MULTI as the pause
 * that causes it, then a sender loop in every gateway process delivers due
 * mails. Each mail is claimed with a lease before sending and deleted after
 * success, so it is sent once however many processes run; a failed send is
 * retried with capped exponential backoff; a process that dies mid-send lets
 * its lease lapse and another one sends the mail. (The one gap: SMTP accepted
 * the mail and Redis failed before the delete — then it is sent again; a
 * duplicate beats a lost handoff.)
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { AtomicCommand, StateStore } from '../state/index.js';
import { handoffKeys } from './keys.js';
import { retryDelayMs, type OutboxPolicy } from './policy.js';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<bot>:<platform>:<id>`, for the logs. */
  conversation: string;
  createdAt: number;
  failures: number;
  lastError?: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
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

  /** A new mail, due now; run the commands in the caller's MULTI, then call `wake()`. */
  enqueueCommands(mail: Omit<OutboxMail, 'id' | 'createdAt' | 'failures'>, now = Date.now()): AtomicCommand[] {
    const full: OutboxMail = { ...mail, id: randomUUID(), createdAt: now, failures: 0 };
    return [
      { op: 'set', key: handoffKeys.mail(full.id), value: JSON.stringify(full) },
      { op: 'sortedAdd', key: handoffKeys.outbox, score: now, member: full.id },
    ];
  }

  /** Mails not sent yet (due or waiting for a retry). */
  async pending(): Promise<OutboxMail[]> {
    const ids = await this.options.state.sortedRangeByScore(handoffKeys.outbox, 0, Number.MAX_SAFE_INTEGER);
    const raw = await this.options.state.getMany(ids.map(({ member }) => handoffKeys.mail(member)));
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
        const due = await this.options.state.sortedRangeByScore(handoffKeys.outbox, 0, Date.now(), this.options.policy.batchSize);
        for (const { member } of due) {
          if (this.stopped) return;
          await this.sendOne(member);
        }
      } catch (error) {
        this.options.logger.warn({ err: error }, 'the handoff outbox could not be read; trying again at the next poll');
      }
    } while (this.again && !this.stopped);
  }

  private async sendOne(id: string): Promise<void> {
    const { state, policy, logger } = this.options;
    const transport = this.options.transport;
    if (!transport) return;
    const leaseKey = handoffKeys.mailLease(id);
    const token = await state.acquireLock(leaseKey, policy.leaseMs);
    if (!token) return; // another process is sending it
    const heartbeat = setInterval(() => {
      void state.extendLock(leaseKey, token, policy.leaseMs).then((kept) => {
        if (!kept) logger.warn({ mail: id }, 'lost the claim of a handoff e-mail while sending it; it may be sent twice');
      }, () => undefined);
    }, Math.max(policy.leaseMs / 3, 1));
    try {
      // Re-read under the lease: another process may have sent it (or rescheduled it) since our range read.
      const score = await state.sortedScore(handoffKeys.outbox, id);
      const raw = await state.get(handoffKeys.mail(id));
      if (score === null || score > Date.now() || raw === null) {
        if (score !== null && raw === null) await state.sortedRemove(handoffKeys.outbox, id);
        return;
      }
      const mail = JSON.parse(raw) as OutboxMail;
      try {
        await transport.sendMail({ from: this.options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        await this.reschedule(mail, error);
        return;
      }
      await state.atomic([{ op: 'del', key: handoffKeys.mail(id) }, { op: 'sortedRemove', key: handoffKeys.outbox, member: id }]);
      logger.info({ mail: id, to: mail.to, conversation: mail.conversation, attempts: mail.failures + 1 }, 'handoff e-mail sent');
    } finally {
      clearInterval(heartbeat);
      await state.releaseLock(leaseKey, token).catch(() => undefined);
    }
  }

  private async reschedule(mail: OutboxMail, error: unknown): Promise<void> {
    const failures = mail.failures + 1;
    const delay = retryDelayMs(failures, this.options.policy);
    const message = error instanceof Error ? error.message : String(error);
    await this.options.state.atomic([
      { op: 'set', key: handoffKeys.mail(mail.id), value: JSON.stringify({ ...mail, failures, lastError: message }) },
      { op: 'sortedAdd', key: handoffKeys.outbox, score: Date.now() + delay, member: mail.id },
    ]);
    this.options.logger.warn(
      { mail: mail.id, to: mail.to, conversation: mail.conversation, failures, retryInMs: delay, err: error },
      'sending a handoff e-mail failed (check SMTP_URL / smtp.url and the SMTP server); it stays in the outbox and is retried',
    );
  }
}
