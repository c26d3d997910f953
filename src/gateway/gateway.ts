/**
 * createGateway: the platform-neutral core wired together. Adapters hand their
 * messages to `sink.accept`, which queues them durably (deduped, capped); the
 * process holding a conversation's lock answers its queue in order through the
 * pipeline: record → beforeCommands hooks → commands → beforeAsk hooks → limits → session → media, ask
 * and relay. See queue.ts for how order and delivery hold across processes.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import type { ChatbotServiceApi } from '../upstream/api.js';
import { askStep } from './ask.js';
import { helpCommand, resetCommand, startCommand } from './commands/builtin.js';
import { listingsAction, listingsCommand } from './commands/listings.js';
import { CommandRegistry, commandStep } from './commands/registry.js';
import { Turn, type GatewayBot, type GatewayServices } from './context.js';
import { Drains, type HandleResult } from './drains.js';
import { beforeAskStep, beforeCommandsStep, createHooks, type GatewayHooks, type HookRegistry } from './hooks.js';
import { limitsStep } from './limits.js';
import type { GatewayObserver } from './observer.js';
import { compose } from './pipeline.js';
import { resolvePolicy, type GatewayPolicy } from './policy.js';
import { ConversationQueue } from './queue.js';
import { LocalAttachments, toQueuedMessage, type QueuedMessage } from './queued-message.js';
import { InflightRecorder, recoverInterruptedAnswers } from './relay/index.js';
import { replies } from './replies.js';
import { sendReply, type ReplyExtras } from './reply.js';
import { SessionMap, sessionStep } from './sessions.js';
import { ChatbotSettingsMirror } from './settings.js';
import { TranscriptStore, type TranscriptRole } from './transcript.js';
import { describeAttachment, recordMessageStep, runTurn } from './turn.js';
import type { Adapter, Capabilities, ConversationRef, Inbound, InboundSink, Outbound } from './types.js';

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
  /** Hooks registered from the start (more can be added with `gateway.hooks`). */
  hooks?: Partial<GatewayHooks>;
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
  readonly hooks: HookRegistry;
  readonly settings: ChatbotSettingsMirror;
  readonly transcript: TranscriptStore;
  readonly sessions: SessionMap;
  readonly policy: GatewayPolicy;
  /** The platform side of a conversation, for messages sent outside a turn; undefined when not served here. */
  outboundFor(conversation: ConversationRef, isGroup?: boolean): { outbound: Outbound; capabilities: Capabilities } | undefined;
  /** Sends Markdown to a conversation outside a turn (an operator's reply) and records it under `role`. */
  say(conversation: ConversationRef, markdown: string, options?: { role?: TranscriptRole; isGroup?: boolean } & ReplyExtras): Promise<void>;
  /** Takes over orphaned queues now (also runs every policy.sweepIntervalMs). Returns how many. */
  sweep(): Promise<number>;
}

const routeKey = (bot: string, platform: string) => JSON.stringify([bot, platform]);

export function createGateway(options: GatewayOptions): Gateway {
  const { state, upstream, logger } = options;
  const policy = resolvePolicy(options.policy);
  const bots = new Map(options.bots.map((bot) => [bot.id, bot]));
  const adapters = new Map<string, Adapter>();
  for (const adapter of options.adapters) {
    const bot = bots.get(adapter.bot);
    if (!bot) throw new Error(`Adapter "${adapter.platform}" serves bot "${adapter.bot}", which is not in bots[]; add it with its serialNumber.`);
    adapters.set(routeKey(adapter.bot, adapter.platform), adapter);
  }
  const adapterOf = (conversation: ConversationRef) => adapters.get(routeKey(conversation.bot, conversation.platform));

  const services: GatewayServices = {
    state,
    upstream,
    policy,
    settings: new ChatbotSettingsMirror(state, policy.settingsCacheMs),
    transcript: new TranscriptStore(state, { maxEntries: policy.transcriptMaxEntries, ttlMs: policy.transcriptTtlMs }),
    sessions: new SessionMap(state, upstream),
    inflight: new InflightRecorder(state),
    ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}),
    observer: options.observer ?? {},
  };
  const { hooks, registry: hookRegistry } = createHooks(options.hooks);
  const commands = new CommandRegistry();
  commands.register(startCommand);
  commands.register(helpCommand(commands));
  commands.register(resetCommand);
  commands.register(listingsCommand);
  commands.registerAction(listingsAction);

  const pipeline = compose([
    recordMessageStep(), beforeCommandsStep(hooks), commandStep(commands), beforeAskStep(hooks), limitsStep(), sessionStep(), askStep(hooks),
  ]);
  const origin = randomUUID();
  const local = new LocalAttachments();
  const queue = new ConversationQueue(state, policy);

  const outboundFor = (conversation: ConversationRef, isGroup = false) => {
    const adapter = adapterOf(conversation);
    if (!adapter) return undefined;
    return { outbound: adapter.outbound, capabilities: adapter.capabilitiesFor?.(conversation, isGroup) ?? adapter.capabilities };
  };

  async function handle(message: QueuedMessage, signal: AbortSignal): Promise<HandleResult> {
    // The serving adapter rebuilds attachments accepted by another process from their refs.
    const adapter = adapterOf(message.inbound.conversation);
    const inbound = local.restore(message, adapter);
    const conversation = inbound.conversation;
    const bot = bots.get(conversation.bot);
    const turnLogger = logger.child({ conversation: `${conversation.bot}:${conversation.platform}:${conversation.id}`, message: inbound.platformMessageId });
    if (!adapter || !bot) {
      turnLogger.error('no adapter serves this conversation here any more; the message is dropped');
      return { outcome: 'done', writes: [] };
    }
    const turn = new Turn({
      inbound, bot, outbound: adapter.outbound, logger: turnLogger, signal, services,
      capabilities: adapter.capabilitiesFor?.(conversation, inbound.isGroup) ?? adapter.capabilities,
    });
    const outcome = await runTurn(turn, pipeline, hooks);
    return outcome === 'aborted' ? { outcome } : { outcome, writes: turn.pendingWrites() };
  }

  const drains = new Drains({
    queue, policy, logger, handle,
    serves: (conversation) => adapterOf(conversation) !== undefined && bots.has(conversation.bot),
    settled: (message) => message && local.forget(message.id),
  });
  let stopping = false;
  let sweepTimer: NodeJS.Timeout | undefined;

  async function refuseFullQueue(inbound: Inbound, waiting: number): Promise<void> {
    const target = outboundFor(inbound.conversation, inbound.isGroup);
    if (!target) return;
    const text = replies.queueFull(waiting);
    const attachments = inbound.attachments.map(describeAttachment);
    await services.transcript.append(
      inbound.conversation,
      { at: Date.now(), role: 'user', text: inbound.text, user: inbound.user, ...(attachments.length ? { attachments } : {}) },
      { at: Date.now(), role: 'bot', text },
    );
    await sendReply(target.outbound, target.capabilities, inbound.conversation, text);
  }

  const sink: InboundSink = {
    async accept(inbound) {
      const { conversation } = inbound;
      if (!adapterOf(conversation) || !bots.has(conversation.bot)) {
        throw new Error(`No adapter for bot "${conversation.bot}" on "${conversation.platform}" is registered with this gateway.`);
      }
      if (!inbound.addressed) {
        logger.debug({ conversation }, 'ignoring a group message not addressed to the bot');
        return;
      }
      const message = toQueuedMessage(inbound, randomUUID(), origin, Date.now());
      // Kept before the offer: a drain may start on this message before offer() returns here.
      local.keep(message.id, inbound.attachments);
      const result = await queue.offer(conversation, inbound.platformMessageId, JSON.stringify(message)).catch((error: unknown) => {
        local.forget(message.id);
        throw error;
      });
      if (result.outcome !== 'queued') local.forget(message.id);
      if (result.outcome === 'duplicate') {
        logger.debug({ conversation, platformMessageId: inbound.platformMessageId }, 'dropping a redelivered message');
        return;
      }
      if (result.outcome === 'full') {
        logger.info({ conversation, waiting: result.length }, 'conversation queue is full; asking the user to wait');
        await refuseFullQueue(inbound, result.length).catch((error: unknown) => logger.warn({ err: error }, 'could not send the queue-full reply'));
        return;
      }
      services.observer.accepted?.(conversation);
      if (!result.claim) return;
      if (stopping) await queue.release(conversation, result.claim.token);
      else drains.run(conversation, result.claim);
    },
  };

  async function periodic(): Promise<void> {
    await recoverInterruptedAnswers({ state, outboundFor: (conversation) => outboundFor(conversation), logger })
      .catch((error: unknown) => logger.warn({ err: error }, 'recovering interrupted answers failed'));
    await drains.sweep().catch((error: unknown) => logger.warn({ err: error }, 'sweeping orphaned conversation queues failed'));
  }

  return {
    sink,
    commands,
    hooks: hookRegistry,
    settings: services.settings,
    transcript: services.transcript,
    sessions: services.sessions,
    policy,
    outboundFor,
    sweep: () => drains.sweep(),
    async say(conversation, markdown, { role = 'bot', isGroup = false, ...extras } = {}) {
      const target = outboundFor(conversation, isGroup);
      if (!target) throw new Error(`No adapter for bot "${conversation.bot}" on "${conversation.platform}" is registered with this gateway.`);
      await sendReply(target.outbound, target.capabilities, conversation, markdown, extras);
      await services.transcript.append(conversation, { at: Date.now(), role, text: markdown });
    },
    async start() {
      stopping = false;
      drains.resume();
      for (const bot of options.bots) if (bot.settings) await services.settings.seed(bot.serialNumber, bot.settings);
      const menu = commands.list().map(({ name, description }) => ({ name, description }));
      for (const adapter of adapters.values()) await adapter.start(sink, { commands: menu });
      await periodic();
      sweepTimer = setInterval(() => void periodic(), policy.sweepIntervalMs);
      sweepTimer.unref();
    },
    async stop() {
      stopping = true;
      clearInterval(sweepTimer);
      for (const adapter of adapters.values()) {
        await adapter.stop().catch((error: unknown) => logger.warn({ err: error, platform: adapter.platform }, 'stopping an adapter failed'));
      }
      await drains.stop(policy.stopGraceMs);
    },
  };
}
