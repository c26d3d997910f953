/**
 * What an operator writes into a conversation, from any door: a message or a file sent to the user
 * as the bot and recorded under the operator's name (and account: operator-signature.ts), a note kept among operators, and the takeover
 * of a conversation back with the bot by an operator who writes in its door's thread. Each is told
 * to the inbox and the threads (`publish`).
 */
import { randomUUID } from 'node:crypto';
import type { ConversationRef, PlatformUser } from '../../contract.js';
import type { FileToSend, Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import { formatConversationId } from '../conversation-id.js';
import type { InboxChangeKind } from './inbox-changes.js';
import { signatureFields, type OperatorSignature } from './operator-signature.js';
import type { PauseRecord, PauseStore } from './pause-store.js';

export interface OperatorVoiceOptions {
  gateway: Gateway;
  state: StateStore;
  logger: Logger;
  pauses: PauseStore;
  /** How long a pause lasts (handoff.pauseHours), in ms. */
  pauseMs(): number;
  activePause(conversation: ConversationRef, now?: number): Promise<PauseRecord | null>;
  publish(conversation: ConversationRef, kind: InboxChangeKind): Promise<void>;
}

export class OperatorVoice {
  constructor(private readonly options: OperatorVoiceOptions) {}

  /**
   * An operator wrote, in a door's thread (`where`: "Slack"), to a conversation that is back with the
   * bot: it is paused again and claimed by them before their message goes, so the bot and a person
   * never both answer. No e-mail: the person is there already. `last` is what the door's thread
   * knows of the user (the pause before). The pause already in place wins, when there is one.
   */
  async takeOver(
    conversation: ConversationRef,
    operator: OperatorSignature,
    where: string,
    last: { user?: PlatformUser; isGroup: boolean },
    now = Date.now(),
  ): Promise<PauseRecord> {
    const current = await this.options.activePause(conversation, now);
    if (current) return current;
    const record: PauseRecord = {
      conversation,
      handoffId: randomUUID(),
      since: now,
      expiresAt: now + this.options.pauseMs(),
      reason: `taken over by ${operator.name} in ${where}`,
      isGroup: last.isGroup,
      ...(last.user ? { user: last.user } : {}),
      claim: {
        by: operator.name,
        at: now,
        ...(operator.account ? { account: operator.account } : {}),
        ...(operator.via ? { via: operator.via } : {}),
      },
    };
    await this.options.state.atomic([
      ...this.options.pauses.writeCommands(record),
      ...this.options.gateway.transcript.appendCommands(conversation, [
        {
          at: now,
          role: 'system',
          text: `${operator.name} took the conversation over in ${where}.`,
          event: 'handed-over',
          ...signatureFields(operator),
        },
      ]),
    ]);
    this.options.logger.info(
      {
        conversation: formatConversationId(conversation),
        handoffId: record.handoffId,
        ...signatureFields(operator),
        where,
      },
      'conversation taken over by an operator',
    );
    await this.options.publish(conversation, 'handed-over');
    return record;
  }

  /**
   * An operator's message into the conversation, on its platform, recorded as the operator's
   * (with their name and account when known). A platform's refusal is thrown (PlatformError), unrecorded.
   */
  async say(conversation: ConversationRef, text: string, operator?: OperatorSignature): Promise<void> {
    const record = await this.options.pauses.read(conversation);
    await this.options.gateway.say(conversation, text, {
      role: 'operator',
      isGroup: record?.isGroup ?? false,
      ...(operator ? signatureFields(operator) : {}),
    });
    await this.options.publish(conversation, 'operator-message');
  }

  /** An operator's file into the conversation, as say() (a refusal thrown as a PlatformError, unrecorded). */
  async sendFile(
    conversation: ConversationRef,
    file: FileToSend,
    { operator, ...options }: { caption?: string; operator?: OperatorSignature },
  ): Promise<void> {
    const record = await this.options.pauses.read(conversation);
    await this.options.gateway.sendFile(conversation, file, {
      ...options,
      ...(operator ? signatureFields(operator) : {}),
      role: 'operator',
      isGroup: record?.isGroup ?? false,
    });
    await this.options.publish(conversation, 'operator-message');
  }

  /** An operator's private note: in the transcript for the other operators, never sent to the user. */
  async note(conversation: ConversationRef, text: string, operator: OperatorSignature): Promise<void> {
    await this.options.gateway.transcript.append(conversation, {
      at: Date.now(),
      role: 'operator',
      text,
      ...signatureFields(operator),
      note: true,
    });
    await this.options.publish(conversation, 'operator-message');
  }
}
