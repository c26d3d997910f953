/**
 * What a handoff does, whatever triggered it: pause the conversation and queue
 * one e-mail (in one MULTI), tell the user; and the way back: end the pause and
 * tell the user the bot is back. Also the operator's side: read, answer, claim,
 * list. Each moment (handed over, claimed, handed back) is an entry of the
 * transcript and a change told to the inbox's live feed; a hand-back is kept in
 * the history.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/index.js';
import type { Gateway, TranscriptEntry, TurnContext } from '../../gateway/index.js';
import { describeAttachment } from '../../gateway/index.js';
import type { ConversationRef } from '../../contract.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import { formatConversationId } from '../conversation-id.js';
import { FollowUps } from './follow-up.js';
import { composeHandoffMail, type Outbox } from '../mail/index.js';
import { HandBackHistory } from './hand-back-history.js';
import type { InboxChangeKind, InboxFeed } from './inbox-changes.js';
import type { InboxLinkSigner, ResumeLinkSigner } from './mail-links.js';
import { claimant, sameOperator, signatureFields, type OperatorSignature } from './operator-signature.js';
import { OperatorVoice } from './operator-voice.js';
import { PauseStore, type PauseRecord } from './pause-store.js';
import { INBOX_LINK_HOURS, MAIL_TRANSCRIPT_ENTRIES } from '../policy.js';
import { describeReason, type HandoffReason } from './reason.js';

const HOUR_MS = 60 * 60_000;
/** Whole milliseconds: Redis PEXPIRE takes integers, and hours may be fractional. */
const hoursToMs = (hours: number) => Math.max(1, Math.round(hours * HOUR_MS));

export interface HandoffControllerOptions {
  gateway: Gateway;
  state: StateStore;
  handoff: Config['handoff'];
  logger: Logger;
  links: ResumeLinkSigner;
  outbox: Outbox;
  /** Where the inbox hears of changes; none when the inbox is off (no ADMIN_TOKEN). */
  feed?: Pick<InboxFeed, 'publish'>;
  /** The e-mail's link into the inbox; none when the inbox is off. */
  inboxLinks?: InboxLinkSigner;
}

export type ResumeOutcome = 'resumed' | 'not-paused';
export type ClaimOutcome =
  | { outcome: 'claimed'; from?: string }
  | { outcome: 'already-yours' }
  | { outcome: 'not-paused' }
  /** Someone claimed it after the operator looked (`holder`, absent when the pause changed otherwise): nothing written. */
  | { outcome: 'changed'; holder?: string };

/** Whom the operator saw holding the conversation when they pressed Claim (null: nobody); unknown to the admin API. */
export interface SeenHolder {
  holder: OperatorSignature | null;
}

export class HandoffController {
  readonly pauses: PauseStore;
  readonly followUps: FollowUps;
  readonly history: HandBackHistory;
  /** What an operator writes into a conversation (a message, a file, a note), and a takeover from a door's thread. */
  readonly voice: OperatorVoice;

  constructor(private readonly options: HandoffControllerOptions) {
    this.pauses = new PauseStore(options.state);
    this.history = new HandBackHistory(options.state);
    this.voice = new OperatorVoice({
      gateway: options.gateway,
      state: options.state,
      logger: options.logger,
      pauses: this.pauses,
      pauseMs: () => hoursToMs(options.handoff.pauseHours),
      activePause: (conversation, now) => this.activePause(conversation, now),
      publish: (conversation, kind) => this.publish(conversation, kind),
    });
    this.followUps = new FollowUps({
      state: options.state,
      outbox: options.outbox,
      links: options.links,
      handoff: options.handoff,
      ...(options.inboxLinks ? { inboxLinks: options.inboxLinks } : {}),
    });
  }

  /**
   * The user wrote while paused: the follow-up e-mail. Its failure must not
   * break the silence of the pause, so it is logged, not thrown.
   */
  async noteWhilePaused(ctx: TurnContext, record: PauseRecord): Promise<void> {
    try {
      await this.followUps.noteMessage(ctx, record);
    } catch (error) {
      ctx.logger.warn(
        { err: error, handoffId: record.handoffId },
        'the follow-up e-mail for a message written while paused could not be queued',
      );
    }
  }

  /** The pause ran out (seen at the user's next message); true for the one caller that ended it. */
  async endExpired(conversation: ConversationRef): Promise<boolean> {
    const record = await this.pauses.read(conversation);
    if (!record || !(await this.pauses.end(record))) return false;
    await this.followUps.cancel(conversation);
    await this.noteHandedBack(record, { by: 'expired', text: 'The pause ran out: the assistant answers again.' });
    return true;
  }

  /** The conversation's pause while it holds (null when not paused or expired). */
  async activePause(conversation: ConversationRef, now = Date.now()): Promise<PauseRecord | null> {
    const record = await this.pauses.read(conversation);
    return record && record.expiresAt > now ? record : null;
  }

  /**
   * Hands the conversation of this turn to a person. `context` are transcript
   * entries of this turn that are not in the store yet (the turn writes its own
   * entries when it ends), e.g. the bot's answer that had nothing to say.
   */
  async start(ctx: TurnContext, reason: HandoffReason, context: TranscriptEntry[] = []): Promise<void> {
    const { conversation } = ctx;
    if (await this.activePause(conversation)) {
      await ctx.reply((await ctx.texts()).handoff.alreadyWithAPerson);
      return;
    }
    const settings = await ctx.settings();
    const email = settings.TalkToHumanEmail?.trim() ?? '';
    const now = Date.now();
    const record: PauseRecord = {
      conversation,
      handoffId: randomUUID(),
      since: now,
      expiresAt: now + hoursToMs(this.options.handoff.pauseHours),
      reason: describeReason(reason),
      user: ctx.inbound.user,
      isGroup: ctx.inbound.isGroup,
    };
    const commands = this.pauses.writeCommands(record);
    // Written with the turn's own entries, after the user's message that led here.
    ctx.record('system', `Handed over to a person: ${record.reason}.`, { event: 'handed-over' });
    const mailable = email.includes('@');
    if (mailable) {
      const transcript = [
        ...(await ctx.services.transcript.read(conversation, MAIL_TRANSCRIPT_ENTRIES)),
        currentMessage(ctx),
        ...context,
      ];
      const linkExpiresAt = now + hoursToMs(this.options.handoff.linkHours);
      const mail = composeHandoffMail({
        botId: ctx.bot.id,
        chatbotName: settings.Name?.trim() || ctx.bot.serialNumber || ctx.bot.id,
        platform: conversation.platform,
        conversationId: formatConversationId(conversation),
        user: ctx.inbound.user,
        reason: record.reason,
        since: now,
        pausedUntil: record.expiresAt,
        transcript,
        resumeUrl: this.options.links.url({ conversation, handoffId: record.handoffId, expiresAt: linkExpiresAt }),
        linkExpiresAt,
        ...this.inboxLink(conversation, now, email),
      });
      commands.push(
        ...this.options.outbox.enqueueCommands(
          conversation,
          { to: email, ...mail, conversation: formatConversationId(conversation) },
          now,
        ),
      );
    }
    await this.options.state.atomic(commands);
    ctx.logger.info(
      { handoffId: record.handoffId, reason: record.reason, mailed: mailable },
      'conversation handed to a person',
    );
    this.reportMailing(ctx, email, mailable);
    await this.publish(conversation, 'handed-over');
    await ctx.reply(settings.TalkToHumanResponseMessage?.trim() || (await ctx.texts()).handoff.defaultReply);
  }

  /** The e-mail's link into the inbox (signed, for this chatbot's conversations), when the inbox is on. */
  private inboxLink(
    conversation: ConversationRef,
    now: number,
    to: string,
  ): { inboxUrl?: string; inboxLinkExpiresAt?: number } {
    const hours = this.options.handoff.inboxLinkHours ?? INBOX_LINK_HOURS;
    return this.options.inboxLinks?.forMail(conversation, hours, now, to) ?? {};
  }

  private reportMailing(ctx: TurnContext, email: string, mailable: boolean): void {
    if (!mailable) {
      ctx.logger.error(
        { serialNumber: ctx.bot.serialNumber, bot: ctx.bot.id, TalkToHumanEmail: email },
        `A user asked for a person but the chatbot's TalkToHumanEmail setting is ${email ? `not an e-mail address ("${email}")` : 'empty'}; ` +
          'nobody was e-mailed. Set it (chatbridge settings set TalkToHumanEmail=…); the conversation is paused and listed by GET /admin/handoffs.',
      );
    } else if (!this.options.outbox.canSend) {
      ctx.logger.warn(
        { to: email },
        'SMTP_URL (smtp.url) is not set: the handoff e-mail waits in the outbox until a gateway with SMTP_URL runs.',
      );
    } else {
      this.options.outbox.wake();
    }
  }

  /**
   * Hands the conversation back to the bot and tells the user. With `handoffId`
   * (the signed link), only that handoff is ended, not a newer one. `by` says
   * who for the log and the history; `operator` is the operator who did it (the inbox's, a door's).
   */
  async resume(
    conversation: ConversationRef,
    options: { handoffId?: string; by: string; operator?: OperatorSignature },
  ): Promise<ResumeOutcome> {
    const record = await this.pauses.read(conversation);
    if (!record || (options.handoffId !== undefined && record.handoffId !== options.handoffId)) return 'not-paused';
    // The hash goes with the pause, and the upstream failures counted in it: those that led here must not hand the
    // next failure straight back to a person.
    if (!(await this.pauses.end(record))) return 'not-paused';
    await this.followUps.cancel(conversation);
    this.options.logger.info(
      { conversation: formatConversationId(conversation), handoffId: record.handoffId, by: options.by },
      'conversation handed back to the bot',
    );
    const who = options.operator?.name ?? options.by;
    await this.noteHandedBack(
      record,
      {
        by: who,
        text: `Handed back to the assistant by ${who}.`,
        ...(options.operator ? { operator: options.operator } : {}),
      },
      false,
    );
    try {
      const { handoff } = await this.options.gateway.textsFor(conversation);
      await this.options.gateway.say(conversation, handoff.botIsBack, { isGroup: record.isGroup });
    } catch (error) {
      this.options.logger.warn(
        { err: error, conversation: formatConversationId(conversation) },
        'the conversation is back with the bot, but the user could not be told',
      );
    }
    // After the user was told: an inbox page that refreshes shows that message too.
    await this.publish(conversation, 'handed-back');
    return 'resumed';
  }

  /**
   * Marks a paused conversation as `operator`'s (their display name and account): kept with the pause,
   * written in the transcript, told to every open inbox page. Taking over another operator's
   * claim is allowed (they may have gone home); the transcript says who had it. One compare and set
   * on the pause: the claim is written only if the holder is still the one the operator saw (`seen`,
   * else the one read here), so of two operators pressing at once one wins and the other is told who
   * did; pressing again (a double submit) is already-yours, and records nothing. `from` and `holder`
   * are display names, for the operator to read.
   */
  async claim(
    conversation: ConversationRef,
    operator: OperatorSignature,
    seen?: SeenHolder,
    now = Date.now(),
  ): Promise<ClaimOutcome> {
    const record = await this.activePause(conversation, now);
    if (!record) return { outcome: 'not-paused' };
    const holding = claimant(record.claim);
    if (holding && sameOperator(holding, operator)) return { outcome: 'already-yours' };
    const from = seen ? seen.holder : holding;
    const text = from
      ? `${operator.name} took the conversation over from ${from.name}.`
      : `${operator.name} claimed the conversation.`;
    const written = await this.pauses.claimIf(
      record,
      from,
      operator,
      now,
      this.options.gateway.transcript.appendCommands(conversation, [
        { at: now, role: 'system', text, event: 'claimed', ...signatureFields(operator) },
      ]),
    );
    if (!written.claimed) {
      const current = written.now;
      if (!current || current.handoffId !== record.handoffId || current.expiresAt <= now)
        return { outcome: 'not-paused' };
      const holder = claimant(current.claim);
      if (holder && sameOperator(holder, operator)) return { outcome: 'already-yours' };
      return holder ? { outcome: 'changed', holder: holder.name } : { outcome: 'changed' };
    }
    this.options.logger.info(
      {
        conversation: formatConversationId(conversation),
        handoffId: record.handoffId,
        ...signatureFields(operator),
        ...(from ? { from: from.name } : {}),
      },
      'conversation claimed by an operator',
    );
    await this.publish(conversation, 'claimed');
    return from ? { outcome: 'claimed', from: from.name } : { outcome: 'claimed' };
  }

  /** The hand-back in the transcript and the history; told to the inbox unless the caller does it later. */
  private async noteHandedBack(
    record: PauseRecord,
    what: { by: string; text: string; operator?: OperatorSignature },
    publish = true,
  ): Promise<void> {
    const { conversation } = record;
    const at = Date.now();
    try {
      await this.options.gateway.transcript.append(conversation, {
        at,
        role: 'system',
        text: what.text,
        event: 'handed-back',
        ...(what.operator ? signatureFields(what.operator) : {}),
      });
      await this.history.add({
        conversation,
        handoffId: record.handoffId,
        since: record.since,
        at,
        by: what.by,
        ...(what.operator?.account ? { account: what.operator.account } : {}),
        ...(what.operator?.via ? { via: what.operator.via } : {}),
        ...(record.user ? { user: record.user } : {}),
        ...(record.claim ? { claimedBy: record.claim.by } : {}),
        ...(record.claim?.account ? { claimedByAccount: record.claim.account } : {}),
        ...(record.claim?.via ? { claimedVia: record.claim.via } : {}),
      });
    } catch (error) {
      // The hand-back itself happened; only its note is missing.
      this.options.logger.warn(
        { err: error, conversation: formatConversationId(conversation) },
        'the hand-back could not be written to the transcript or the history',
      );
    }
    if (publish) await this.publish(conversation, 'handed-back');
  }

  /**
   * Tells the inbox's open pages (in every process) that the conversation changed; nothing when the
   * inbox is off. Never throws (the feed logs its own failures): a live page missing a change is no
   * reason to fail a handoff.
   */
  async publish(conversation: ConversationRef, kind: InboxChangeKind): Promise<void> {
    await this.options.feed?.publish({ conversation, kind });
  }

  async transcript(conversation: ConversationRef): Promise<TranscriptEntry[]> {
    return this.options.gateway.transcript.read(conversation);
  }

  listPaused(): Promise<PauseRecord[]> {
    return this.pauses.listActive();
  }
}

function currentMessage(ctx: TurnContext): TranscriptEntry {
  const { inbound } = ctx;
  const attachments = inbound.attachments.map(describeAttachment);
  const text = inbound.action ? inbound.text || '(pressed "Talk to a person")' : inbound.text;
  return { at: Date.now(), role: 'user', text, user: inbound.user, ...(attachments.length > 0 ? { attachments } : {}) };
}
