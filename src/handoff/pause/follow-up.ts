/**
 * "The user wrote again": while a conversation waits for a person, whoever has
 * it may have read the first e-mail and gone away. Each new user message is
 * gathered into one follow-up e-mail per pause per `handoff.followUpMinutes`,
 * through the outbox like the first one. The follow-up waits in the outbox
 * until its interval is over (counted from the handoff, then from the previous
 * follow-up), and messages written meanwhile are added to that waiting mail
 * rather than queued as more mails. The conversation queue runs one turn per
 * conversation at a time, so two messages never update the same state at once.
 */
import type { Config } from '../../config/index.js';
import type { TranscriptEntry, TurnContext } from '../../gateway/index.js';
import { describeAttachment } from '../../gateway/index.js';
import type { ConversationRef } from '../../contract.js';
import type { StateStore } from '../../state/index.js';
import { formatConversationId } from '../conversation-id.js';
import { handoffKeys, newMailId } from '../keys.js';
import { composeFollowUpMail, type ComposedMail, type Outbox } from '../mail/index.js';
import type { InboxLinkSigner, ResumeLinkSigner } from './mail-links.js';
import type { PauseRecord } from './pause-store.js';
import { INBOX_LINK_HOURS, MAIL_TRANSCRIPT_ENTRIES } from '../policy.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Stored at handoffKeys.followUp(conversation). */
export interface FollowUpState {
  /** The pause it belongs to; a newer pause starts afresh. */
  handoffId: string;
  /** The follow-up waiting in the outbox, or the last one (sent by now). */
  mailId: string;
  /** When that mail is (was) due; the next one is due an interval later. */
  dueAt: number;
  /** That mail quotes transcript entries after this time… */
  from: number;
  /** …up to this one; the next mail starts here. */
  through: number;
}

export interface FollowUpOptions {
  state: StateStore;
  outbox: Outbox;
  links: ResumeLinkSigner;
  /** The inbox's links, when the inbox is on (ADMIN_TOKEN set): the follow-up carries one as the first e-mail does. */
  inboxLinks?: InboxLinkSigner;
  handoff: Pick<Config['handoff'], 'followUpMinutes' | 'linkHours' | 'inboxLinkHours'>;
}

export class FollowUps {
  constructor(private readonly options: FollowUpOptions) {}

  private get intervalMs(): number {
    return Math.round(this.options.handoff.followUpMinutes * MINUTE_MS);
  }

  /** The user wrote into a paused conversation (`record` is its live pause). */
  async noteMessage(ctx: TurnContext, record: PauseRecord): Promise<void> {
    const intervalMs = this.intervalMs;
    if (intervalMs <= 0) return;
    const settings = await ctx.settings();
    const to = settings.TalkToHumanEmail?.trim() ?? '';
    // No address: the handoff itself already logged the operator error naming TalkToHumanEmail.
    if (!to.includes('@')) return;
    const { state, outbox } = this.options;
    const now = Date.now();
    const key = handoffKeys.followUp(record.conversation);
    const previous = decodeState(await state.get(key));
    const mine = previous?.handoffId === record.handoffId ? previous : null;
    const compose = async (from: number): Promise<ComposedMail> => {
      const earlier = (await ctx.services.transcript.read(record.conversation, MAIL_TRANSCRIPT_ENTRIES)).filter(
        (entry) => entry.at > from,
      );
      return this.compose(
        ctx,
        settings.Name?.trim() || ctx.bot.serialNumber || ctx.bot.id,
        record,
        [...earlier, currentMessage(ctx, now)],
        now,
        to,
      );
    };
    const ttlMs = Math.max(record.expiresAt - now, 1) + intervalMs;

    if (mine) {
      const mail = await compose(mine.from);
      if (await outbox.update(mine.mailId, () => mail)) {
        await state.set(key, JSON.stringify({ ...mine, through: now } satisfies FollowUpState), { ttlMs });
        return;
      }
    }
    const from = mine?.through ?? record.since;
    const dueAt = Math.max(now, (mine?.dueAt ?? record.since) + intervalMs);
    // The bot is back by then and tells the user so: nobody needs chasing.
    if (dueAt >= record.expiresAt) return;
    const mailId = newMailId(record.conversation);
    const next: FollowUpState = { handoffId: record.handoffId, mailId, dueAt, from, through: now };
    await state.atomic([
      ...outbox.enqueueCommands(
        record.conversation,
        { to, ...(await compose(from)), conversation: formatConversationId(record.conversation) },
        now,
        dueAt,
        mailId,
      ),
      { op: 'set', key, value: JSON.stringify(next), ttlMs },
    ]);
    ctx.logger.info(
      { handoffId: record.handoffId, mail: mailId, dueAt: new Date(dueAt).toISOString() },
      'the user wrote while with a person: follow-up e-mail queued',
    );
    if (dueAt <= now) outbox.wake();
  }

  /** The pause ended: a follow-up not sent yet would only be noise. */
  async cancel(conversation: ConversationRef): Promise<void> {
    const key = handoffKeys.followUp(conversation);
    const current = decodeState(await this.options.state.get(key));
    if (current) await this.options.outbox.cancel(current.mailId);
    await this.options.state.del(key);
  }

  private compose(
    ctx: TurnContext,
    chatbotName: string,
    record: PauseRecord,
    entries: TranscriptEntry[],
    now: number,
    to: string,
  ): ComposedMail {
    const linkExpiresAt = now + Math.max(1, Math.round(this.options.handoff.linkHours * HOUR_MS));
    return composeFollowUpMail({
      chatbotName,
      platform: record.conversation.platform,
      conversationId: formatConversationId(record.conversation),
      user: record.user ?? ctx.inbound.user,
      since: record.since,
      entries,
      resumeUrl: this.options.links.url({
        conversation: record.conversation,
        handoffId: record.handoffId,
        expiresAt: linkExpiresAt,
      }),
      linkExpiresAt,
      ...this.options.inboxLinks?.forMail(
        record.conversation,
        this.options.handoff.inboxLinkHours ?? INBOX_LINK_HOURS,
        now,
        to,
      ),
    });
  }
}

/**
 * The turn's own message as the transcript will hold it: the turn writes its
 * entries only when it ends, after this hook.
 */
export function currentMessage(ctx: TurnContext, at = Date.now()): TranscriptEntry {
  const { inbound } = ctx;
  const attachments = inbound.attachments.map(describeAttachment);
  const text = inbound.action ? inbound.text || `(pressed a button: ${inbound.action.value})` : inbound.text;
  return { at, role: 'user', text, user: inbound.user, ...(attachments.length > 0 ? { attachments } : {}) };
}

function decodeState(raw: string | null): FollowUpState | null {
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<FollowUpState>;
    return typeof parsed.handoffId === 'string' &&
      typeof parsed.mailId === 'string' &&
      typeof parsed.dueAt === 'number' &&
      typeof parsed.from === 'number' &&
      typeof parsed.through === 'number'
      ? (parsed as FollowUpState)
      : null;
  } catch {
    return null;
  }
}
