/**
 * installHandoff: the human handoff wired into a gateway (call after
 * createGateway, before gateway.start()): triggers and the pause on the
 * gateway, the outbox's sender loop, the hand-back link, the admin API and,
 * with an admin token, the operator inbox at /inbox with its live feed.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config/index.js';
import type { OperatorDoor, PlatformModule } from '../contract.js';
import type { Gateway } from '../gateway/index.js';
import type { HttpServer } from '../http/server.js';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import { adminRoutes, operatorRoutes } from './admin/index.js';
import {
  AccountSessions,
  InboxLinks,
  SignInMail,
  InboxSessions,
  inboxDisabled,
  inboxRouter,
  SignInLimit,
  startInboxFeed,
  untrustedProxyHint,
  type OperatorPage,
} from './inbox/index.js';
import { ResumeLinks, resolveLinkSecret, resumeRoute } from './link/index.js';
import { AuditLog, OperatorAccounts, OperatorRoster } from './operators/index.js';
import { Outbox, type MailTransport } from './mail/index.js';
import { HandoffController, OperatorDesk, registerTriggers, type DeskBot, type InboxFeed } from './pause/index.js';
import { DEFAULT_OUTBOX_POLICY, INBOX_LINK_HOURS, type OutboxPolicy } from './policy.js';
import { startThreads, type OperatorThreads, type ThreadWorkerPolicy } from './threads/index.js';
import { DayIndex, DigestSchedule, DigestService, leadsCsv, type DigestSchedulePolicy } from './digests/index.js';
import type { ListingPage, ListingQuery } from '../upstream/api.js';

/** SMTP timeouts, well inside the outbox lease so a hung server fails the send rather than the claim. */
const SMTP_CONNECTION_TIMEOUT_MS = 15_000;
const SMTP_GREETING_TIMEOUT_MS = 15_000;
const SMTP_SOCKET_TIMEOUT_MS = 30_000;

export type HandoffConfig = Pick<Config, 'handoff' | 'smtp' | 'admin' | 'bots' | 'port' | 'inbox' | 'http'> &
  Partial<Pick<Config, 'digests'>>;

export interface InstallHandoffOptions {
  gateway: Gateway;
  state: StateStore;
  config: HandoffConfig;
  logger: Logger;
  http: HttpServer;
  /** A nodemailer transport (or anything with sendMail) instead of one built from SMTP_URL. */
  mailer?: MailTransport;
  /** Base of links in e-mails when admin.publicUrl is unset (the runtime passes its real port). */
  selfUrl?: string;
  /** Outbox timings (tests shorten them). */
  outbox?: Partial<OutboxPolicy>;
  /** The platforms served, whose conversation-id shapes the admin API checks ids against; default none (any id). */
  platforms?: readonly PlatformModule[];
  /**
   * The bots as the gateway serves them, whose serial numbers name their chatbots in the inbox; default config.bots.
   * The runtime passes its resolved ones: config leaves the embedded demo chatbot's serial number empty.
   */
  bots?: readonly DeskBot[];
  /** The platforms' admin pages (the WhatsApp link page), served in the inbox to operators who may see their bot. */
  operatorPages?: readonly OperatorPage[];
  /** The operator doors of each bot (a Slack channel, a Telegram forum): a thread per handoff there. */
  doors?: ReadonlyMap<string, readonly OperatorDoor[]>;
  /** The doors' worker timings (tests shorten them). */
  threads?: Partial<ThreadWorkerPolicy>;
  /** The chatbot's listings, which the day's leads are matched against (the upstream client's listListings). */
  listListings?(query: ListingQuery): Promise<ListingPage>;
  /** The digests' schedule (tests shorten the check and move the clock). */
  digests?: Partial<DigestSchedulePolicy> & { now?: () => number };
}

export interface InstalledHandoff {
  readonly controller: HandoffController;
  /** The operators' actions, for every door (the inbox, the admin API). */
  readonly desk: OperatorDesk;
  /** The inbox's live feed; none when the inbox is off (no admin token). */
  readonly feed: InboxFeed | undefined;
  readonly outbox: Outbox;
  readonly links: ResumeLinks;
  /** The operator doors' threads; none when no bot has a door. */
  readonly threads: OperatorThreads | undefined;
  /** The day's chat logs and leads of each chatbot. */
  readonly digests: DigestService;
  /** When they go (each process looks once a minute). */
  readonly digestSchedule: DigestSchedule;
  /** The operator accounts, for every door that manages them (the admin API, the inbox's Operators page). */
  readonly operators: OperatorRoster;
  stop(): Promise<void>;
}

export async function installHandoff(options: InstallHandoffOptions): Promise<InstalledHandoff> {
  const { gateway, state, config, http } = options;
  const logger = options.logger.child({ part: 'handoff' });
  const transport = options.mailer ?? buildTransport(config.smtp.url);
  if (!transport)
    logger.warn(
      'SMTP_URL (smtp.url) is not set: handoff e-mails wait in the Redis outbox until a gateway with SMTP_URL runs.',
    );
  const outbox = new Outbox({
    state,
    transport,
    from: config.smtp.from,
    policy: { ...DEFAULT_OUTBOX_POLICY, ...options.outbox },
    logger,
  });
  const baseUrl = config.admin.publicUrl ?? options.selfUrl ?? `http://127.0.0.1:${config.port}`;
  const secret = await resolveLinkSecret(config.handoff.secret, state);
  const links = new ResumeLinks(secret, baseUrl);
  // The inbox exists only with an admin token (its sign-in is that token), as /admin does.
  const adminToken = config.admin.token;
  const feed = adminToken ? await startInboxFeed({ state, logger: logger.child({ part: 'inbox' }) }) : undefined;
  const proxyHint = adminToken ? untrustedProxyHint(config) : null;
  if (proxyHint) logger.warn(proxyHint);
  const inboxLinks = adminToken ? new InboxLinks(secret, baseUrl) : undefined;
  // Every change of a handoff is told to the inbox's open pages and to the operators' threads.
  let threads: OperatorThreads | undefined;
  const changes: Pick<InboxFeed, 'publish'> = {
    async publish(change) {
      await feed?.publish(change);
      await threads?.changed(change.conversation);
    },
  };
  const controller = new HandoffController({
    gateway,
    state,
    handoff: config.handoff,
    logger,
    links,
    outbox,
    feed: changes,
    ...(inboxLinks ? { inboxLinks } : {}),
  });
  const accounts = new OperatorAccounts(state);
  const desk = new OperatorDesk({ controller, gateway, state, bots: options.bots ?? config.bots, accounts });
  const platforms = options.platforms ?? [];
  if (options.doors && options.doors.size > 0) {
    threads = await startThreads({
      gateway,
      state,
      controller,
      desk,
      doors: options.doors,
      baseUrl,
      inboxUrl: (conversation, from) =>
        inboxLinks?.forMail(conversation, config.handoff.inboxLinkHours ?? INBOX_LINK_HOURS, from).inboxUrl,
      platformName: platformNames(platforms),
      accounts,
      logger: logger.child({ part: 'threads' }),
      ...(options.threads ? { policy: options.threads } : {}),
    });
  }

  const bots = options.bots ?? config.bots;
  const dayIndex = new DayIndex(state, gateway.policy.transcriptTtlMs);
  const digests = new DigestService({
    gateway,
    state,
    outbox,
    index: dayIndex,
    bots,
    ...(options.listListings ? { listListings: options.listListings } : {}),
    chatbotName: async (bot) => (await desk.chatbotNames(new Set([bot]))).get(bot) ?? bot,
    platformName: platformNames(platforms),
    inboxUrl: (conversation) =>
      inboxLinks?.forMail(conversation, config.handoff.inboxLinkHours ?? INBOX_LINK_HOURS).inboxUrl,
    keepMs: gateway.policy.transcriptTtlMs,
    logger: logger.child({ part: 'digests' }),
  });
  const schedule = new DigestSchedule({
    service: digests,
    gateway,
    state,
    bots,
    policy: {
      hour: options.digests?.hour ?? config.digests?.hour ?? 8,
      checkEveryMs: options.digests?.checkEveryMs ?? 60_000,
      buildLockMs: options.digests?.buildLockMs ?? 10 * 60_000,
    },
    logger: logger.child({ part: 'digests' }),
    ...(options.digests?.now ? { now: options.digests.now } : {}),
  });
  // Every turn notes its conversation for its chatbot's day, with its own writes.
  const removeDayIndex = [
    gateway.pipeline.use('record', async (ctx, next) => {
      await dayIndex.noteTurn(ctx);
      await next();
    }),
    gateway.events.on('committed', (ctx) => {
      dayIndex.committed(ctx);
      return Promise.resolve();
    }),
  ];
  const botIds = bots.map((bot) => bot.id);
  const audit = new AuditLog(state);
  const accountSessions = feed ? new AccountSessions(state, feed) : undefined;
  const operators = new OperatorRoster({
    accounts,
    audit,
    ...(accountSessions ? { sessions: accountSessions } : {}),
    bots: botIds,
    logger,
  });

  const unregister = registerTriggers(gateway, controller, config, changes);
  http.mount('/handoff', resumeRoute(controller, links, logger));
  http.mount(
    '/inbox',
    adminToken && feed && inboxLinks
      ? inboxRouter({
          adminToken,
          tokenSignIn: config.inbox.tokenSignIn,
          signInMail: new SignInMail({
            state,
            accounts,
            audit,
            transport,
            from: config.smtp.from,
            inboxUrl: `${baseUrl.replace(/\/+$/, '')}/inbox`,
            minutes: config.inbox.signInLinkMinutes,
            logger: logger.child({ part: 'inbox' }),
          }),
          accounts,
          accountSessions: accountSessions ?? new AccountSessions(state, feed),
          audit,
          roster: operators,
          bots: botIds,
          desk,
          gateway,
          feed,
          platforms,
          operatorPages: options.operatorPages ?? [],
          links: inboxLinks,
          leads: { digests, csv: leadsCsv, bots: botIds },
          ...(config.admin.publicUrl ? { publicUrl: config.admin.publicUrl } : {}),
          sessions: new InboxSessions(state, config.inbox.sessionHours, accounts),
          signIns: new SignInLimit(state),
          logger: logger.child({ part: 'inbox' }),
        })
      : inboxDisabled(config.admin.publicUrl),
  );
  adminRoutes(http.adminRouter, desk, controller, outbox, platforms, digests, botIds);
  operatorRoutes(http.adminRouter, operators);
  outbox.start();
  schedule.start();

  return {
    controller,
    desk,
    feed,
    outbox,
    links,
    threads,
    digests,
    digestSchedule: schedule,
    operators,
    async stop() {
      unregister();
      for (const remove of removeDayIndex) remove();
      await schedule.stop();
      await threads?.stop();
      await outbox.stop();
      // Ends the open inbox pages' streams, so that the HTTP server can close.
      await feed?.close();
    },
  };
}

/** A platform's name in words, from its module ("whatsapp-cloud" → "WhatsApp"); a platform without one, capitalised. */
function platformNames(platforms: readonly PlatformModule[]): (platform: string) => string {
  const names = new Map(platforms.map((platform) => [platform.name, platform.displayName]));
  return (platform) => names.get(platform) ?? platform.charAt(0).toUpperCase() + platform.slice(1);
}

function buildTransport(url: string | undefined): MailTransport | null {
  if (!url) return null;
  return nodemailer.createTransport({
    url,
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  });
}
