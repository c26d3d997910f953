/**
 * Answers on Slack through the Web API: chat.postMessage and chat.update (mrkdwn in
 * one section block, buttons in an actions block), the native stream
 * (chat.startStream / appendStream / stopStream, standard Markdown) in threads, and
 * assistant.threads.setStatus as "typing" in assistant threads, and an operator's files
 * (upload v2, upload.ts). Every refusal is a
 * PlatformError (errors.ts).
 */
import type { WebClient } from '@slack/web-api';
import type {
  Button,
  ConversationRef,
  NativeStream,
  Outbound,
  OutboundFile,
  OutboundMessage,
  PlatformUser,
  SentMessage,
} from '../../src/contract.js';
import { describeSent, PlatformError } from '../../src/contract.js';
import type { AssistantPane } from './assistant.js';
import { isDirectMessage, parseConversationId } from './conversation.js';
import { slackCall } from './errors.js';
import { uploadFile } from './upload.js';

/** Block Kit: a button's text holds at most 75 characters. */
const BUTTON_LABEL_MAX = 75;
/** What assistant.threads.setStatus shows under the thread while the answer is awaited. */
export const THINKING_STATUS = 'is thinking…';
/** action_id of our buttons: `<prefix><index>`; the Bolt listener matches it (index.ts). */
export const BUTTON_ACTION_PREFIX = 'chatbridge_button_';

// Block Kit objects, as plain JSON (web-api's types accept them as KnownBlock).
interface SectionBlock {
  type: 'section';
  text: { type: 'mrkdwn'; text: string };
}
interface ActionsBlock {
  type: 'actions';
  elements: { type: 'button'; action_id: string; text: { type: 'plain_text'; text: string }; value: string }[];
}

export function messageBlocks(text: string, buttons?: Button[]): (SectionBlock | ActionsBlock)[] {
  const blocks: (SectionBlock | ActionsBlock)[] = [];
  if (text.trim() !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text } });
  if (buttons?.length) {
    blocks.push({
      type: 'actions',
      elements: buttons.map((button, index) => ({
        type: 'button',
        action_id: `${BUTTON_ACTION_PREFIX}${index}`,
        text: { type: 'plain_text', text: button.label.slice(0, BUTTON_LABEL_MAX) },
        value: button.value,
      })),
    });
  }
  return blocks;
}

function place(conversation: ConversationRef): { channel: string; thread_ts?: string } {
  const { channel, threadTs } = parseConversationId(conversation.id);
  return threadTs ? { channel, thread_ts: threadTs } : { channel };
}

export class SlackOutbound implements Outbound {
  /** `assistant`: offers a reply's suggestions as prompts in assistant threads (absent: suggestions are not shown). */
  constructor(
    private readonly client: WebClient,
    private readonly assistant?: AssistantPane,
  ) {}

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    const result = await slackCall(
      'chat.postMessage',
      () =>
        this.client.chat.postMessage({
          ...place(conversation),
          // `text` is what notifications show; the blocks are what the message shows.
          text: message.text,
          blocks: messageBlocks(message.text, message.buttons),
          unfurl_links: false,
          unfurl_media: false,
        }),
      describeSent({ to: conversation.id, text: message.text, buttons: message.buttons?.length }),
    );
    if (!result.ts)
      throw new PlatformError('Slack chat.postMessage answered without a ts', 'other', undefined, {
        method: 'chat.postMessage',
      });
    // Slack has no reply keyboard; in the assistant pane the suggestions become its prompts.
    if (message.suggestions?.length) await this.assistant?.offerPrompts(conversation.id, message.suggestions);
    return { id: result.ts };
  }

  /** Upload v2 into the conversation's channel (its thread, where it is one), the caption as the file's comment. */
  async sendFile(conversation: ConversationRef, file: OutboundFile): Promise<SentMessage> {
    const { channel, thread_ts: threadTs } = place(conversation);
    const id = await uploadFile(this.client, {
      bytes: file.bytes,
      fileName: file.fileName,
      channel,
      ...(threadTs ? { threadTs } : {}),
      ...(file.caption ? { comment: file.caption } : {}),
    });
    return { id };
  }

  async edit(
    conversation: ConversationRef,
    message: SentMessage,
    text: string,
    options?: { buttons?: Button[] },
  ): Promise<void> {
    const { channel } = place(conversation);
    await slackCall(
      'chat.update',
      () => this.client.chat.update({ channel, ts: message.id, text, blocks: messageBlocks(text, options?.buttons) }),
      describeSent({ to: channel, message: message.id, text, buttons: options?.buttons?.length }),
    );
  }

  /** Only in a thread: chat.startStream needs a thread_ts (a reply to a user's request). */
  async startStream(conversation: ConversationRef, recipient: PlatformUser, markdown: string): Promise<NativeStream> {
    const { channel, thread_ts: threadTs } = place(conversation);
    if (!threadTs)
      throw new PlatformError(
        'Slack streams only in a thread (chat.startStream needs thread_ts)',
        'unsupported',
        undefined,
        {
          method: 'chat.startStream',
        },
      );
    // Outside a DM Slack needs to know whom the stream answers.
    const recipientFields = isDirectMessage(channel)
      ? {}
      : { recipient_user_id: recipient.id, ...(recipient.team ? { recipient_team_id: recipient.team } : {}) };
    const started = await slackCall(
      'chat.startStream',
      () =>
        this.client.chat.startStream({
          channel,
          thread_ts: threadTs,
          ...recipientFields,
          ...(markdown ? { markdown_text: markdown } : {}),
        }),
      describeSent({ to: conversation.id, text: markdown }),
    );
    const ts = started.ts;
    if (!ts)
      throw new PlatformError('Slack chat.startStream answered without a ts', 'unsupported', undefined, {
        method: 'chat.startStream',
      });
    const client = this.client;
    return {
      id: ts,
      async append(text) {
        if (text === '') return;
        await slackCall(
          'chat.appendStream',
          () => client.chat.appendStream({ channel, ts, markdown_text: text }),
          describeSent({ to: channel, message: ts, text }),
        );
      },
      async stop(text) {
        await slackCall(
          'chat.stopStream',
          () => client.chat.stopStream({ channel, ts, ...(text ? { markdown_text: text } : {}) }),
          describeSent({ to: channel, message: ts, text }),
        );
      },
    };
  }

  /**
   * Ends a stream by its ts, from any process (chat.stopStream needs only the channel and the ts):
   * closes one a crashed process left open. Slack refuses a stream no longer open
   * (`message_not_in_streaming_state`: 'not-editable').
   */
  async stopStream(conversation: ConversationRef, streamId: string, markdown: string): Promise<void> {
    const { channel } = place(conversation);
    await slackCall(
      'chat.stopStream',
      () => this.client.chat.stopStream({ channel, ts: streamId, ...(markdown ? { markdown_text: markdown } : {}) }),
      describeSent({ to: channel, message: streamId, text: markdown }),
    );
  }

  /** Only in assistant threads (a DM thread): setStatus shows "is thinking…" under it. */
  async typing(conversation: ConversationRef): Promise<void> {
    const { channel, thread_ts: threadTs } = place(conversation);
    if (!threadTs) return;
    await slackCall(
      'assistant.threads.setStatus',
      () =>
        this.client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status: THINKING_STATUS }),
      describeSent({ to: channel, message: threadTs }),
    );
  }
}

/**
 * The methods that apply in one conversation: native streaming needs a thread; the
 * status line exists only in assistant threads (DM threads). A DM's top level and a
 * channel's top level stream by edits.
 */
export function outboundForConversation(outbound: SlackOutbound, conversation: ConversationRef): Outbound {
  const { channel, threadTs } = parseConversationId(conversation.id);
  const base: Outbound = {
    send: (c, m) => outbound.send(c, m),
    sendFile: (c, f) => outbound.sendFile(c, f),
    edit: (c, m, t, o) => outbound.edit(c, m, t, o),
  };
  if (!threadTs) return base;
  const streaming: Outbound = {
    ...base,
    startStream: (c, r, m) => outbound.startStream(c, r, m),
    stopStream: (c, id, m) => outbound.stopStream(c, id, m),
  };
  return isDirectMessage(channel) ? { ...streaming, typing: (c) => outbound.typing(c) } : streaming;
}
