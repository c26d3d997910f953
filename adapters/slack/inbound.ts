/**
 * Slack events, slash commands and button presses → `Inbound`. Which messages are
 * answered: every DM (top level, or a thread of its own), a mention in a channel
 * (answered in its thread), and later messages of a thread the bot answers in
 * (threads.ts). Bots and the bot itself are not; edits and deletions are revisions
 * of a message (revisions.ts), never a new one. A message that shares another carries
 * it as `quoted`.
 */
import type { Inbound, InboundAttachment, PlatformUser, QuotedMessage } from '../../src/contract.js';
import { conversationId, isDirectMessage, tsToMs, type SlackPlace } from './conversation.js';
import type { SlackFile } from './files.js';
import type {
  SlackAgentSessionStoppedEvent,
  SlackAssistantThreadEvent,
  SlackAttachment,
  SlackBlockActions,
  SlackCommandPayload,
  SlackMessageEvent,
} from './events.js';

export type {
  SlackAgentSessionStoppedEvent,
  SlackAssistantThreadEvent,
  SlackBlockActions,
  SlackCommandPayload,
  SlackMessageEvent,
};

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
export const COMMAND_WORDS = ['help', 'start', 'reset', 'human', 'listings', 'stop'] as const;
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

/** Slack's text as written: our mention removed, links unwrapped, &amp; &lt; &gt; decoded. */
function decodedText(text: string, botUserId: string): string {
  return text
    .replaceAll(`<@${botUserId}>`, '')
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** Slack's message text as the user wrote it, on one line: our mention removed, links unwrapped, &amp; &lt; &gt; decoded. */
export function plainText(text: string, botUserId: string): string {
  return decodedText(text, botUserId).replace(/\s+/g, ' ').trim();
}

/**
 * The message shared into this one (`is_share`: Slack's "Share message"; `is_msg_unfurl`: a pasted
 * link to a message, unfurled), as `Inbound.quoted`: its lines kept, from the bot when its author is
 * the bot. Other attachments (link previews, apps' attachments) are no quote.
 */
export function sharedMessageOf(
  attachments: readonly SlackAttachment[] | undefined,
  identity: SlackIdentity,
): QuotedMessage | undefined {
  const shared = attachments?.find((a) => a.is_share === true || a.is_msg_unfurl === true);
  if (!shared) return undefined;
  const text = decodedText(shared.text ?? shared.fallback ?? '', identity.botUserId).trim();
  if (shared.author_id === identity.botUserId || shared.bot_id === identity.botId) return { text, from: 'bot' };
  const author = shared.author_name || shared.author_subname;
  return { text, from: 'user', ...(author ? { author } : {}) };
}

export function isUserMessage(event: SlackMessageEvent, identity: SlackIdentity): boolean {
  if (!USER_MESSAGE_SUBTYPES.has(event.subtype)) return false;
  if (event.bot_id !== undefined || !event.user) return false;
  return event.user !== identity.botUserId;
}

export function mentionsBot(event: SlackMessageEvent, identity: SlackIdentity): boolean {
  return (event.text ?? '').includes(`<@${identity.botUserId}>`);
}

export function userOf(event: SlackMessageEvent, teamId: string | undefined): PlatformUser {
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
  const quoted = sharedMessageOf(event.attachments, context.identity);
  return {
    conversation: { bot: context.bot, platform: 'slack', id: conversationId(place) },
    user: userOf(event, context.teamId),
    // A file's text is its caption, never a command; nor is the comment on a shared message.
    text: dm && attachments.length === 0 && !quoted ? (commandFromWords(text) ?? text) : text,
    attachments,
    isGroup: !dm,
    addressed: true,
    platformMessageId: event.ts,
    sentAt: tsToMs(event.ts),
    ...(quoted ? { quoted } : {}),
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

/**
 * The user pressed the stop button of an agent session (Slack's `agent_session_stopped`): "/stop" in
 * the session's thread. One press per event: its event_ts is the dedupe key.
 */
export function agentSessionStoppedToInbound(event: SlackAgentSessionStoppedEvent, context: InboundContext): Inbound {
  const { channel, thread_ts: threadTs, user } = event;
  return {
    conversation: { bot: context.bot, platform: 'slack', id: conversationId({ channel, threadTs }) },
    user: { id: user, ...(context.teamId ? { team: context.teamId } : {}) },
    text: '/stop',
    attachments: [],
    isGroup: !isDirectMessage(channel),
    addressed: true,
    platformMessageId: `agent-session-stopped:${event.event_ts}`,
    sentAt: tsToMs(event.event_ts),
  };
}
