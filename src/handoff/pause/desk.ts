/**
 * The operator's desk: what an operator can do with the conversations handed to a person,
 * written once for every door (the inbox pages, the admin API the CLI calls). The rules live
 * here and in the controller; the doors only translate requests and answers.
 */
import type { Gateway, TranscriptEntry } from '../../gateway/index.js';
import { PlatformError, type ConversationRef } from '../../contract.js';
import type { StateStore, AtomicCommandOf, AtomicResult } from '../../state/index.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { parseConversationId } from '../conversation-id.js';
import type { ClaimOutcome, HandoffController, ResumeOutcome, SeenHolder } from './controller.js';
import type { HandBack } from './hand-back-history.js';
import type { InboxViewer } from './inbox-changes.js';
import type { OperatorSignature } from './operator-signature.js';
import { handoffKeys } from '../keys.js';
import type { PauseRecord } from './pause-store.js';

/** Longest operator message accepted (the platforms split long ones; this only stops accidents). */
export const OPERATOR_MESSAGE_MAX_CHARS = 20_000;
/** Longest operator display name: it is shown beside every message they send. */
export const OPERATOR_NAME_MAX_CHARS = 60;
/** The newest entries read for a waiting conversation's "last message": the user's newest among them. */
const LAST_MESSAGE_LOOKBACK = 10;

export interface DeskBot {
  id: string;
  serialNumber: string;
}

export interface OperatorDeskOptions {
  controller: HandoffController;
  gateway: Gateway;
  state: StateStore;
  /** The configured bots: a chatbot's name comes from its settings (Name), else its serial number or id. */
  bots: readonly DeskBot[];
  /** The operator accounts (OperatorAccounts), whose names as they are now the pages show for what an account did. */
  accounts?: { list(): Promise<readonly { id: string; name: string }[]> };
}

export interface WaitingConversation {
  pause: PauseRecord;
  /** The chatbot's name. */
  chatbot: string;
  /**
   * The user's newest message among the transcript's newest entries: what the operator must answer (after a handoff
   * the bot's reply and operators' messages come later). None when the user's last words are further back.
   */
  last?: TranscriptEntry;
}

export interface WaitingList {
  /** Every paused conversation the viewer may see. */
  total: number;
  /** The newest `limit` of them, newest first. */
  shown: WaitingConversation[];
}

export interface OpenedConversation {
  conversation: ConversationRef;
  chatbot: string;
  /** The pause while it holds; null once handed back (or never handed over). */
  pause: PauseRecord | null;
  transcript: TranscriptEntry[];
}

export type ReplyOutcome =
  | { sent: true }
  /** Empty or too long. */
  | { sent: false; problem: 'invalid'; message: string }
  /** No adapter of this gateway serves the conversation's bot and platform. */
  | { sent: false; problem: 'not-served'; message: string }
  /** The platform refused the message or could not be reached (after the retries): its reason. */
  | { sent: false; problem: 'platform'; kind: PlatformError['kind']; message: string };

export class OperatorDesk {
  constructor(private readonly options: OperatorDeskOptions) {}

  /** Whether `viewer` may see conversations of `bot`. */
  static sees(viewer: InboxViewer, bot: string): boolean {
    return viewer.bots === 'all' || viewer.bots.includes(bot);
  }

  /**
   * The conversations waiting for a person that `viewer` may see, newest first, the first `limit`
   * read in full. The shards' indexes are read in one batch (scores are expiry times, so the
   * newest handoffs come last whatever their shard; handoff.pauseHours is the same for all of them
   * unless it was changed meanwhile), then only the shown pauses and their last messages.
   */
  async waiting(viewer: InboxViewer, limit: number, now = Date.now()): Promise<WaitingList> {
    const listed = await rangeEveryShard(this.options.state, handoffKeys.paused, now, Number.MAX_SAFE_INTEGER);
    const visible = listed
      .flatMap(({ member, score }) => {
        const conversation = parseConversationId(member);
        return conversation && OperatorDesk.sees(viewer, conversation.bot) ? [{ conversation, score }] : [];
      })
      .sort((a, b) => b.score - a.score);
    const page = visible.slice(0, limit).map(({ conversation }) => conversation);
    const { controller, gateway } = this.options;
    const [hashes, lasts] = await Promise.all([
      // Each a hashGetAll (readCommand), so each result is its hash.
      this.options.state.batch(page.map((conversation) => controller.pauses.readCommand(conversation))) as Promise<
        AtomicResult<AtomicCommandOf<'hashGetAll'>>[]
      >,
      Promise.all(page.map((conversation) => gateway.transcript.read(conversation, LAST_MESSAGE_LOOKBACK))),
    ]);
    const names = await this.chatbotNames(new Set(page.map((conversation) => conversation.bot)));
    const shown = page.flatMap((conversation, index): WaitingConversation[] => {
      const pause = controller.pauses.decode(conversation, hashes[index] ?? {});
      // Handed back between the two reads: it has left the inbox.
      if (!pause || pause.expiresAt <= now) return [];
      const last = lasts[index]?.findLast((entry) => entry.role === 'user');
      return [{ pause, chatbot: names.get(conversation.bot) ?? conversation.bot, ...(last ? { last } : {}) }];
    });
    shown.sort((a, b) => b.pause.since - a.pause.since);
    return { total: visible.length, shown };
  }

  /** One conversation: its pause (if it still waits) and its whole kept transcript. */
  async open(conversation: ConversationRef, now = Date.now()): Promise<OpenedConversation> {
    const [pause, transcript, names] = await Promise.all([
      this.options.controller.activePause(conversation, now),
      this.options.gateway.transcript.read(conversation),
      this.chatbotNames(new Set([conversation.bot])),
    ]);
    return { conversation, chatbot: names.get(conversation.bot) ?? conversation.bot, pause, transcript };
  }

  /**
   * Sends `text` to the user on their platform as `operator` (who and from where, kept in the
   * transcript; none from the admin API). A failed delivery comes back with the platform's reason.
   */
  async reply(conversation: ConversationRef, text: string, operator?: OperatorSignature): Promise<ReplyOutcome> {
    if (text.trim() === '' || text.length > OPERATOR_MESSAGE_MAX_CHARS) {
      return {
        sent: false,
        problem: 'invalid',
        message: `A reply has 1 to ${OPERATOR_MESSAGE_MAX_CHARS.toLocaleString('en')} characters.`,
      };
    }
    if (!this.options.gateway.outboundFor(conversation)) {
      return {
        sent: false,
        problem: 'not-served',
        message: `No adapter serves bot "${conversation.bot}" on "${conversation.platform}" in this gateway.`,
      };
    }
    try {
      await this.options.controller.voice.say(conversation, text, operator);
      return { sent: true };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return { sent: false, problem: 'platform', kind: error.kind, message: error.message };
    }
  }

  /** `seen`: whom the operator's page showed holding it, so that a claim made meanwhile is not silently taken over. */
  claim(conversation: ConversationRef, operator: OperatorSignature, seen?: SeenHolder): Promise<ClaimOutcome> {
    return this.options.controller.claim(conversation, operator, seen);
  }

  /** Ends the handoff as the hand-back link does: the user is told, the bot answers the next message. */
  /** `by.door`: where it was done (the admin API, "Slack"); an operator's without it is the inbox's. */
  handBack(
    conversation: ConversationRef,
    by: { operator: OperatorSignature; door?: string } | { door: string },
  ): Promise<ResumeOutcome> {
    return 'operator' in by
      ? this.options.controller.resume(conversation, { by: by.door ?? 'the inbox', operator: by.operator })
      : this.options.controller.resume(conversation, { by: by.door });
  }

  /** The newest hand-backs `viewer` may see, newest first. */
  async history(viewer: InboxViewer, limit: number): Promise<HandBack[]> {
    const all = await this.options.controller.history.list();
    return all.filter((entry) => OperatorDesk.sees(viewer, entry.conversation.bot)).slice(0, limit);
  }

  /** Each operator account's display name as it is now, by account id (one read, for a page). */
  async accountNames(): Promise<Map<string, string>> {
    const accounts = (await this.options.accounts?.list()) ?? [];
    return new Map(accounts.map((account) => [account.id, account.name]));
  }

  /** Each bot's chatbot name: its settings' Name, else the serial number, else the bot id. */
  async chatbotNames(bots: ReadonlySet<string>): Promise<Map<string, string>> {
    const entries = await Promise.all(
      [...bots].map(async (id): Promise<[string, string]> => {
        const bot = this.options.bots.find((candidate) => candidate.id === id);
        if (!bot) return [id, id];
        // Read now, not through the turns' cache: a page or a digest read would hold an edit away from the turns.
        const settings = await this.options.gateway.settings
          .fresh(bot.serialNumber)
          .catch(() => ({}) as { Name?: string });
        return [id, settings.Name?.trim() || bot.serialNumber || bot.id];
      }),
    );
    return new Map(entries);
  }
}

/** An operator's display name as given, or why it cannot be one. */
export function operatorName(raw: unknown): { ok: true; name: string } | { ok: false; message: string } {
  const name = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : '';
  if (name === '')
    return { ok: false, message: 'Give your name: the other operators see it with each message you send.' };
  if (name.length > OPERATOR_NAME_MAX_CHARS)
    return { ok: false, message: `A name has at most ${OPERATOR_NAME_MAX_CHARS} characters.` };
  return { ok: true, name };
}
