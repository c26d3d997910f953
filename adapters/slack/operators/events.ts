/**
 * What people do in the operators' channel, as the door reports it to the handoff. Only a
 * person's reply in a thread of the channel is an operator's message (a thread's root is the
 * card, the door's own post); the door's own posts, other bots', edits, deletions, joins and
 * anything at the channel's top level are dropped. A press of a card's button is an action.
 * Slack's redelivery of an event carries the same message ts, and of a press the same
 * action_ts, so the ids handed on stay the same (the handoff drops the duplicate).
 */
import {
  SerialByKey,
  type OperatorActionEvent,
  type OperatorMessage,
  type OperatorSink,
} from '../../../src/contract.js';
import { tsToMs } from '../conversation.js';
import type { SlackBlockActions, SlackInput, SlackMessageEvent } from '../events.js';
import { slackAttachments, type SlackFileSource } from '../files.js';
import { actionKindOf } from './card.js';
import { mrkdwnToMarkdown } from './mrkdwn-in.js';
import type { OperatorDirectory } from './operators.js';

/** A person's message: plain, with files, or a thread reply also sent to the channel. */
const PERSON_SUBTYPES = new Set<string | undefined>([undefined, 'file_share', 'thread_broadcast']);

export interface DoorEventsOptions {
  channel: string;
  /** False in alerts mode: messages are not reported (buttons still are). */
  relays: boolean;
  files: SlackFileSource;
  operators: OperatorDirectory;
  /** The app's own bot user (auth.test), once known; its posts carry bot_id anyway. */
  ownUserId(): string | undefined;
}

/** Handles what Slack sent; resolves once the sink dealt with it, rejects when it could not (Slack retries over HTTP). */
export type DoorEventHandler = (input: SlackInput) => Promise<void>;

export function isOperatorMessage(event: SlackMessageEvent, channel: string, ownUserId: string | undefined): boolean {
  if (event.type !== 'message' || event.channel !== channel) return false;
  if (!PERSON_SUBTYPES.has(event.subtype) || event.bot_id !== undefined || !event.user) return false;
  if (event.user === ownUserId) return false;
  return event.thread_ts !== undefined && event.thread_ts !== event.ts;
}

export function createDoorEventHandler(
  options: DoorEventsOptions,
  sink: () => OperatorSink | undefined,
): DoorEventHandler {
  const { channel, files, operators } = options;
  // One thread's messages reach the handoff in the order Slack sent them.
  const order = new SerialByKey();

  const started = (): OperatorSink => {
    const current = sink();
    if (!current) throw new Error("Slack operators' door is not started yet; Slack will send the event again");
    return current;
  };

  const message = async (event: SlackMessageEvent): Promise<void> => {
    if (!options.relays || !isOperatorMessage(event, channel, options.ownUserId())) return;
    const thread = event.thread_ts!;
    const report: OperatorMessage = {
      thread,
      messageId: event.ts,
      operator: await operators.lookup(event.user!),
      text: mrkdwnToMarkdown(event.text ?? '').trim(),
      files: slackAttachments(files, event.files),
      sentAt: tsToMs(event.ts),
    };
    await started().message(report);
  };

  const press = async (payload: SlackBlockActions): Promise<void> => {
    const action = payload.actions[0];
    const kind = action ? actionKindOf(action.action_id) : undefined;
    if (!action || !kind || payload.channel?.id !== channel || !payload.message) return;
    // The card is a thread's root: its ts is the thread's.
    const thread = payload.message.thread_ts ?? payload.message.ts;
    const report: OperatorActionEvent = {
      thread,
      kind,
      operator: await operators.lookup(payload.user.id),
      actionId: `${payload.message.ts}:${action.action_ts}`,
    };
    await started().action(report);
  };

  return async (input) => {
    if (input.kind === 'event' && (input.event.type === 'message' || input.event.type === 'app_mention')) {
      const event = input.event;
      await order.run(event.thread_ts ?? event.ts, () => message(event));
      return;
    }
    if (input.kind === 'action') {
      const payload = input.payload;
      await order.run(payload.message?.thread_ts ?? payload.message?.ts ?? payload.user.id, () => press(payload));
    }
  };
}
