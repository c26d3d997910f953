/**
 * The context of one turn: one queued message being handled by the pipeline's
 * steps. Transcript entries and counter updates a step wants to make are
 * collected (`record`, `later`) and written together with the queue's advance,
 * in the same round trip that removes the message from the queue.
 */
import type { Logger } from '../../logger.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import type { AskFinal, ChatbotServiceApi, ChatbotSettings } from '../../upstream/api.js';
import type { Reservation } from './allowance.js';
import type { GatewayObserver } from '../observer.js';
import type { GatewayPolicy } from '../gateway-policy.js';
import type {
  ChatbotSettingsMirror,
  MonthTally,
  SessionMap,
  TranscriptEntry,
  TranscriptRole,
  TranscriptStore,
} from '../stores/index.js';
import type { Button, Capabilities, ConversationRef, Inbound, Outbound } from '../../contract.js';
import type { InflightRecorder, TypingHandle } from '../relay/index.js';
import { sendReply, type ReplyExtras } from '../reply/index.js';
import type { BotTexts, TextOverrides } from '../texts/index.js';
import type { UserTexts } from '../user-texts.js';

/** A configured bot: which chatbot of the service answers its conversations. */
export interface GatewayBot {
  id: string;
  serialNumber: string;
  /** Seed of the settings mirror, written at start when the mirror has none. */
  settings?: ChatbotSettings;
  /** The bot's own sentences (config `bots[].texts`), over every language's (texts/overrides.ts). */
  texts?: TextOverrides;
}

/** The long-lived parts every turn uses. */
export interface GatewayServices {
  state: StateStore;
  upstream: ChatbotServiceApi;
  settings: ChatbotSettingsMirror;
  /** The sentences of each bot in its chatbot's language. */
  texts: BotTexts;
  transcript: TranscriptStore;
  sessions: SessionMap;
  inflight: InflightRecorder;
  /** The month's count of a chatbot with no MessageLimit, written once a second (stores/month-tally.ts). */
  monthTally: MonthTally;
  policy: GatewayPolicy;
  ffmpegPath?: string;
  observer: GatewayObserver;
}

export interface TurnContext {
  /**
   * What the turn answers: its one message, or the messages of a burst as one (turn/burst.ts: their
   * texts one per line, their files together; the head's id, user and conversation).
   */
  readonly inbound: Inbound;
  /** The messages the turn answers, as the user wrote them (one, or a burst's), for the transcript and the question. */
  readonly messages: readonly Inbound[];
  /**
   * Aborted when the user stops the answer (/stop): the answer ends where it is, marked as stopped, and
   * the turn goes on to its end (unlike `signal`, which cuts the turn off and leaves its messages queued).
   */
  readonly stopSignal: AbortSignal;
  /** "typing…" started while the turn waited for a burst to settle; the ask step carries it on. */
  typing?: TypingHandle;
  /** When the turn started (ms since epoch). */
  readonly startedAt: number;
  readonly conversation: ConversationRef;
  readonly bot: GatewayBot;
  /** The adapter's outbound for this conversation (`outboundIn`): e.g. no drafts in a Telegram group. */
  readonly outbound: Outbound;
  readonly capabilities: Capabilities;
  readonly logger: Logger;
  /** Aborted when the gateway stops or loses the conversation's lock. */
  readonly signal: AbortSignal;
  readonly services: GatewayServices;
  /** Values read in the turn's first batch (turn/first-batch.ts), so a step need not read them again. */
  readonly prefetched: Prefetched;
  /** The service session, once the session step ran. */
  sessionId?: number;
  /** Buttons to attach to the answer (a feature's step may add "Talk to a person"). */
  readonly answerButtons: Button[];
  /** True once an answer was delivered (counts toward MessageLimit; the afterAnswer listeners are told of it). */
  answered: boolean;
  /** The service's final answer, once delivered (for the afterAnswer listeners, told after the pipeline). */
  answer?: AskFinal;
  /** The chatbot's settings (mirror, cached in-process). */
  settings(): Promise<ChatbotSettings>;
  /** What the gateway says, in the chatbot's AIResponseLanguage with the bot's overrides (read once per turn). */
  texts(): Promise<UserTexts>;
  /** Renders Markdown for the platform, sends it, and records it in the transcript as the bot's. */
  reply(markdown: string, extras?: ReplyExtras): Promise<void>;
  /** Adds a transcript entry, written when the turn ends. */
  record(
    role: TranscriptRole,
    text: string,
    extra?: Pick<TranscriptEntry, 'attachments' | 'files' | 'user' | 'event' | 'operator'>,
  ): void;
  /** State writes to run atomically with the turn's end (the queue advance). */
  later(...commands: AtomicCommand[]): void;
}

export interface Prefetched {
  session?: string | null;
  reservation?: Reservation;
  /** The conversation's first queued entries, the head first (turn/burst.ts). */
  queued?: string[];
}

export interface TurnInit {
  inbound: Inbound;
  bot: GatewayBot;
  outbound: Outbound;
  capabilities: Capabilities;
  logger: Logger;
  signal: AbortSignal;
  services: GatewayServices;
  stopSignal?: AbortSignal;
}

export class Turn implements TurnContext {
  inbound: Inbound;
  messages: readonly Inbound[];
  readonly stopSignal: AbortSignal;
  typing?: TypingHandle;
  readonly conversation: ConversationRef;
  readonly bot: GatewayBot;
  readonly outbound: Outbound;
  readonly capabilities: Capabilities;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly services: GatewayServices;
  readonly prefetched: Prefetched = {};
  readonly answerButtons: Button[] = [];
  sessionId?: number;
  answered = false;
  answer?: AskFinal;
  private readonly entries: TranscriptEntry[] = [];
  private readonly commands: AtomicCommand[] = [];
  private textsRead?: Promise<UserTexts>;

  constructor(init: TurnInit) {
    this.inbound = init.inbound;
    this.messages = [init.inbound];
    this.stopSignal = init.stopSignal ?? new AbortController().signal;
    this.conversation = init.inbound.conversation;
    this.bot = init.bot;
    this.outbound = init.outbound;
    this.capabilities = init.capabilities;
    this.logger = init.logger;
    this.signal = init.signal;
    this.services = init.services;
  }

  /** When this turn started, for the answer-time metric. */
  readonly startedAt = Date.now();

  /** The messages this turn answers (a burst's, turn/burst.ts), the first being the head it started with. */
  answerTogether(messages: readonly Inbound[]): void {
    const [first] = messages;
    if (!first) return;
    this.messages = messages;
    this.inbound =
      messages.length === 1
        ? first
        : {
            ...first,
            text: messages
              .map((message) => message.text)
              .filter((text) => text.trim() !== '')
              .join('\n'),
            attachments: messages.flatMap((message) => message.attachments),
            sentAt: messages.at(-1)!.sentAt,
          };
  }

  settings(): Promise<ChatbotSettings> {
    return this.services.settings.get(this.bot.serialNumber);
  }

  texts(): Promise<UserTexts> {
    return (this.textsRead ??= this.services.texts.read(this.bot, () => this.settings()));
  }

  async reply(markdown: string, extras?: ReplyExtras): Promise<void> {
    this.record('bot', markdown);
    await sendReply(this.outbound, this.capabilities, this.conversation, markdown, extras, this.signal, {
      outageHorizonMs: this.services.policy.platformOutageHorizonMs,
    });
  }

  record(
    role: TranscriptRole,
    text: string,
    extra: Pick<TranscriptEntry, 'attachments' | 'files' | 'user' | 'event' | 'operator'> = {},
  ): void {
    this.entries.push({ at: Date.now(), role, text, ...extra });
  }

  later(...commands: AtomicCommand[]): void {
    this.commands.push(...commands);
  }

  /** Everything to write when the turn ends: transcript entries first, then the steps' updates. */
  /** The writes to make with the queue advance; `written` to be called once they are. */
  pendingWrites(): { writes: AtomicCommand[]; written(): void } {
    const transcript = this.services.transcript.turnAppend(this.conversation, this.entries);
    return { writes: [...transcript.commands, ...this.commands], written: transcript.written };
  }
}
