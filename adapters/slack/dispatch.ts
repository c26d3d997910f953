/**
 * What one understood request from Slack asks of the bot (events.ts has parsed it), in
 * either mode: which messages become an `Inbound` for the core (inbound.ts decides what is
 * a user's message; threads.ts whether a channel thread is the bot's), which edits and
 * deletions revise one (revisions.ts), and the assistant pane's extras. Resolves once what was for the bot is queued; rejects only when queuing
 * failed (over HTTP the request then answers 500 and Slack sends it again).
 *
 * One channel's requests are handled one at a time, in the order they came: a thread reply
 * first asks Slack whose thread it is (threads.ts), and a later message must not reach the
 * core before it meanwhile.
 */
import type { Inbound, InboundRevision, SerialByKey } from '../../src/contract.js';
import type { AssistantPane } from './assistant.js';
import type { SlackInput } from './events.js';
import { slackAttachments, type SlackFileSource } from './files.js';
import {
  actionToInbound,
  agentSessionStoppedToInbound,
  assistantThreadToInbound,
  commandToInbound,
  isUserMessage,
  mentionsBot,
  messageToInbound,
  type InboundContext,
  type SlackIdentity,
  type SlackMessageEvent,
} from './inbound.js';
import { BUTTON_ACTION_PREFIX } from './outbound.js';
import { deleteToRevision, editToRevision } from './revisions.js';
import type { ThreadMemory } from './threads.js';

export interface SlackDispatchOptions {
  bot: string;
  files: SlackFileSource;
  threads: ThreadMemory;
  assistant: AssistantPane;
  /** Hands a message to the core; resolves once it is queued. */
  deliver(inbound: Inbound): Promise<void>;
  /** Hands an edit or deletion of a message to the core; resolves once it is applied (or found too late). */
  revise(revision: InboundRevision): Promise<void>;
  /** Where one channel's requests wait for the ones before them (the adapter's stop() waits for it to be idle). */
  order: SerialByKey;
}

export type SlackDispatch = (input: SlackInput, identity: SlackIdentity) => Promise<void>;

/** The channel a request comes from (an action without one: its user's); one channel's requests keep their order. */
export function channelOf(input: SlackInput): string {
  switch (input.kind) {
    case 'event':
      return input.event.type === 'assistant_thread_started'
        ? input.event.assistant_thread.channel_id
        : input.event.channel;
    case 'command':
      return input.command.channel_id;
    case 'action':
      return input.payload.channel?.id ?? `user:${input.payload.user.id}`;
  }
}

export function createSlackDispatch(options: SlackDispatchOptions): SlackDispatch {
  const { bot, files, threads, assistant, deliver, revise, order } = options;
  const context = (identity: SlackIdentity, teamId: string | undefined): InboundContext => ({
    bot,
    identity,
    ...(teamId ? { teamId } : {}),
    attachments: (shared) => slackAttachments(files, shared),
  });

  const message = async (
    event: SlackMessageEvent,
    identity: SlackIdentity,
    teamId: string | undefined,
  ): Promise<void> => {
    // In the channel's order with its messages (order.run below), so a change never overtakes what it changes.
    if (event.subtype === 'message_changed' || event.subtype === 'message_deleted') {
      const changed = event.subtype === 'message_changed' ? editToRevision : deleteToRevision;
      const revision = await changed(event, context(identity, teamId), threads);
      if (revision) await revise(revision);
      return;
    }
    if (!isUserMessage(event, identity)) return;
    if (event.channel_type === 'im') {
      // A DM: its top level is one conversation, each thread (the assistant pane's too) another.
      const inbound = messageToInbound(
        event,
        { channel: event.channel, ...(event.thread_ts ? { threadTs: event.thread_ts } : {}) },
        context(identity, teamId),
      );
      await deliver(inbound);
      // After the message is queued, so the ack never waits for it; only DM threads are titled.
      void assistant.titleFromQuestion(inbound.conversation.id, inbound.text);
      return;
    }
    // In a channel: a mention comes again as app_mention (answered there); a thread reply
    // is answered without one when the bot answers in that thread.
    if (mentionsBot(event, identity) || !event.thread_ts) return;
    if (!(await threads.isOurs(event.channel, event.thread_ts, identity))) return;
    await deliver(
      messageToInbound(event, { channel: event.channel, threadTs: event.thread_ts }, context(identity, teamId)),
    );
  };

  const mention = async (
    event: SlackMessageEvent,
    identity: SlackIdentity,
    teamId: string | undefined,
  ): Promise<void> => {
    if (!isUserMessage({ ...event, subtype: undefined }, identity)) return;
    // Always answered in a thread: the one it was written in, or the one it starts.
    const threadTs = event.thread_ts ?? event.ts;
    threads.remember(event.channel, threadTs);
    await deliver(messageToInbound(event, { channel: event.channel, threadTs }, context(identity, teamId)));
  };

  const handle: SlackDispatch = async (input, identity) => {
    switch (input.kind) {
      case 'event': {
        const { event, teamId } = input;
        if (event.type === 'assistant_thread_started')
          return deliver(assistantThreadToInbound(event, context(identity, teamId)));
        if (event.type === 'agent_session_stopped')
          return deliver(agentSessionStoppedToInbound(event, context(identity, teamId)));
        return event.type === 'app_mention' ? mention(event, identity, teamId) : message(event, identity, teamId);
      }
      case 'command':
        return deliver(commandToInbound(input.command, context(identity, input.command.team_id)));
      case 'action': {
        // Only our own buttons (outbound.ts names them); Bolt matched the first action too.
        if (!input.payload.actions[0]?.action_id.startsWith(BUTTON_ACTION_PREFIX)) return;
        const inbound = actionToInbound(input.payload, context(identity, undefined));
        if (inbound) await deliver(inbound);
        return;
      }
    }
  };

  return (input, identity) => order.run(channelOf(input), () => handle(input, identity));
}
