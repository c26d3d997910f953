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

/** A message someone shares (Slack's "Share message") or links to: what its attachment shows of it. */
export interface SharedMessage {
  channel: string;
  ts: string;
  text: string;
  /** Its author's user id: a person's, or the bot user's for one of the bot's messages. */
  user: string;
  /** A person's shown name (Slack's author_name); absent: the id. */
  author_name?: string;
  /** Set on a bot's message, as Slack sets it. */
  bot_id?: string;
}

/** A change to a message a user sent before: `original` is the event it arrived as (from messageIm, threadMessage…). */
export type MessageChangeInput =
  | {
      original: UserMessageEvent;
      /** The text as edited; absent: unchanged. */
      text?: string;
      /** A message link in it unfurled by Slack (is_msg_unfurl), as Slack adds it after posting. */
      unfurled?: SharedMessage;
    }
  /** Without the original: only its place, author and new text (Slack sends no previous_message then). */
  | { channel: string; ts: string; text: string; user?: string };

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

  /**
   * A message changed (`message_changed`): edited by its author (`edited` set), or a message link in it
   * unfurled by Slack (an attachment added, no `edited`). The event's own ts is the change's; the
   * message keeps its ts, and `previous_message` is the message as it was.
   */
  messageChanged(input: MessageChangeInput): EventCallback {
    const eventTs = this.nextTs();
    if (!('original' in input)) {
      return this.envelope({
        ...this.changeOf(input.channel, channelTypeOf(input.channel), eventTs),
        subtype: 'message_changed',
        message: {
          type: 'message',
          user: input.user ?? DEFAULT_USER,
          text: input.text,
          ts: input.ts,
          edited: { user: input.user ?? DEFAULT_USER, ts: eventTs },
        },
      });
    }
    const before = storedMessage(input.original);
    const edited = input.text !== undefined && input.text !== input.original.text;
    const attachments = [
      ...((before.attachments as unknown[] | undefined) ?? []),
      ...(input.unfurled ? [this.sharedAttachment(input.unfurled, { share: false })] : []),
    ];
    return this.envelope({
      ...this.changeOf(input.original.channel, channelTypeOfEvent(input.original), eventTs),
      subtype: 'message_changed',
      message: {
        ...before,
        ...(edited ? { text: input.text, edited: { user: input.original.user, ts: eventTs } } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
      },
      previous_message: before,
    });
  }

  /** A user deletes a message (`message_deleted`): its ts in `deleted_ts`, the message as it was in `previous_message`. */
  messageDeleted(input: { original: UserMessageEvent } | { channel: string; ts: string }): EventCallback {
    const eventTs = this.nextTs();
    if (!('original' in input)) {
      return this.envelope({
        ...this.changeOf(input.channel, channelTypeOf(input.channel), eventTs),
        subtype: 'message_deleted',
        deleted_ts: input.ts,
      });
    }
    return this.envelope({
      ...this.changeOf(input.original.channel, channelTypeOfEvent(input.original), eventTs),
      subtype: 'message_deleted',
      deleted_ts: input.original.ts,
      previous_message: storedMessage(input.original),
    });
  }

  /** What every change to a message carries: its channel, and its own ts (the change's, not the message's). */
  private changeOf(channel: string, channelType: string, eventTs: string): SlackEvent {
    return { type: 'message', channel, hidden: true, ts: eventTs, event_ts: eventTs, channel_type: channelType };
  }

  /**
   * A user shares a message into a DM or channel (Slack's "Share message"), with a comment in `text`
   * ('' for none): a message whose attachment holds the shared one (`is_share`, `is_msg_unfurl`).
   */
  messageShare(input: UserMessageInput & { shared: SharedMessage }): EventCallback<UserMessageEvent> {
    return this.envelope(
      this.message(input, channelTypeOf(input.channel), {
        attachments: [this.sharedAttachment(input.shared, { share: true })],
      }),
    );
  }

  /** The attachment Slack shows for a shared or linked message: its text, author, where it was posted. */
  private sharedAttachment(shared: SharedMessage, how: { share: boolean }): Record<string, unknown> {
    const id = this.identity;
    const link = `https://${id.teamName.toLowerCase()}.slack.com/archives/${shared.channel}/p${shared.ts.replace('.', '')}`;
    const author = shared.bot_id ? 'chatbridge' : (shared.author_name ?? shared.user);
    return {
      ts: shared.ts,
      channel_id: shared.channel,
      channel_team: id.teamId,
      ...(shared.channel.startsWith('D') ? {} : { channel_name: `channel-${shared.channel.toLowerCase()}` }),
      is_msg_unfurl: true,
      ...(how.share ? { is_share: true } : {}),
      id: 1,
      original_url: link,
      from_url: link,
      fallback: `[${shared.ts}] ${author}: ${shared.text}`,
      text: shared.text,
      author_id: shared.user,
      author_name: author,
      author_subname: author,
      author_link: `https://${id.teamName.toLowerCase()}.slack.com/team/${shared.user}`,
      ...(shared.bot_id ? { bot_id: shared.bot_id } : {}),
      mrkdwn_in: ['text'],
      color: 'D0D0D0',
      footer: shared.channel.startsWith('D') ? 'Direct message' : `Posted in #channel-${shared.channel.toLowerCase()}`,
    };
  }

  /**
   * The user presses the stop button of an agent session in a thread (`agent_session_stopped`);
   * `streaming` lists the bot's streams Slack stopped ([] when none was open).
   */
  agentSessionStopped(input: {
    channel: string;
    thread_ts: string;
    user?: string;
    streaming?: string[];
  }): EventCallback {
    const eventTs = this.nextTs();
    return this.envelope({
      type: 'agent_session_stopped',
      channel: input.channel,
      user: input.user ?? DEFAULT_USER,
      thread_ts: input.thread_ts,
      streaming_message_ts: input.streaming ?? [],
      event_ts: eventTs,
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

/** im for D… ids, group for G…, channel for the rest, as Slack's `channel_type` says. */
function channelTypeOf(channel: string): string {
  return channel.startsWith('D') ? 'im' : channel.startsWith('G') ? 'group' : 'channel';
}

/** The channel_type a message event came with (an app_mention has none: its channel says). */
function channelTypeOfEvent(event: UserMessageEvent): string {
  return typeof event.channel_type === 'string' ? event.channel_type : channelTypeOf(event.channel);
}

/** A message as Slack keeps it and repeats it in a change: the event it arrived as, without the event's own fields. */
function storedMessage(event: UserMessageEvent): Record<string, unknown> {
  const { event_ts: _eventTs, channel: _channel, channel_type: _channelType, ...message } = event;
  return { ...message, type: 'message' };
}
