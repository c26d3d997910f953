/**
 * createGateway: the platform-neutral core put together from its pieces.
 * Adapters hand their messages to the Intake (intake.ts), which queues them
 * durably (deduped, capped) and starts draining a conversation whose lock it
 * claimed; the Drains (drains.ts) answer each conversation's queue in order in
 * the process holding its lock, one TurnRunner run (turn-runner.ts) per message,
 * through the pipeline (pipeline.ts):
 *   record → beforeCommands → commands → beforeAsk → limits → session → ask
 * and then the turn's events (turn/turn-events.ts). See drain/conversation-queue.ts for how order and
 * delivery hold across processes.
 */
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import type { ChatbotServiceApi } from '../upstream/api.js';
import type { GatewayObserver } from './observer.js';
import { resolvePolicy, type GatewayPolicy } from './gateway-policy.js';
import { InflightRecorder, recoverConversation, recoverInterruptedAnswers } from './relay/index.js';
import type { Adapter, Capabilities, ConversationRef, InboundAttachment, InboundSink, Outbound } from '../contract.js';
import { AdapterLifecycle, AdapterRoutes, Intake, notServedError } from './intake/index.js';
import { STOP_CHANNEL, conversationMember, parseConversationMember } from './state-keys.js';
import {
  askStep,
  limitsStep,
  messageLengthStep,
  Pipeline,
  recordMessageStep,
  sessionStep,
  TurnEvents,
  TurnReads,
  TurnRunner,
  type GatewayBot,
  type GatewayServices,
  type PipelineSteps,
  type TurnEventSource,
  type TurnReadSource,
} from './turn/index.js';
import {
  ChatbotSettingsMirror,
  describeAttachment,
  MonthTally,
  SessionMap,
  TranscriptStore,
  type TranscriptRole,
} from './stores/index.js';
import {
  CommandRegistry,
  commandStep,
  describeCommand,
  helpCommand,
  isCommandLike,
  stopCommand,
  listingsAction,
  listingsCommand,
  resetCommand,
  startCommand,
} from './commands/index.js';
import { ConversationQueue, Drains, LocalAttachments, type QueueLayout } from './drain/index.js';
import { OUT_OF_TURN_REPLY_RETRY, sendFile, sendReply, type FileToSend, type ReplyExtras } from './reply/index.js';
import { assertTextOverrides, BotTexts } from './texts/index.js';
import { userTexts, type UserTexts } from './user-texts.js';

export interface GatewayOptions {
  state: StateStore;
  upstream: ChatbotServiceApi;
  bots: GatewayBot[];
  /** Started by start(), stopped by stop(); one per (bot, platform). */
  adapters: Adapter[];
  logger: Logger;
  policy?: Partial<GatewayPolicy>;
  /** ffmpeg for audio that is not OGG/Opus or WAV (default "ffmpeg" on PATH). */
  ffmpegPath?: string;
  /** Told what the core does, for metrics. */
  observer?: GatewayObserver;
  /** The layout of the conversation locks (drain/queue-layout.ts); owner fields alone when not given. */
  queueLayout?: QueueLayout;
}

export interface Gateway {
  /** Hand this to adapters; `accept` resolves once the message is durably queued. */
  readonly sink: InboundSink;
  /** Seeds settings, recovers interrupted answers, starts the adapters, takes over orphaned queues. */
  start(): Promise<void>;
  /** Stops the adapters, lets answers in progress finish (policy.stopGraceMs), releases every lock. */
  stop(): Promise<void>;
  /** Register more commands (`/human`) and button actions. */
  readonly commands: CommandRegistry;
  /** Add a step at a position of every turn's pipeline (e.g. at beforeCommands: a paused conversation gets nothing). */
  readonly pipeline: PipelineSteps;
  /**
   * Add a read to every turn's first batch (one round trip with the core's own reads);
   * a step takes its result with `read.of(ctx)` (e.g. the handoff's pause).
   */
  readonly turnReads: TurnReadSource;
  /** Be told of each turn's answer, and of each failure of the Chatbot Service. */
  readonly events: TurnEventSource;
  readonly settings: ChatbotSettingsMirror;
  readonly transcript: TranscriptStore;
  readonly sessions: SessionMap;
  readonly policy: GatewayPolicy;
  /** The platform side of a conversation, for messages sent outside a turn; undefined when not served here. */
  outboundFor(
    conversation: ConversationRef,
    isGroup?: boolean,
  ): { outbound: Outbound; capabilities: Capabilities } | undefined;
  /**
   * Sends Markdown to a conversation outside a turn (an operator's reply) and records it under `role`
   * (with `operator`: the name of the operator who wrote it, and `account`: their account's id, when they have one).
   */
  say(
    conversation: ConversationRef,
    markdown: string,
    options?: {
      role?: TranscriptRole;
      isGroup?: boolean;
      operator?: string;
      account?: string;
      via?: string;
    } & ReplyExtras,
  ): Promise<void>;
  /**
   * Sends a file to a conversation outside a turn (an operator's photo or document), with
   * `caption` (Markdown), and records it as say() does, the file described. A platform that
   * sends no files, or a file over its limit, is refused with a PlatformError saying why.
   */
  sendFile(
    conversation: ConversationRef,
    file: FileToSend,
    options?: {
      caption?: string;
      role?: TranscriptRole;
      isGroup?: boolean;
      operator?: string;
      account?: string;
      via?: string;
    },
  ): Promise<void>;
  /**
   * A file a user sent, fetchable again from its durable ref through the adapter serving the
   * conversation here (Adapter.restoreAttachment); undefined when no adapter here can.
   */
  restoreAttachment(
    conversation: ConversationRef,
    ref: string,
    info: Omit<InboundAttachment, 'fetch' | 'ref'>,
  ): InboundAttachment | undefined;
  /** Takes over orphaned queues now (also runs every policy.sweepIntervalMs). Returns how many. */
  sweep(): Promise<number>;
  /** Whether every message accepted from the conversation is answered: none left in its queue (a local platform asks, through the runtime). */
  answered(conversation: ConversationRef): Promise<boolean>;
  /**
   * What the gateway says in a conversation outside a turn (in a turn: `ctx.texts()`): its chatbot's
   * AIResponseLanguage as set now, with the bot's overrides; English for a bot not configured here.
   */
  textsFor(conversation: ConversationRef): Promise<UserTexts>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const { state, upstream, logger } = options;
  const policy = resolvePolicy(options.policy);
  for (const bot of options.bots) assertTextOverrides(bot.texts, `bots: bot "${bot.id}"`);
  const routes = new AdapterRoutes(options.bots, options.adapters);
  const services: GatewayServices = {
    state,
    upstream,
    policy,
    settings: new ChatbotSettingsMirror(state, policy.settingsCacheMs),
    texts: new BotTexts(),
    transcript: new TranscriptStore(state, {
      maxEntries: policy.transcriptMaxEntries,
      ttlMs: policy.transcriptTtlMs,
      packEntries: policy.transcriptPackEntries,
      logger,
    }),
    sessions: new SessionMap(state, upstream, policy.sessionIdleTtlMs),
    inflight: new InflightRecorder(state),
    monthTally: new MonthTally(state, logger),
    ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}),
    observer: options.observer ?? {},
  };
  const commands = builtinCommands();
  const pipeline = corePipeline(commands);
  const events = new TurnEvents();
  const local = new LocalAttachments();
  const queue = new ConversationQueue(
    state,
    policy,
    (error) =>
      logger.warn(
        { err: error },
        'could not give back a counter with a queue advance (a user or chatbot may be counted one message too many)',
      ),
    options.queueLayout,
  );
  const outboundFor = (conversation: ConversationRef, isGroup = false) => routes.outboundFor(conversation, isGroup);
  const bots = new Map(options.bots.map((bot) => [bot.id, bot]));
  const textsOfBot = async (botId: string): Promise<UserTexts> => {
    const bot = bots.get(botId);
    return bot ? services.texts.read(bot, () => services.settings.get(bot.serialNumber)) : userTexts;
  };
  const textsFor = (conversation: ConversationRef) => textsOfBot(conversation.bot);

  const reads = new TurnReads();
  const starter = {
    reads,
    // The note on a half-shown answer comes before the answer given again.
    recover: async (conversation: ConversationRef, signal: AbortSignal) => {
      await recoverConversation(
        {
          state,
          outboundFor: (c) => outboundFor(c),
          logger,
          outageHorizonMs: policy.platformOutageHorizonMs,
          textsOf: textsFor,
        },
        conversation,
        signal,
      );
    },
  };
  // Commands and button presses are answered on their own, never merged into a burst's question.
  const burst = { policy, standsAlone: isCommandLike };
  const runner = new TurnRunner({ routes, local, pipeline, events, services, logger, starter, burst });
  const drains = new Drains({
    queue,
    policy,
    logger,
    handle: (message, signal, claim, origin, slot) => runner.run(message, signal, claim, origin, slot),
    serves: (conversation) => routes.serves(conversation),
    settled: (message) => message && local.forget(message.id),
    // No beforeDrain: each turn's first batch says whether a previous holder left half answers (turn/first-batch.ts).
  });
  const intake = new Intake({
    routes,
    queue,
    drains,
    local,
    transcript: services.transcript,
    observer: services.observer,
    logger,
    state,
    stopAnswer: (conversation, platformMessageId) =>
      state.publish(STOP_CHANNEL, JSON.stringify([conversationMember(conversation), platformMessageId])),
    textsOf: textsFor,
  });
  let stopsSubscription: Promise<() => Promise<void>> | undefined;
  const lifecycle = new AdapterLifecycle(routes.all(), logger, policy.webhookAcceptMs, (botId) => {
    const bot = bots.get(botId);
    return bot ? services.texts.known(bot) : userTexts;
  });
  let sweepTimer: NodeJS.Timeout | undefined;

  async function periodic(): Promise<void> {
    await recoverInterruptedAnswers({
      state,
      outboundFor: (conversation) => outboundFor(conversation),
      logger,
      outageHorizonMs: policy.platformOutageHorizonMs,
      textsOf: textsFor,
    }).catch((error: unknown) => logger.warn({ err: error }, 'recovering interrupted answers failed'));
    await drains
      .sweep()
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping orphaned conversation queues failed'));
  }

  return {
    sink: intake,
    commands,
    pipeline,
    turnReads: reads,
    events,
    settings: services.settings,
    transcript: services.transcript,
    sessions: services.sessions,
    policy,
    outboundFor,
    sweep: () => drains.sweep(),
    answered: async (conversation) => (await queue.waiting(conversation)) === 0,
    textsFor,
    async sendFile(conversation, file, { caption = '', role = 'bot', isGroup = false, operator, account, via } = {}) {
      const target = outboundFor(conversation, isGroup);
      if (!target) throw notServedError(conversation);
      await sendFile(target.outbound, target.capabilities, conversation, file, caption, OUT_OF_TURN_REPLY_RETRY);
      const kind = file.mimeType?.startsWith('image/') ? 'image' : 'document';
      const described = describeAttachment({
        kind,
        fileName: file.fileName,
        size: file.bytes.byteLength,
        ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      });
      await services.transcript.append(conversation, {
        at: Date.now(),
        role,
        text: caption,
        attachments: [described],
        ...(operator ? { operator } : {}),
        ...(account ? { account } : {}),
        ...(via ? { via } : {}),
      });
    },
    async say(conversation, markdown, { role = 'bot', isGroup = false, operator, account, via, ...extras } = {}) {
      const target = outboundFor(conversation, isGroup);
      if (!target) throw notServedError(conversation);
      await sendReply(
        target.outbound,
        target.capabilities,
        conversation,
        markdown,
        extras,
        undefined,
        OUT_OF_TURN_REPLY_RETRY,
      );
      await services.transcript.append(conversation, {
        at: Date.now(),
        role,
        text: markdown,
        ...(operator ? { operator } : {}),
        ...(account ? { account } : {}),
        ...(via ? { via } : {}),
      });
    },
    restoreAttachment(conversation, ref, info) {
      return routes.adapterOf(conversation)?.restoreAttachment?.(ref, info);
    },
    async start() {
      intake.open();
      drains.resume();
      // A /stop reaches the process writing the answer, whichever accepted it. Not awaited: a start while Redis is
      // away goes on (the store subscribes once it is back); a /stop missed meanwhile lets the answer end as written.
      stopsSubscription ??= state.subscribe(STOP_CHANNEL, (message) => {
        const [member, platformMessageId] = JSON.parse(message) as [string, string];
        const conversation = parseConversationMember(member);
        if (conversation && runner.stop(conversation, platformMessageId))
          logger.info({ conversation }, 'the user stopped the answer being written');
      });
      stopsSubscription.catch((error: unknown) =>
        logger.warn({ err: error }, 'could not subscribe to /stop requests; a /stop then ends no answer early'),
      );
      for (const bot of options.bots) if (bot.settings) await services.settings.seed(bot.serialNumber, bot.settings);
      // A command menu (Telegram's) in the language the bot is configured with: reading the chatbot's settings here would
      // fill the settings mirror from the service at start, before an admin's edit there that the mirror is never told of.
      // The language read later reaches /help at once, the menu at a start that knows it.
      await lifecycle.start(intake, async (botId) => {
        const bot = bots.get(botId);
        const texts = bot ? services.texts.known(bot) : userTexts;
        return {
          commands: commands.list().map((command) => ({
            name: command.name,
            description: describeCommand(command, texts),
            ...(command.usage ? { usage: command.usage } : {}),
          })),
        };
      });
      services.monthTally.start();
      await periodic();
      sweepTimer = setInterval(() => void periodic(), policy.sweepIntervalMs);
      sweepTimer.unref();
    },
    async stop() {
      intake.close();
      clearInterval(sweepTimer);
      await lifecycle.stop();
      await drains.stop(policy.stopGraceMs);
      // Not awaited either: a stop must not wait for a Redis that is away.
      void stopsSubscription?.then((unsubscribe) => unsubscribe()).catch(() => undefined);
      stopsSubscription = undefined;
      // After the last answers: what they added to the month's counts is written now.
      await services.monthTally.stop();
    },
  };
}

/** The commands and button actions every bot answers; features register more on `gateway.commands`. */
function builtinCommands(): CommandRegistry {
  const commands = new CommandRegistry();
  commands.register(startCommand);
  commands.register(helpCommand(commands));
  commands.register(resetCommand);
  commands.register(listingsCommand);
  commands.register(stopCommand);
  commands.registerAction(listingsAction);
  return commands;
}

/** The core's own steps at their positions; features add theirs with `gateway.pipeline.use`. */
function corePipeline(commands: CommandRegistry): Pipeline {
  const pipeline = new Pipeline();
  pipeline.use('record', recordMessageStep());
  pipeline.use('commands', commandStep(commands));
  // The message's length first: a message the service cannot take costs no allowance.
  pipeline.use('limits', messageLengthStep());
  pipeline.use('limits', limitsStep());
  pipeline.use('session', sessionStep());
  pipeline.use('ask', askStep());
  return pipeline;
}
