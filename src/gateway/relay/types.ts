import type { AtomicCommand } from '../../state/index.js';
import type { TypingHandle } from './typing.js';
import type { Logger } from '../../logger.js';
import type { AskFinal, AskStreamEvent } from '../../upstream/api.js';
import type { Button, Capabilities, ConversationRef, Outbound, PlatformUser, SentMessage } from '../../contract.js';
import type { InflightRecorder } from './inflight.js';
import type { UserTexts } from '../user-texts.js';

/** The sentences the relay may show: instead of an empty answer, over buttons of their own, in a message no longer needed. */
export type RelayTexts = Pick<UserTexts, 'emptyAnswer' | 'buttonsMessage' | 'supersededMessage'>;

export type RendererKind = 'draft' | 'native' | 'edit' | 'buffered';

/** How fast and how eagerly intermediate renders are shown. Every field has a default (relay-policy.ts). */
export interface PacingPolicy {
  /** Minimum time between two updates of a streaming message (ms), per chat kind. Default: the capabilities'. */
  editIntervalMs: { private: number; group: number };
  /** Minimum time between two drafts (ms). Drafts are animated previews, cheaper than edits. */
  draftIntervalMs: number;
  /** Characters of Markdown needed before the first visible message, so it does not open with one word. */
  minInitialChars: number;
  /** Characters of new Markdown needed before an intermediate edit is worth a platform call. */
  minGrowthChars: number;
  /** Tries of one final update while the platform answers 429 (the first try included). */
  finalAttempts: number;
  /** Total time the final update may spend waiting on retry_after before it gives up (ms). */
  finalRetryBudgetMs: number;
}

export interface RelayRequest {
  /**
   * The adapter's outbound for this conversation (`outboundIn`): its methods decide how the
   * answer streams (drafts, a native stream, edits, or all at once).
   */
  outbound: Outbound;
  capabilities: Capabilities;
  conversation: ConversationRef;
  isGroup: boolean;
  /** The user the answer replies to (`Inbound.user`): a native stream names its recipient (Slack, outside DMs). */
  recipient: PlatformUser;
  /** Fragments then exactly one final (final.answer is authoritative). */
  answer: AsyncIterable<AskStreamEvent>;
  inflight: InflightRecorder;
  pacing?: Partial<PacingPolicy>;
  /** Attached to the final message when the platform has buttons (e.g. "Talk to a person"). */
  buttons?: Button[];
  logger: Logger;
  /** Stops reading the answer: what arrived so far is delivered as an incomplete final. */
  signal?: AbortSignal;
  /**
   * The user stopped the answer (/stop): reading ends, and what arrived so far is the final answer, with
   * `stoppedNote` below it; unlike `signal`, nothing is left to answer again.
   */
  stopSignal?: AbortSignal;
  /** The note below a stopped answer (Markdown, a line of its own). */
  stoppedNote?: string;
  /**
   * A typing indicator the caller already runs (e.g. while media uploaded); the relay takes it
   * over and stops it, instead of starting a second one whose call would delay the first text.
   */
  typing?: TypingHandle;
  /**
   * When given, the writes that remove the in-flight record are handed here instead of being
   * sent: the caller commits them with its own end-of-turn transaction (one round trip less).
   */
  commitInflightRemoval?: (commands: AtomicCommand[]) => void;
  /** How long the final is retried while the platform is unreachable (default PLATFORM_OUTAGE_HORIZON_MS). */
  platformOutageHorizonMs?: number;
  /** The relay's sentences in the chatbot's language (default English). */
  texts?: RelayTexts;
}

export interface RelayResult {
  /** The final event; synthesized (incomplete) when the stream ended without one. */
  final: AskFinal;
  /** Messages holding the final answer, in reading order (a native stream's own message has no handle). */
  messages: SentMessage[];
  /** The renderer that finished the answer (after any fallback). */
  renderer: RendererKind;
  /** 429 answers met on the way: skipped intermediate updates plus retried final updates. */
  rateLimitedUpdates: number;
  /** The user stopped it (RelayRequest.stopSignal): `final` holds what was written until then. */
  stopped: boolean;
}
