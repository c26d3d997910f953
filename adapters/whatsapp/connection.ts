/**
 * The one WhatsApp Web client of a bot. It takes the bot's lease (one browser per number
 * across replicas), builds the client with RemoteAuth on the Redis session store, lets the
 * adapter attach its listeners before `initialize()`, and keeps it alive: a client that
 * disconnects, fails to start or stops answering is replaced with backoff; a logout or an
 * authentication failure clears the stored session and asks for a new QR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  backoffDelay,
  DEFAULT_LEASE_TIMINGS,
  type AdapterStatus,
  type HeldLease,
  type LeaseTimings,
  type Logger,
  type PlatformStorage,
} from '../../src/contract.js';
import { checkChromium, ChromiumMissingError, chromiumNeedsNoSandbox, puppeteerOptions } from './browser.js';
import { browserLease } from './lease.js';
import type { WaClient, WaClientOptions, WhatsAppLibrary } from './library.js';
import { printQrToTerminal } from './qr-terminal.js';
import { RedisSessionStore } from './session-store.js';

export interface WhatsAppConnectionOptions {
  bot: string;
  logger: Logger;
  storage: PlatformStorage;
  /** How the library is loaded: loadWhatsAppLibrary in production; tests hand the fake. */
  library: () => Promise<WhatsAppLibrary>;
  /** The browser (CHROMIUM_PATH). */
  chromiumPath: string;
  /** CHROMIUM_NO_SANDBOX; unset: without the sandbox only as root (browser.ts chromiumNeedsNoSandbox). */
  chromiumNoSandbox?: boolean;
  /** Link by pairing code on this phone number (international, digits only) instead of a QR. */
  pairPhone?: string;
  /**
   * Called with every new client, before its `initialize()`: the adapter adds its
   * listeners here (messages), so that no event is emitted before someone listens.
   */
  attach(client: WaClient): void;
  /** Tests shorten these; production uses the defaults below. */
  timings?: Partial<ConnectionTimings>;
  /** Draw the QR in the terminal (default: when stderr is a TTY; the log is JSON lines otherwise). */
  terminalQr?: boolean;
}

export interface ConnectionTimings extends LeaseTimings {
  /**
   * First wait before re-creating a client that failed; doubles each time up to the max
   * (the contract's backoffDelay, without jitter: one browser per number, no crowd to spread).
   */
  restartMinMs: number;
  restartMaxMs: number;
  /** How often a running client is asked getState(), and how long it has to answer. */
  watchdogEveryMs: number;
  watchdogTimeoutMs: number;
  /** RemoteAuth's backup of the session to Redis (the library refuses less than 60 s). */
  backupEveryMs: number;
  /** Longest wait for a client's destroy() (a hung browser must not hold up a stop or a restart). */
  destroyTimeoutMs: number;
}

export const DEFAULT_CONNECTION_TIMINGS: ConnectionTimings = {
  ...DEFAULT_LEASE_TIMINGS,
  restartMinMs: 2_000,
  restartMaxMs: 60_000,
  watchdogEveryMs: 60_000,
  watchdogTimeoutMs: 20_000,
  backupEveryMs: 5 * 60_000,
  destroyTimeoutMs: 10_000,
};

/** What the QR page and the terminal show about the link. */
export type LinkState =
  | { state: 'starting'; notice?: string }
  /** Another process holds the bot's lease and runs its browser. */
  | { state: 'standby' }
  /** `notice`: why a new link is needed (the phone logged the device out, …). */
  | { state: 'waiting-for-scan'; qr: string; pairingCode?: string; notice?: string }
  | { state: 'linked'; number: string; name?: string }
  | { state: 'failed'; reason: string };

/** The library's reason when the phone removed this linked device. */
const LOGOUT = 'LOGOUT';

export class WhatsAppConnection {
  private readonly timings: ConnectionTimings;
  private readonly logger: Logger;
  private readonly lease: HeldLease;
  /** Where RemoteAuth unpacks the browser profile (this process's own, made at start and removed on stop), and the store reading it. */
  private profile: { dataPath: string; store: RedisSessionStore } | undefined;
  private current: { client: WaClient; generation: number; ready: boolean } | undefined;
  /** Bumped for every client: events of a replaced client are ignored. */
  private generation = 0;
  private linkState: LinkState = { state: 'starting' };
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private watchdogTimer: NodeJS.Timeout | undefined;
  /** Why the next QR is asked for, shown with it. */
  private notice: string | undefined;
  private stopped = false;
  private started = false;
  /** The openClient() in progress: stop() waits for it, since a browser being launched cannot be closed yet. */
  private opening: Promise<void> = Promise.resolve();

  constructor(readonly options: WhatsAppConnectionOptions) {
    this.timings = { ...DEFAULT_CONNECTION_TIMINGS, ...options.timings };
    this.logger = options.logger;
    this.lease = browserLease(
      options.storage,
      this.logger,
      {
        acquired: () => this.onLeaseAcquired(),
        lost: () => this.onLeaseLost(),
        standby: () => {
          if (this.linkState.state !== 'standby')
            this.logger.info('another process runs the browser of this number: standing by to take over');
          this.linkState = { state: 'standby' };
        },
      },
      this.timings,
    );
  }

  /** The page that shows the QR (and, once linked, the number). */
  get qrPath(): string {
    return `/whatsapp/${this.options.bot}/qr`;
  }

  /**
   * Resolves at once: the lease is taken and the browser started in the background. It never
   * rejects, so a missing Chromium or an unreachable WhatsApp leaves the other platforms of
   * the process running; status() says what is wrong, and the start is retried with backoff.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const dataPath = mkdtempSync(join(tmpdir(), `chatbridge-whatsapp-${this.options.bot}-`));
    this.profile = { dataPath, store: new RedisSessionStore(this.options.storage, dataPath) };
    this.logger.info(
      { qrPage: this.qrPath },
      `WhatsApp: scan the QR at ${this.qrPath} (with the admin token) when the number is not linked yet`,
    );
    this.lease.start();
  }

  /** Destroys the client (never logs out: that would delete the stored session) and releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.watchdogTimer);
    await this.closeClient('stopping');
    await this.settle(this.opening, 'stopping');
    await this.lease.stop();
    if (this.profile) rmSync(this.profile.dataPath, { recursive: true, force: true, maxRetries: 3 });
  }

  status(): AdapterStatus {
    const link = this.linkState;
    switch (link.state) {
      case 'linked':
        return this.current?.ready ? { connected: true } : { connected: false, reason: 'WhatsApp Web is reconnecting' };
      case 'standby':
        return { connected: false, waiting: 'standby', reason: 'standby: another process runs this number' };
      case 'waiting-for-scan':
        return {
          connected: false,
          waiting: 'operator',
          reason: link.pairingCode
            ? `waiting for the pairing code ${link.pairingCode} to be entered on the phone (${this.options.pairPhone ?? ''})`
            : `waiting for the QR to be scanned at ${this.qrPath}`,
        };
      case 'failed':
        return { connected: false, reason: link.reason };
      case 'starting':
        return { connected: false, reason: 'starting WhatsApp Web' };
    }
  }

  /** The ready client, when this process holds the lease and WhatsApp Web is ready; undefined otherwise. */
  client(): WaClient | undefined {
    return this.current?.ready ? this.current.client : undefined;
  }

  link(): LinkState {
    return this.linkState;
  }

  private onLeaseAcquired(): void {
    if (this.stopped) return;
    this.failures = 0;
    this.linkState = { state: 'starting' };
    this.open();
  }

  private open(): void {
    this.opening = this.openClient();
  }

  private onLeaseLost(): void {
    clearTimeout(this.restartTimer);
    this.linkState = { state: 'standby' };
    void this.closeClient('lease lost');
  }

  /** Creates, attaches and initializes one client; any failure schedules the next try. */
  private async openClient(): Promise<void> {
    const generation = ++this.generation;
    try {
      await checkChromium(this.options.chromiumPath);
      const library = await this.options.library();
      if (!this.isCurrentTry(generation)) return;
      const client = new library.Client(this.clientOptions(library));
      this.current = { client, generation, ready: false };
      this.listen(client, generation);
      this.options.attach(client);
      await client.initialize().catch(async (error: unknown) => {
        // Replaced (stop, lease lost) while launching: the browser came up after its destroy().
        if (!this.isCurrentTry(generation)) await this.destroyQuietly(client, 'replaced while starting');
        throw error;
      });
      if (!this.isCurrentTry(generation)) {
        await this.destroyQuietly(client, 'replaced while starting');
        return;
      }
      this.startWatchdog(generation);
    } catch (error) {
      if (!this.isCurrentTry(generation)) return;
      if (error instanceof ChromiumMissingError) {
        this.linkState = { state: 'failed', reason: error.message };
        this.logger.error({ chromiumPath: this.options.chromiumPath }, `WhatsApp cannot start: ${error.message}`);
      } else {
        this.linkState = { state: 'failed', reason: `WhatsApp Web did not start: ${describe(error)}` };
        this.logger.warn({ err: error }, 'WhatsApp Web did not start; trying again');
      }
      await this.restart(generation, 'start failed');
    }
  }

  private clientOptions(library: WhatsAppLibrary): WaClientOptions {
    const { store, dataPath } = this.startedProfile();
    const authStrategy = new library.RemoteAuth({
      store,
      clientId: this.options.bot,
      dataPath,
      backupSyncIntervalMs: Math.max(60_000, this.timings.backupEveryMs),
    });
    // The library starts Chromium as soon as its unzip reports 'finish', which comes before the
    // last files are written (see session-store.ts): wait for them, or the link may be lost.
    const restore = authStrategy.beforeBrowserInitialized.bind(authStrategy);
    authStrategy.beforeBrowserInitialized = async () => {
      await restore();
      const complete = await store.waitUntilUnpacked(this.sessionName(), join(dataPath, this.sessionName()));
      if (!complete)
        this.logger.warn('the stored WhatsApp session was not fully unpacked in time; starting the browser anyway');
    };
    return {
      authStrategy,
      puppeteer: puppeteerOptions(this.options.chromiumPath, chromiumNeedsNoSandbox(this.options.chromiumNoSandbox)),
      // A new QR every ~20 s for as long as nobody scans: the page keeps showing the latest.
      qrMaxRetries: 0,
      // Only the lease holder runs a browser, so a conflict is a stale session of ours: take it over.
      takeoverOnConflict: true,
      // The default cache writes ./.wwebjs_cache before 'ready'; in a read-only working
      // directory (the container's /app) that write fails and the client never gets ready.
      webVersionCache: { type: 'none' },
      ...(this.options.pairPhone
        ? { pairWithPhoneNumber: { phoneNumber: this.options.pairPhone, showNotification: true } }
        : {}),
    };
  }

  private listen(client: WaClient, generation: number): void {
    const mine = () => this.current?.generation === generation && !this.stopped;
    let qrShown = false;
    client.on('qr', (qr) => {
      if (!mine()) return;
      this.linkState = { state: 'waiting-for-scan', qr, ...(this.notice ? { notice: this.notice } : {}) };
      if (!qrShown)
        this.logger.info(
          { qrPage: this.qrPath },
          `WhatsApp is not linked: scan the QR at ${this.qrPath} with the phone (WhatsApp → Linked devices → Link a device)`,
        );
      qrShown = true;
      if (this.options.terminalQr ?? Boolean(process.stderr.isTTY)) printQrToTerminal(qr, this.options.bot);
    });
    client.on('code', (code) => {
      if (!mine()) return;
      const qr = this.linkState.state === 'waiting-for-scan' ? this.linkState.qr : '';
      this.linkState = {
        state: 'waiting-for-scan',
        qr,
        pairingCode: code,
        ...(this.notice ? { notice: this.notice } : {}),
      };
      this.logger.info(
        { pairingCode: code },
        `WhatsApp pairing code for ${this.options.pairPhone ?? 'the phone'}: ${code} ` +
          '(on the phone: Linked devices → Link a device → Link with phone number instead)',
      );
    });
    client.on('authenticated', () => {
      if (mine()) this.logger.info('WhatsApp authenticated; loading chats');
    });
    client.on('ready', () => {
      if (!mine() || !this.current) return;
      this.current.ready = true;
      this.failures = 0;
      this.notice = undefined;
      const number = client.info.wid.user;
      this.linkState = { state: 'linked', number, ...(client.info.pushname ? { name: client.info.pushname } : {}) };
      this.logger.info({ number }, 'WhatsApp is linked and ready');
    });
    client.on('auth_failure', (message) => {
      if (!mine()) return;
      this.logger.error(
        { reason: message },
        'WhatsApp refused the stored session: it is cleared, and a new QR is asked for',
      );
      void this.relink(generation, `WhatsApp refused the stored session (${message}); link the number again`);
    });
    client.on('disconnected', (reason) => {
      if (!mine()) return;
      if (reason === LOGOUT) {
        this.logger.warn(
          'WhatsApp logged this device out (removed on the phone): the stored session is cleared, and a new QR is asked for',
        );
        void this.relink(generation, 'the phone logged this device out; link the number again');
        return;
      }
      this.logger.warn({ reason }, 'WhatsApp Web disconnected; re-creating the client');
      this.linkState = { state: 'failed', reason: `WhatsApp Web disconnected (${reason}); reconnecting` };
      void this.restart(generation, `disconnected: ${reason}`);
    });
    client.on('remote_session_saved', () => {
      if (mine())
        this.logger.info(
          'WhatsApp session saved to the state store: a restart or another replica resumes it without a new QR',
        );
    });
  }

  /** The session is no good: delete it from the store, then start a client that shows a new QR. */
  private async relink(generation: number, notice: string): Promise<void> {
    this.notice = notice;
    this.linkState = { state: 'starting', notice };
    await this.startedProfile()
      .store.forget(this.sessionName())
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not delete the stored WhatsApp session'));
    // Asking for a QR is not a failure to back off from.
    this.failures = 0;
    await this.restart(generation, 'new link needed');
  }

  private startedProfile(): { dataPath: string; store: RedisSessionStore } {
    if (!this.profile) throw new Error('WhatsAppConnection: start() first');
    return this.profile;
  }

  /** RemoteAuth's name for the session of this bot. */
  private sessionName(): string {
    return `RemoteAuth-${this.options.bot}`;
  }

  /** Closes the client of `generation` and opens another after the backoff; nothing when a newer one runs already. */
  private async restart(generation: number, why: string): Promise<void> {
    if (!this.isCurrentTry(generation)) return;
    clearTimeout(this.restartTimer);
    await this.closeClient(why);
    if (!this.isCurrentTry(generation)) return;
    this.failures += 1;
    const delay = backoffDelay(this.failures, {
      firstMs: this.timings.restartMinMs,
      maxMs: this.timings.restartMaxMs,
      jitter: 0,
    });
    this.logger.info({ delayMs: delay, reason: why }, 'WhatsApp client restarts');
    this.restartTimer = setTimeout(() => {
      if (this.isCurrentTry(generation)) this.open();
    }, delay);
  }

  /** Still the latest try, in a running process that holds the lease. */
  private isCurrentTry(generation: number): boolean {
    return generation === this.generation && !this.stopped && this.lease.held();
  }

  /** Closes the browser (destroy, never logout), waiting at most destroyTimeoutMs for it. */
  private async closeClient(why: string): Promise<void> {
    clearInterval(this.watchdogTimer);
    const current = this.current;
    this.current = undefined;
    if (current) await this.destroyQuietly(current.client, why);
  }

  private destroyQuietly(client: WaClient, why: string): Promise<void> {
    const destroyed = client
      .destroy()
      .catch((error: unknown) => this.logger.warn({ err: error, reason: why }, 'closing the WhatsApp browser failed'));
    return this.settle(destroyed, why);
  }

  /** Waits for `work`, at most destroyTimeoutMs: a hung browser must not hold up a stop or a restart. */
  private async settle(work: Promise<unknown>, why: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timings.destroyTimeoutMs);
    });
    const outcome = await Promise.race([
      work.then(
        () => 'done' as const,
        () => 'done' as const,
      ),
      gaveUp,
    ]);
    clearTimeout(timer);
    if (outcome === 'timeout')
      this.logger.warn(
        { reason: why },
        `the WhatsApp browser did not close within ${this.timings.destroyTimeoutMs / 1000} s; going on`,
      );
  }

  /** Asks the client getState() now and then; a client that does not answer in time is replaced. */
  private startWatchdog(generation: number): void {
    clearInterval(this.watchdogTimer);
    this.watchdogTimer = setInterval(() => void this.checkAlive(generation), this.timings.watchdogEveryMs);
  }

  private async checkAlive(generation: number): Promise<void> {
    const current = this.current;
    if (!current || current.generation !== generation) return;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<'silent'>((resolve) => {
      timer = setTimeout(() => resolve('silent'), this.timings.watchdogTimeoutMs);
    });
    const answer = await Promise.race([
      current.client.getState().then(
        (state) => ({ state }),
        (error: unknown) => ({ error }),
      ),
      silent,
    ]);
    clearTimeout(timer);
    if (answer === 'silent' || 'error' in answer) {
      const why =
        answer === 'silent'
          ? `getState() did not answer within ${this.timings.watchdogTimeoutMs / 1000} s`
          : `getState() failed: ${describe(answer.error)}`;
      this.logger.warn({ reason: why }, 'WhatsApp Web stopped answering; restarting the client');
      this.linkState = { state: 'failed', reason: `WhatsApp Web stopped answering (${why}); restarting` };
      await this.restart(generation, why);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
