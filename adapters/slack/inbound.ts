/**
 * Slack events, slash commands and button presses → `Inbound`. Which messages are
 * answered: every DM (top level, or a thread of its own), a mention in a channel
 * (answered in its thread), and later messages of a thread the bot answers in
 * (threads.ts). Bots, the bot itself, edits and deletions are not.
 */
import type { Inbound, InboundAttachment, PlatformUser } from '../../src/contract.js';
import { conversationId, isDirectMessage, tsToMs, type SlackPlace } from './conversation.js';
import type { SlackFile } from './files.js';
import type { SlackAssistantThreadEvent, SlackBlockActions, SlackCommandPayload, SlackMessageEvent } from './events.js';

export type { SlackAssistantThreadEvent, SlackBlockActions, SlackCommandPayload, SlackMessageEvent };

/** Who the bot is on Slack (auth.test), to recognise its own mentions and messages. */
export interface SlackIdentity {
  botUserId: string;
  botId: string;
  teamId?: string;
}

/**
 * Subtypes that are a user's message: plain (none), a file shared with it, a thread reply
 * also sent to the channel. Everything else (message_changed, message_deleted, bot_message,
 * channel_join…) is not a question.
 */
const USER_MESSAGE_SUBTYPES = new Set<string | undefined>([undefined, 'file_share', 'thread_broadcast']);

/**
 * Words a DM user can type instead of a command: Slack takes "/reset" as an unknown slash
 * command, so the same words work as plain text in DMs (and after the `/chatbot` slash command).
 */
export const COMMAND_WORDS = ['help', 'start', 'reset', 'human', 'listings'] as const;
const COMMAND_WORD_PATTERN = new RegExp(`^(${COMMAND_WORDS.join('|')})(?:\\s+([\\s\\S]*))?$`, 'i');

/** "reset" → "/reset", "listings Austin" → "/listings Austin"; anything else unchanged. */
export function commandFromWords(text: string): string | undefined {
  const match = COMMAND_WORD_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const word = match[1]!.toLowerCase();
  const args = (match[2] ?? '').trim();
  // Only /listings takes words after it: "help me find a flat" is a question, not /help.
  if (args && word !== 'listings') return undefined;
  return args ? `/${word} ${args}` : `/${word}`;
}

/** Slack's message text as the user wrote it: our mention removed, links unwrapped, &amp; &lt; &gt; decoded. */
export function plainText(text: string, botUserId: string): string {
  return text
    .replaceAll(`<@${botUserId}>`, '')
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim();
}

export function isUserMessage(event: SlackMessageEvent, identity: SlackIdentity): boolean {
  if (!USER_MESSAGE_SUBTYPES.has(event.subtype)) return false;
  if (event.bot_id !== undefined || !event.user) return false;
  return event.user !== identity.botUserId;
}

export function mentionsBot(event: SlackMessageEvent, identity: SlackIdentity): boolean {
  return (event.text ?? '').includes(`<@${identity.botUserId}>`);
}

function userOf(event: SlackMessageEvent, teamId: string | undefined): PlatformUser {
  const profile = event.user_profile;
  const name = profile?.display_name || profile?.real_name;
  const team = event.team ?? teamId;
  return {
    id: event.user ?? 'unknown',
    ...(name ? { name } : {}),
    ...(profile?.name ? { handle: profile.name } : {}),
    ...(team ? { team } : {}),
  };
}

export interface InboundContext {
  bot: string;
  identity: SlackIdentity;
  /** The event envelope's team_id. */
  teamId?: string;
  /** Turns a message's `files[]` into attachments (files.ts); none when absent. */
  attachments?: (files: SlackFile[] | undefined) => InboundAttachment[];
}

/**
 * A message in `place`. The platform message id is the message's ts: Slack's double
 * delivery of a mention (message + app_mention) and its retries carry the same ts in
 * the same conversation, so the core's dedupe answers it once.
 */
export function messageToInbound(event: SlackMessageEvent, place: SlackPlace, context: InboundContext): Inbound {
  const dm = isDirectMessage(event.channel);
  const text = plainText(event.text ?? '', context.identity.botUserId);
  const attachments = context.attachments?.(event.files) ?? [];
  return {
    conversation: { bot: context.bot, platform: 'slack', id: conversationId(place) },
    user: userOf(event, context.teamId),
    // A file's text is its caption, never a command.
    text: dm && attachments.length === 0 ? (commandFromWords(text) ?? text) : text,
    attachments,
    isGroup: !dm,
    addressed: true,
    platformMessageId: event.ts,
    sentAt: tsToMs(event.ts),
  };
}

/**
 * `/chatbot reset` → "/reset"; `/chatbot` alone → "/help"; `/chatbot <question>` → the question.
 * Answered where it was typed: the DM, or the channel's top level.
 */
export function commandToInbound(command: SlackCommandPayload, context: InboundContext): Inbound {
  const words = command.text.trim();
  const text = words === '' ? '/help' : (commandFromWords(words) ?? words);
  return {
    conversation: { bot: context.bot, platform: 'slack', id: command.channel_id },
    user: {
      id: command.user_id,
      ...(command.user_name ? { handle: command.user_name } : {}),
      ...(command.team_id ? { team: command.team_id } : {}),
    },
    text,
    attachments: [],
    isGroup: !isDirectMessage(command.channel_id),
    addressed: true,
    // A slash command has no message ts; its trigger_id is unique per invocation.
    platformMessageId: `command:${command.trigger_id}`,
    sentAt: Date.now(),
  };
}

/** A button press, in the conversation of the message it hangs under. */
export function actionToInbound(body: SlackBlockActions, context: InboundContext): Inbound | undefined {
  const action = body.actions[0];
  const channel = body.channel?.id;
  if (!action || action.value === undefined || !channel || !body.message) return undefined;
  const threadTs = body.message.thread_ts;
  const team = body.user.team_id ?? body.team?.id ?? context.teamId;
  const handle = body.user.username ?? body.user.name;
  return {
    conversation: {
      bot: context.bot,
      platform: 'slack',
      id: conversationId(threadTs ? { channel, threadTs } : { channel }),
    },
    user: { id: body.user.id, ...(handle ? { handle } : {}), ...(team ? { team } : {}) },
    text: action.text?.text ?? action.value,
    attachments: [],
    isGroup: !isDirectMessage(channel),
    addressed: true,
    platformMessageId: `action:${action.action_ts}`,
    sentAt: tsToMs(action.action_ts),
    action: { id: action.action_id, value: action.value },
  };
}

/**
 * The user opened the assistant pane: the thread is greeted as /start greets a new chat
 * (the core's WelcomeMessage). One start per thread: its ts is the dedupe key.
 */
export function assistantThreadToInbound(event: SlackAssistantThreadEvent, context: InboundContext): Inbound {
  const { user_id: user, channel_id: channel, thread_ts: threadTs } = event.assistant_thread;
  return {
    conversation: { bot: context.bot, platform: 'slack', id: conversationId({ channel, threadTs }) },
    user: { id: user, ...(context.teamId ? { team: context.teamId } : {}) },
    text: '/start',
    attachments: [],
    isGroup: false,
    addressed: true,
    platformMessageId: `assistant-thread:${threadTs}`,
    sentAt: tsToMs(event.event_ts),
  };
}
