/**
 * Update delivery as Telegram does it: either long polling (getUpdates with
 * offset confirmation, waiting up to `timeout` seconds instead of answering
 * empty at once) or a webhook (POST with the secret token header, retried
 * until the bot answers 2xx). The two are mutually exclusive.
 */
import type { Update } from 'grammy/types';

interface Pending {
  update: Update;
  /** A deliberate redelivery (same update_id): not confirmed by `offset`, dropped once handed out. */
  redelivery: boolean;
}

export interface Webhook {
  url: string;
  secretToken?: string;
  allowedUpdates?: string[];
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export interface WebhookAttempt {
  update_id: number;
  status: number | 'network-error';
  secretToken?: string;
}

interface Waiter {
  wake(): void;
}

export class UpdateQueue {
  private pending: Pending[] = [];
  private nextUpdateId = 100_000;
  private allowedUpdates: string[] | undefined;
  private waiters = new Set<Waiter>();
  private pollGeneration = 0;
  webhook: Webhook | undefined;
  readonly webhookAttempts: WebhookAttempt[] = [];
  /** Updates being POSTed now, and the chats they belong to (one update of a chat at a time). */
  private readonly inFlight = new Set<Pending>();
  private readonly busyChats = new Set<string>();
  private closed = false;

  constructor(
    private readonly webhookRetryDelayMs: number,
    private readonly onChange: () => void,
    /** Webhook requests open at once (Telegram: setWebhook's max_connections, default 40). */
    private readonly webhookConnections = 1,
    /** A webhook request not answered within this long failed (as 'network-error') and is sent again. */
    private readonly webhookTimeoutMs = 10_000,
  ) {}

  push(update: Omit<Update, 'update_id'> & { update_id?: number }): Update {
    const full = { ...update, update_id: update.update_id ?? this.nextUpdateId++ } as Update;
    this.pending.push({ update: full, redelivery: false });
    this.afterPush();
    return full;
  }

  /** Sends an update again with its original update_id, as Telegram does after a failed delivery. */
  redeliver(update: Update): void {
    this.pending.push({ update, redelivery: true });
    this.afterPush();
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private afterPush(): void {
    for (const waiter of this.waiters) waiter.wake();
    this.onChange();
    if (this.webhook) this.deliverWebhook();
  }

  private matches(update: Update, allowed: string[] | undefined): boolean {
    if (!allowed || allowed.length === 0) return true;
    return Object.keys(update).some((key) => key !== 'update_id' && allowed.includes(key));
  }

  /** getUpdates: confirms everything below `offset`, then returns what is left or waits for it. */
  async poll(options: {
    offset?: number;
    limit?: number;
    timeoutSeconds?: number;
    allowedUpdates?: string[];
    signal: AbortSignal;
  }): Promise<Update[] | 'conflict'> {
    if (options.allowedUpdates) this.allowedUpdates = options.allowedUpdates;
    const offset = options.offset;
    if (offset !== undefined && offset > 0) {
      this.pending = this.pending.filter((p) => p.redelivery || p.update.update_id >= offset);
    }
    // A newer getUpdates terminates an older one waiting, like Telegram's 409 Conflict.
    const generation = ++this.pollGeneration;
    const deadline = Date.now() + Math.min(Math.max(options.timeoutSeconds ?? 0, 0), 50) * 1000;
    for (;;) {
      const ready = this.take(options.limit ?? 100);
      if (ready.length > 0 || this.closed || Date.now() >= deadline || options.signal.aborted) return ready;
      const woke = await this.sleepUntilPush(deadline - Date.now(), options.signal);
      if (generation !== this.pollGeneration && woke) return 'conflict';
    }
  }

  private take(limit: number): Update[] {
    const ready = this.pending
      .filter((p) => this.matches(p.update, this.allowedUpdates))
      .slice(0, Math.max(1, Math.min(limit, 100)));
    this.pending = this.pending.filter((p) => !(p.redelivery && ready.includes(p)));
    return ready.map((p) => p.update);
  }

  private sleepUntilPush(ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        wake: () => finish(true),
      };
      const finish = (woke: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        signal.removeEventListener('abort', onAbort);
        resolve(woke);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(() => finish(false), Math.max(ms, 0));
      this.waiters.add(waiter);
      signal.addEventListener('abort', onAbort);
      // A second poller also wakes the first so it can answer 409.
      for (const other of this.waiters) if (other !== waiter) other.wake();
    });
  }

  setWebhook(webhook: Webhook, dropPending: boolean): void {
    if (dropPending) this.pending = [];
    this.webhook = webhook;
    for (const waiter of this.waiters) waiter.wake();
    this.deliverWebhook();
  }

  deleteWebhook(dropPending: boolean): void {
    this.webhook = undefined;
    if (dropPending) this.pending = [];
  }

  /**
   * POSTs pending updates in order over at most `webhookConnections` connections at once, one
   * update of a chat at a time (so a chat's updates arrive in order, as Telegram keeps them); a
   * non-2xx answer or a failed connection is retried after a pause, and holds up the updates of
   * its chat behind it (with one connection, every update behind it).
   */
  private deliverWebhook(): void {
    while (this.webhook && !this.closed && this.inFlight.size < this.webhookConnections) {
      const hook = this.webhook;
      const next = this.pending.find(
        (p) =>
          !this.inFlight.has(p) &&
          !this.busyChats.has(chatKey(p.update)) &&
          this.matches(p.update, hook.allowedUpdates),
      );
      if (!next) return;
      const chat = chatKey(next.update);
      this.inFlight.add(next);
      this.busyChats.add(chat);
      void this.deliverOne(hook, next).finally(() => {
        this.inFlight.delete(next);
        this.busyChats.delete(chat);
        this.deliverWebhook();
      });
    }
  }

  private async deliverOne(hook: Webhook, next: Pending): Promise<void> {
    const status = await this.post(hook, next.update);
    this.webhookAttempts.push({ update_id: next.update.update_id, status, secretToken: hook.secretToken });
    if (typeof status === 'number' && status >= 200 && status < 300) {
      this.pending = this.pending.filter((p) => p !== next);
    } else {
      hook.lastErrorDate = Math.floor(Date.now() / 1000);
      hook.lastErrorMessage =
        typeof status === 'number' ? `Wrong response from the webhook: ${status}` : 'Connection refused';
      await new Promise((r) => setTimeout(r, this.webhookRetryDelayMs));
    }
    this.onChange();
  }

  private async post(hook: Webhook, update: Update): Promise<number | 'network-error'> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (hook.secretToken) headers['X-Telegram-Bot-Api-Secret-Token'] = hook.secretToken;
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(this.webhookTimeoutMs),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 'network-error';
    }
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiters) waiter.wake();
  }
}

/** The chat an update belongs to, or the update alone when it names none. */
function chatKey(update: Update): string {
  const message =
    update.message ??
    update.edited_message ??
    update.channel_post ??
    update.callback_query?.message ??
    update.stopped_message_generation;
  return message ? `chat:${message.chat.id}` : `update:${update.update_id}`;
}
