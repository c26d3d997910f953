/**
 * People working in a channel with the app (operators): what they write, in a thread or at
 * the top level, with files, and the buttons of the bot's messages they press. Each is kept
 * in the world (a thread reads back as the channel shows it) and returned as the payload
 * Slack sends the app, for the test to deliver over HTTP or Socket Mode.
 */
import type { EventCallback, SlackFileObject, SlackPayloadBuilders, UserMessageEvent } from './builders.js';
import { DEFAULT_USER } from './builders.js';
import type { SlackIdentity } from './context.js';
import type { World } from './world.js';

export interface HumanMessageInput {
  channel: string;
  /** Default DEFAULT_USER. */
  user?: string;
  text: string;
  /** A reply in this thread; absent: a message at the channel's top level. */
  thread_ts?: string;
  /** Files from FakeSlack.addFile: the message becomes a `file_share`. */
  files?: SlackFileObject[];
  /** Default: a fresh ts from the fake's clock. */
  ts?: string;
}

export interface HumanPressInput {
  channel: string;
  /** The ts of the bot's message that holds the button. */
  messageTs: string;
  actionId: string;
  /** Default DEFAULT_USER. */
  user?: string;
}

interface ButtonElement {
  type?: string;
  action_id?: string;
  value?: string;
  text?: { text?: string };
}

export class PeopleInChannels {
  constructor(
    private readonly world: World,
    private readonly identity: SlackIdentity,
    private readonly build: SlackPayloadBuilders,
  ) {}

  writes(input: HumanMessageInput): EventCallback<UserMessageEvent> {
    const ts = input.ts ?? this.world.nextTs();
    const user = input.user ?? DEFAULT_USER;
    this.world.humanMessages.push({
      ts,
      channel: input.channel,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      user,
      text: input.text,
      ...(input.files ? { files: input.files.map(({ id, name }) => ({ id, name })) } : {}),
    });
    this.world.changed();
    const event: UserMessageEvent = {
      type: 'message',
      user,
      text: input.text,
      ts,
      event_ts: ts,
      channel: input.channel,
      channel_type: input.channel.startsWith('G') ? 'group' : 'channel',
      team: this.identity.teamId,
      client_msg_id: `cm-${ts}`,
      ...(input.thread_ts ? { thread_ts: input.thread_ts, parent_user_id: this.authorOf(input) } : {}),
      ...(input.files?.length
        ? { subtype: 'file_share', files: input.files, upload: false, display_as_bot: false }
        : {}),
    };
    return this.build.envelope(event);
  }

  presses(input: HumanPressInput): Record<string, unknown> {
    const message = this.world.message(input.channel, input.messageTs);
    const button = (message?.blocks ?? [])
      .flatMap((block) => ((block as { elements?: ButtonElement[] }).elements ?? []) as ButtonElement[])
      .find((element) => element.type === 'button' && element.action_id === input.actionId);
    if (!message || !button)
      throw new Error(
        `fake Slack: no button ${input.actionId} on the bot's message ${input.messageTs} in ${input.channel}`,
      );
    return this.build.blockActions({
      channel: input.channel,
      messageTs: input.messageTs,
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      actionId: input.actionId,
      ...(button.value !== undefined ? { value: button.value } : {}),
      ...(button.text?.text !== undefined ? { text: button.text.text } : {}),
      user: input.user ?? DEFAULT_USER,
    });
  }

  /** Who wrote a thread's root (Slack's `parent_user_id`). */
  private authorOf(input: HumanMessageInput): string {
    const root = input.thread_ts!;
    if (this.world.message(input.channel, root)) return this.identity.botUserId;
    return (
      this.world.humanMessages.find((m) => m.channel === input.channel && m.ts === root)?.user ??
      this.identity.botUserId
    );
  }
}
