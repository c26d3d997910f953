/**
 * Payloads as Slack sends them: Events API `event_callback` envelopes (DM
 * messages, mentions, thread replies, file shares, assistant threads),
 * url_verification, block_actions interactivity and slash commands. The fake
 * binds them to its identity and clock (FakeSlack.build); the HTTP forms for
 * interactivity and slash commands come from `interactivityForm` / `slashCommandForm`.
 */
import type { SlackIdentity } from './context.js';

export interface EventCallback<E = SlackEvent> {
  token: string;
  team_id: string;
  api_app_id: string;
  event: E;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: {
    enterprise_id: null;
    team_id: string;
    user_id: string;
    is_bot: true;
    is_enterprise_install: false;
  }[];
  is_ext_shared_channel: false;
  event_context: string;
}

/** The event inside an envelope (fields vary by type, as in Slack). */
export type SlackEvent = { type: string; event_ts: string } & Record<string, unknown>;

/** A user's message or mention, with the fields tests read back. */
export type UserMessageEvent = SlackEvent & {
  ts: string;
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
};

/** assistant_thread_started / assistant_thread_context_changed. */
export type AssistantThreadEvent = SlackEvent & {
  assistant_thread: {
    user_id: string;
    context: { channel_id?: string; team_id?: string; enterprise_id?: null };
    channel_id: string;
    thread_ts: string;
  };
};

/** A file as it appears in `files[]` of a file_share message. */
export interface SlackFileObject {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  subtype?: string;
  url_private: string;
  url_private_download: string;
  mode: 'hosted';
  is_external: false;
}

export interface UserMessageInput {
  channel: string;
  /** The user's id (default 'U0USER0001'). */
  user?: string;
  text: string;
  /** Default: a fresh ts from the fake's clock. */
  ts?: string;
  thread_ts?: string;
}

/** The token field Slack still puts in payloads (a deprecated verification token; Bolt ignores it). */
const VERIFICATION_TOKEN = 'fake-verification-token';
export const DEFAULT_USER = 'U0USER0001';

export class SlackPayloadBuilders {
  private eventCounter = 0;
  private triggerCounter = 0;

  constructor(
    private readonly identity: SlackIdentity,
    private readonly nextTs: () => string,
  ) {}

  /** Wraps an event in the Events API envelope (fresh event_id unless given: reuse one to play a redelivery). */
  envelope<E extends SlackEvent>(event: E, eventId?: string): EventCallback<E> {
    const id = this.identity;
    return {
      token: VERIFICATION_TOKEN,
      team_id: id.teamId,
      api_app_id: id.apiAppId,
      event,
      type: 'event_callback',
      event_id: eventId ?? `Ev${String(++this.eventCounter).padStart(9, '0')}`,
      event_time: Math.floor(Number(event.event_ts)),
      authorizations: [
        { enterprise_id: null, team_id: id.teamId, user_id: id.botUserId, is_bot: true, is_enterprise_install: false },
      ],
      is_ext_shared_channel: false,
      event_context: `4-fake-${id.teamId}`,
    };
  }

  private message(input: UserMessageInput, channelType: string, extra: Record<string, unknown> = {}): UserMessageEvent {
    const ts = input.ts ?? this.nextTs();
    return {
      type: 'message',
      user: input.user ?? DEFAULT_USER,
      text: input.text,
      ts,
      event_ts: ts,
      channel: input.channel,
      channel_type: channelType,
      team: this.identity.teamId,
      client_msg_id: `cm-${ts}`,
      ...(input.thread_ts ? { thread_ts: input.thread_ts, parent_user_id: this.identity.botUserId } : {}),
      ...extra,
    };
  }

  /** A user writes in a DM with the bot (`message.im`); with thread_ts, in a thread of that DM. */
  messageIm(input: UserMessageInput): EventCallback<UserMessageEvent> {
    return this.envelope(this.message(input, 'im'));
  }

  /** A user writes in a channel thread without mentioning the bot (`message.channels`). */
  threadMessage(input: UserMessageInput & { thread_ts: string }): EventCallback<UserMessageEvent> {
    return this.envelope(this.message(input, input.channel.startsWith('G') ? 'group' : 'channel'));
  }

  /** A plain channel message (not addressed to the bot unless it mentions it). */
  channelMessage(input: UserMessageInput): EventCallback<UserMessageEvent> {
    return this.envelope(this.message(input, input.channel.startsWith('G') ? 'group' : 'channel'));
  }

  /** A user mentions the bot in a channel: `text` gets `<@BOT> ` in front unless it already names the bot. */
  appMention(input: UserMessageInput): EventCallback<UserMessageEvent> {
    const ts = input.ts ?? this.nextTs();
    const mention = `<@${this.identity.botUserId}>`;
    const text = input.text.includes(mention) ? input.text : `${mention} ${input.text}`;
    return this.envelope({
      type: 'app_mention',
      user: input.user ?? DEFAULT_USER,
      text,
      ts,
      event_ts: ts,
      channel: input.channel,
      team: this.identity.teamId,
      client_msg_id: `cm-${ts}`,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    });
  }

  /** A user shares files (from FakeSlack.addFile) in a DM or thread. */
  fileShare(
    input: Omit<UserMessageInput, 'text'> & { text?: string; files: SlackFileObject[] },
  ): EventCallback<UserMessageEvent> {
    const channelType = input.channel.startsWith('D') ? 'im' : 'channel';
    return this.envelope(
      this.message({ ...input, text: input.text ?? '' }, channelType, {
        subtype: 'file_share',
        files: input.files,
        upload: false,
        display_as_bot: false,
      }),
    );
  }

  /** Slack's bot messages, edits and deletions, which the gateway must not answer. */
  botMessage(input: UserMessageInput & { bot_id?: string }): EventCallback<UserMessageEvent> {
    return this.envelope(
      this.message(input, input.channel.startsWith('D') ? 'im' : 'channel', {
        subtype: 'bot_message',
        bot_id: input.bot_id ?? 'B0OTHERBOT',
      }),
    );
  }

  messageChanged(input: { channel: string; ts: string; text: string; user?: string }): EventCallback {
    const eventTs = this.nextTs();
    return this.envelope({
      type: 'message',
      subtype: 'message_changed',
      channel: input.channel,
      hidden: true,
      ts: eventTs,
      event_ts: eventTs,
      channel_type: input.channel.startsWith('D') ? 'im' : 'channel',
      message: {
        type: 'message',
        user: input.user ?? DEFAULT_USER,
        text: input.text,
        ts: input.ts,
        edited: { user: input.user ?? DEFAULT_USER, ts: eventTs },
      },
    });
  }

  messageDeleted(input: { channel: string; ts: string }): EventCallback {
    const eventTs = this.nextTs();
    return this.envelope({
      type: 'message',
      subtype: 'message_deleted',
      channel: input.channel,
      hidden: true,
      ts: eventTs,
      event_ts: eventTs,
      deleted_ts: input.ts,
      channel_type: input.channel.startsWith('D') ? 'im' : 'channel',
    });
  }

  /** The user opens the assistant pane: a new assistant thread in their DM with the app. */
  assistantThreadStarted(input: {
    channel: string;
    thread_ts?: string;
    user?: string;
    contextChannel?: string;
  }): EventCallback<AssistantThreadEvent> {
    return this.envelope(this.assistantEvent('assistant_thread_started', input));
  }

  /** The user moves to another channel with the assistant pane open. */
  assistantThreadContextChanged(input: {
    channel: string;
    thread_ts: string;
    user?: string;
    contextChannel?: string;
  }): EventCallback<AssistantThreadEvent> {
    return this.envelope(this.assistantEvent('assistant_thread_context_changed', input));
  }

  private assistantEvent(
    type: string,
    input: { channel: string; thread_ts?: string; user?: string; contextChannel?: string },
  ): AssistantThreadEvent {
    const eventTs = this.nextTs();
    return {
      type,
      assistant_thread: {
        user_id: input.user ?? DEFAULT_USER,
        context: input.contextChannel
          ? { channel_id: input.contextChannel, team_id: this.identity.teamId, enterprise_id: null }
          : {},
        channel_id: input.channel,
        thread_ts: input.thread_ts ?? eventTs,
      },
      event_ts: eventTs,
    };
  }

  urlVerification(challenge = 'fake-challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P'): {
    token: string;
    challenge: string;
    type: 'url_verification';
  } {
    return { token: VERIFICATION_TOKEN, challenge, type: 'url_verification' };
  }

  /** A user presses a Block Kit button under one of the bot's messages. */
  blockActions(input: {
    channel: string;
    messageTs: string;
    thread_ts?: string;
    actionId: string;
    value?: string;
    blockId?: string;
    user?: string;
    text?: string;
  }): Record<string, unknown> {
    const id = this.identity;
    const user = input.user ?? DEFAULT_USER;
    const actionTs = this.nextTs();
    return {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: id.teamId },
      api_app_id: id.apiAppId,
      token: VERIFICATION_TOKEN,
      container: {
        type: 'message',
        message_ts: input.messageTs,
        channel_id: input.channel,
        is_ephemeral: false,
        ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      },
      trigger_id: `trigger-${++this.triggerCounter}`,
      team: { id: id.teamId, domain: id.teamName.toLowerCase() },
      enterprise: null,
      is_enterprise_install: false,
      channel: {
        id: input.channel,
        name: input.channel.startsWith('D') ? 'directmessage' : `channel-${input.channel.toLowerCase()}`,
      },
      message: {
        type: 'message',
        user: id.botUserId,
        bot_id: id.botId,
        text: '',
        ts: input.messageTs,
        ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      },
      state: { values: {} },
      response_url: `https://hooks.slack.com/actions/${id.teamId}/fake/response`,
      actions: [
        {
          action_id: input.actionId,
          block_id: input.blockId ?? 'actions',
          type: 'button',
          action_ts: actionTs,
          text: { type: 'plain_text', text: input.text ?? input.value ?? input.actionId, emoji: true },
          ...(input.value !== undefined ? { value: input.value } : {}),
        },
      ],
    };
  }

  /** A user types a slash command (e.g. `/chatbot reset`); the fields Slack posts, form-encoded over HTTP. */
  slashCommand(input: { command: string; text?: string; channel: string; user?: string }): Record<string, string> {
    const id = this.identity;
    const user = input.user ?? DEFAULT_USER;
    return {
      token: VERIFICATION_TOKEN,
      team_id: id.teamId,
      team_domain: id.teamName.toLowerCase(),
      channel_id: input.channel,
      channel_name: input.channel.startsWith('D') ? 'directmessage' : `channel-${input.channel.toLowerCase()}`,
      user_id: user,
      user_name: user.toLowerCase(),
      command: input.command,
      text: input.text ?? '',
      api_app_id: id.apiAppId,
      is_enterprise_install: 'false',
      response_url: `https://hooks.slack.com/commands/${id.teamId}/fake/response`,
      trigger_id: `trigger-${++this.triggerCounter}`,
    };
  }
}

/** The HTTP body Slack posts for interactivity: one form field `payload` holding the JSON. */
export function interactivityForm(payload: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams({ payload: JSON.stringify(payload) });
}

/** The HTTP body Slack posts for a slash command: the fields, form-encoded. */
export function slashCommandForm(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}
