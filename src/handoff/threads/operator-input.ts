/**
 * What operators do in a door's thread, as the other doors do it: a message goes to the user on
 * their platform as the bot (a conversation back with the bot is taken over first), `note:` keeps
 * it among operators, files go as files, Claim and Hand back act as in the inbox. Each message or
 * press counts once however often the platform delivers it and however many processes hear it;
 * whatever the user's platform refused is answered in the thread with the reason. A person is
 * recorded as the operator account their e-mail (Slack) or id (Telegram) names, under its name,
 * and refused when that account does not include the chatbot; a person no account names acts
 * as before (the channel's membership is their permission), recorded under their platform's name.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fileTypeFromBuffer } from 'file-type';
import {
  AttachmentTooLargeError,
  PlatformError,
  type ConversationRef,
  type InboundAttachment,
  type OperatorActionEvent,
  type OperatorDoor,
  type OperatorIdentity,
  type OperatorMessage,
  type OperatorSink,
} from '../../contract.js';
import type { Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import { formatConversationId } from '../conversation-id.js';
import { visibleBots, type OperatorAccounts } from '../operators/index.js';
import {
  OPERATOR_MESSAGE_MAX_CHARS,
  type HandoffController,
  type OperatorDesk,
  type OperatorSignature,
} from '../pause/index.js';
import type { ThreadStore } from './thread-store.js';

/** Lookups of a thread not known yet, and the pause between them: ample for a thread being opened. */
const UNKNOWN_THREAD_LOOKUPS = 4;
const UNKNOWN_THREAD_PAUSE_MS = 250;

/** A message that starts so is a note for the other operators (any case), never sent to the user. */
const NOTE_PREFIX = /^\s*note:\s*/i;

export interface OperatorInputOptions {
  bot: string;
  door: OperatorDoor;
  desk: OperatorDesk;
  controller: HandoffController;
  gateway: Gateway;
  store: ThreadStore;
  logger: Logger;
  platformName(platform: string): string;
  /** Whose account a person of the door is (OperatorAccounts.ofDoorPerson). */
  accounts: Pick<OperatorAccounts, 'ofDoorPerson'>;
}

export class OperatorInput implements OperatorSink {
  constructor(private readonly options: OperatorInputOptions) {}

  async message(message: OperatorMessage): Promise<void> {
    const { door } = this.options;
    // Alerts mode: the thread is the card's, operators answer from the inbox.
    if (!door.relays) return;
    await this.once(message.thread, `m:${message.messageId}`, (conversation) => this.handle(conversation, message));
  }

  async action(action: OperatorActionEvent): Promise<void> {
    await this.once(action.thread, `a:${action.actionId}`, (conversation) => this.act(conversation, action));
  }

  /** Runs `work` for the thread's conversation the first time this id is seen; forgets it when the work fails. */
  private async once(
    thread: string,
    id: string,
    work: (conversation: ConversationRef) => Promise<void>,
  ): Promise<void> {
    const { store, door, bot } = this.options;
    const conversation = await this.conversationOf(thread);
    // A thread that is none of the handoff's (an operators' chat is theirs too).
    if (!conversation) return;
    if (!(await store.firstSight(door.platform, bot, id))) return;
    try {
      await work(conversation);
    } catch (error) {
      await store.forget(door.platform, bot, id).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The thread's conversation. A thread is shown on its platform a moment before the gateway has
   * noted whose it is: a message or press in that moment is looked up again, a few times.
   */
  private async conversationOf(thread: string): Promise<ConversationRef | null> {
    const { store, door, bot } = this.options;
    for (let attempt = 1; ; attempt++) {
      const conversation = await store.conversationOf(door.platform, bot, thread);
      if (conversation || attempt >= UNKNOWN_THREAD_LOOKUPS) return conversation;
      await sleep(UNKNOWN_THREAD_PAUSE_MS);
    }
  }

  /**
   * Who `person` is, as what they do is recorded: the account their e-mail or id names (its name as it is now), else
   * their platform's name. Null, and told in the thread, when their account does not include the conversation's
   * chatbot: nothing of theirs reaches the user.
   */
  private async signatureOf(
    conversation: ConversationRef,
    person: OperatorIdentity,
  ): Promise<OperatorSignature | null> {
    const { accounts, door, store, logger } = this.options;
    const account = await accounts.ofDoorPerson({
      platform: door.platform,
      id: person.id,
      ...(person.email ? { email: person.email } : {}),
    });
    if (!account) return { name: person.name, via: door.platform };
    const bots = visibleBots(account);
    if (bots === 'all' || bots.includes(conversation.bot))
      return { name: account.name, account: account.id, via: door.platform };
    logger.warn(
      { conversation: formatConversationId(conversation), account: account.id },
      "an operator's account does not include the conversation's chatbot: refused in the thread",
    );
    const thread = (await store.read(conversation)).get(door.platform);
    if (thread)
      await door.post(thread.ref, {
        markdown:
          `${account.name}: your operator account does not include this chatbot ("${conversation.bot}"), so nothing ` +
          `was done. An admin can add it with \`chatbridge operators change <your e-mail>\`.`,
      });
    return null;
  }

  private async handle(conversation: ConversationRef, message: OperatorMessage): Promise<void> {
    const { controller, desk, door } = this.options;
    const operator = await this.signatureOf(conversation, message.operator);
    if (!operator) return;
    const where = this.options.platformName(door.platform);
    if (NOTE_PREFIX.test(message.text)) {
      await controller.voice.note(conversation, message.text.replace(NOTE_PREFIX, ''), operator);
      return;
    }
    const threads = await this.options.store.read(conversation);
    const thread = threads.get(door.platform);
    // Paused before anything goes: the bot stays quiet from this moment.
    await controller.voice.takeOver(conversation, operator, where, {
      isGroup: thread?.isGroup ?? false,
      ...(thread?.user ? { user: thread.user } : {}),
    });
    const refusals: string[] = [];
    // The text goes with the first file as its caption, as the operator sent it; alone when there is none.
    const captioned = message.files.length > 0 && message.text.length <= OPERATOR_MESSAGE_MAX_CHARS;
    if (!captioned && (message.text.trim() !== '' || message.files.length === 0)) {
      const outcome = await desk.reply(conversation, message.text, operator);
      if (!outcome.sent) refusals.push(`Not delivered: ${outcome.message}`);
    }
    for (const [index, file] of message.files.entries()) {
      const caption = captioned && index === 0 ? message.text : '';
      const refused = await this.sendFile(conversation, file, operator, caption);
      if (refused) refusals.push(refused);
    }
    if (refusals.length === 0) return;
    this.options.logger.warn(
      { conversation: formatConversationId(conversation), refusals },
      "an operator's message from a thread was not delivered; the thread is told why",
    );
    if (thread) await door.post(thread.ref, { markdown: refusals.join('\n') });
  }

  /** The operator's file to the user, with `caption`; what was refused, in words, or null when it went. */
  private async sendFile(
    conversation: ConversationRef,
    file: InboundAttachment,
    operator: OperatorSignature,
    caption: string,
  ): Promise<string | null> {
    const { gateway, controller, door } = this.options;
    if (!gateway.outboundFor(conversation))
      return `Not delivered: no adapter of this gateway serves ${conversation.platform} for bot "${conversation.bot}".`;
    const name = file.fileName ?? `${file.kind === 'image' ? 'photo' : 'file'}`;
    const limit = Math.min(
      door.maxFileBytes,
      gateway.outboundFor(conversation)?.capabilities.maxUploadBytes ?? door.maxFileBytes,
    );
    let bytes: Uint8Array;
    try {
      bytes = await file.fetch({ maxBytes: limit });
    } catch (error) {
      if (error instanceof AttachmentTooLargeError)
        return `Not delivered: ${name} is larger than the user's platform takes from a bot (${Math.floor(limit / 1024 / 1024)} MB).`;
      return `Not delivered: ${name} could not be read from ${this.options.platformName(door.platform)} (${(error as Error).message}).`;
    }
    const mimeType = (await fileTypeFromBuffer(bytes))?.mime ?? file.mimeType;
    try {
      await controller.voice.sendFile(
        conversation,
        { bytes, fileName: name, ...(mimeType ? { mimeType } : {}) },
        { operator, ...(caption.trim() !== '' ? { caption } : {}) },
      );
      return null;
    } catch (error) {
      if (error instanceof PlatformError) return `Not delivered: ${name}: ${error.message}`;
      throw error;
    }
  }

  private async act(conversation: ConversationRef, action: OperatorActionEvent): Promise<void> {
    const { desk, door, store, logger } = this.options;
    const operator = await this.signatureOf(conversation, action.operator);
    if (!operator) return;
    const name = operator.name;
    const where = this.options.platformName(door.platform);
    let answer: string | undefined;
    if (action.kind === 'claim') {
      const outcome = await desk.claim(conversation, operator);
      if (outcome.outcome === 'not-paused')
        answer = `The conversation is back with the assistant; ${door.relays ? 'write here to take it over.' : 'nothing to claim.'}`;
    } else {
      const outcome = await desk.handBack(conversation, { operator, door: where });
      if (outcome === 'not-paused') answer = 'The conversation was already back with the assistant.';
    }
    logger.info(
      {
        conversation: formatConversationId(conversation),
        operator: name,
        ...(operator.account ? { account: operator.account } : {}),
        action: action.kind,
      },
      'operator action in a thread',
    );
    if (!answer) return;
    const thread = (await store.read(conversation)).get(door.platform);
    if (thread) await door.post(thread.ref, { markdown: `${name}: ${answer}` });
  }
}
