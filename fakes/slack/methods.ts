/**
 * The Web API methods the fake implements, each checking what Slack checks
 * and changing the world as the user would see it.
 */
import {
  MAX_BLOCKS,
  MAX_STREAM_MARKDOWN,
  MAX_SUGGESTED_PROMPTS,
  MAX_TEXT_LENGTH,
  SlackApiError,
  type MethodContext,
  type MethodHandler,
  type MethodParams,
} from './context.js';
import type { VisibleMessage } from './world.js';
import { channelMethods } from './channel-methods.js';
import type { MethodEntry } from './context.js';

export type { MethodEntry } from './context.js';
import { conversationOf, joinedConversation, required, str } from './params.js';

function blocksOf(params: MethodParams): unknown[] | undefined {
  const blocks = params.blocks;
  if (blocks === undefined) return undefined;
  if (!Array.isArray(blocks)) throw new SlackApiError('invalid_blocks_format');
  if (blocks.length > MAX_BLOCKS)
    throw new SlackApiError('invalid_blocks', {
      response_metadata: { messages: [`[ERROR] must be no more than ${MAX_BLOCKS} items [json-pointer:/blocks]`] },
    });
  return blocks;
}

function checkedText(params: MethodParams): string | undefined {
  const text = str(params, 'text');
  if (text !== undefined && text.length > MAX_TEXT_LENGTH) throw new SlackApiError('msg_too_long');
  return text;
}

function existing(ctx: MethodContext, channel: string, ts: string): VisibleMessage {
  const message = ctx.world.message(channel, ts);
  if (!message) throw new SlackApiError('message_not_found');
  return message;
}

/** The text a streaming call adds: `markdown_text`, or the `markdown_text` chunks of `chunks` (other chunks kept aside). */
function streamedText(params: MethodParams): { text: string; otherChunks: unknown[] } {
  const markdown = str(params, 'markdown_text');
  const chunks = params.chunks;
  if (markdown !== undefined && chunks !== undefined)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] markdown_text and chunks are mutually exclusive'] },
    });
  let text = markdown ?? '';
  const otherChunks: unknown[] = [];
  if (chunks !== undefined) {
    if (!Array.isArray(chunks)) throw new SlackApiError('invalid_chunks');
    for (const chunk of chunks as unknown[]) {
      const c = chunk as { type?: unknown; text?: unknown };
      if (c?.type === 'markdown_text' && typeof c.text === 'string') text += c.text;
      else otherChunks.push(chunk);
    }
  }
  if (text.length > MAX_STREAM_MARKDOWN) throw new SlackApiError('msg_too_long');
  return { text, otherChunks };
}

function checkStreamingAllowed(ctx: MethodContext): void {
  if (ctx.streaming !== 'supported') throw new SlackApiError(ctx.streaming);
}

function streamingMessage(ctx: MethodContext, params: MethodParams): VisibleMessage {
  const channel = required(params, 'channel', 'channel_not_found');
  conversationOf(ctx, channel);
  const message = existing(ctx, channel, required(params, 'ts', 'message_not_found'));
  if (message.state !== 'streaming') throw new SlackApiError('message_not_in_streaming_state');
  return message;
}

const authTest: MethodHandler = (ctx) => ({
  body: {
    url: `https://${ctx.identity.teamName.toLowerCase()}.slack.com/`,
    team: ctx.identity.teamName,
    user: 'chatbridge',
    team_id: ctx.identity.teamId,
    user_id: ctx.identity.botUserId,
    bot_id: ctx.identity.botId,
    is_enterprise_install: false,
  },
  headers: { 'x-oauth-scopes': ctx.scopes.join(',') },
});

const postMessage: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel', 'channel_not_found');
  joinedConversation(ctx, channel);
  const text = checkedText(params);
  const blocks = blocksOf(params);
  if (text === undefined && !blocks?.length) throw new SlackApiError('no_text');
  const threadTs = str(params, 'thread_ts');
  if (threadTs !== undefined && !/^\d+\.\d+$/.test(threadTs)) throw new SlackApiError('invalid_thread_ts');
  const ts = ctx.world.nextTs();
  const message: VisibleMessage = {
    ts,
    channel,
    thread_ts: threadTs,
    text: text ?? '',
    blocks,
    sentWith: 'chat.postMessage',
    edits: 0,
    state: 'done',
    otherChunks: [],
    format: 'mrkdwn',
    ...(params.metadata !== undefined ? { metadata: params.metadata } : {}),
  };
  ctx.world.storeMessage(message);
  return {
    body: {
      channel,
      ts,
      message: {
        type: 'message',
        text: message.text,
        user: ctx.identity.botUserId,
        bot_id: ctx.identity.botId,
        ts,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        ...(blocks ? { blocks } : {}),
      },
    },
  };
};

const update: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel', 'channel_not_found');
  joinedConversation(ctx, channel);
  const message = existing(ctx, channel, required(params, 'ts', 'message_not_found'));
  if (message.state === 'streaming') throw new SlackApiError('cant_update_message');
  const text = checkedText(params);
  const blocks = blocksOf(params);
  if (text === undefined && blocks === undefined) throw new SlackApiError('no_text');
  if (text !== undefined) message.text = text;
  if (blocks !== undefined) message.blocks = blocks;
  if (params.metadata !== undefined) message.metadata = params.metadata;
  message.edits++;
  message.format = 'mrkdwn';
  ctx.world.storeMessage(message);
  return {
    body: {
      channel,
      ts: message.ts,
      text: message.text,
      message: { text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) },
    },
  };
};

const startStream: MethodHandler = (ctx, params) => {
  checkStreamingAllowed(ctx);
  const channel = required(params, 'channel', 'channel_not_found');
  const conversation = conversationOf(ctx, channel);
  const threadTs = required(params, 'thread_ts');
  const recipientUser = str(params, 'recipient_user_id');
  const recipientTeam = str(params, 'recipient_team_id');
  // Outside DMs Slack must know whom the stream answers (docs/platforms.md §B.7).
  if (!conversation.is_im && recipientUser === undefined) throw new SlackApiError('missing_recipient_user_id');
  if (!conversation.is_im && recipientTeam === undefined) throw new SlackApiError('missing_recipient_team_id');
  const { text, otherChunks } = streamedText(params);
  const ts = ctx.world.nextTs();
  ctx.world.storeMessage({
    ts,
    channel,
    thread_ts: threadTs,
    text,
    sentWith: 'chat.startStream',
    edits: 0,
    state: 'streaming',
    otherChunks,
    format: 'markdown',
    recipient_user_id: recipientUser,
    recipient_team_id: recipientTeam,
  });
  return { body: { channel, ts } };
};

const appendStream: MethodHandler = (ctx, params) => {
  checkStreamingAllowed(ctx);
  const message = streamingMessage(ctx, params);
  const { text, otherChunks } = streamedText(params);
  if (text === '' && otherChunks.length === 0)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] markdown_text or chunks is required'] },
    });
  message.text += text;
  message.otherChunks.push(...otherChunks);
  message.edits++;
  ctx.world.storeMessage(message);
  return { body: { channel: message.channel, ts: message.ts } };
};

const stopStream: MethodHandler = (ctx, params) => {
  checkStreamingAllowed(ctx);
  const message = streamingMessage(ctx, params);
  const { text, otherChunks } = streamedText(params);
  const blocks = blocksOf(params);
  message.text += text;
  message.otherChunks.push(...otherChunks);
  if (blocks !== undefined) message.blocks = blocks;
  message.state = 'done';
  message.edits++;
  ctx.world.storeMessage(message);
  return { body: { channel: message.channel, ts: message.ts, message: { text: message.text, ts: message.ts } } };
};

const setStatus: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel_id', 'channel_not_found');
  conversationOf(ctx, channel);
  const status = params.status;
  if (typeof status !== 'string') throw new SlackApiError('invalid_arguments');
  ctx.world.assistantCalls.push({
    method: 'assistant.threads.setStatus',
    channel_id: channel,
    thread_ts: required(params, 'thread_ts'),
    status,
    at: ctx.world.now(),
  });
  ctx.world.changed();
  return { body: {} };
};

const setSuggestedPrompts: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel_id', 'channel_not_found');
  conversationOf(ctx, channel);
  const prompts = params.prompts;
  if (!Array.isArray(prompts) || prompts.length === 0) throw new SlackApiError('invalid_arguments');
  if (prompts.length > MAX_SUGGESTED_PROMPTS)
    throw new SlackApiError('invalid_arguments', {
      response_metadata: {
        messages: [`[ERROR] no more than ${MAX_SUGGESTED_PROMPTS} items allowed [json-pointer:/prompts]`],
      },
    });
  ctx.world.assistantCalls.push({
    method: 'assistant.threads.setSuggestedPrompts',
    channel_id: channel,
    thread_ts: str(params, 'thread_ts'),
    prompts: prompts as { title: string; message: string }[],
    title: str(params, 'title'),
    at: ctx.world.now(),
  });
  ctx.world.changed();
  return { body: {} };
};

const setTitle: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel_id', 'channel_not_found');
  conversationOf(ctx, channel);
  ctx.world.assistantCalls.push({
    method: 'assistant.threads.setTitle',
    channel_id: channel,
    thread_ts: required(params, 'thread_ts'),
    title: required(params, 'title'),
    at: ctx.world.now(),
  });
  ctx.world.changed();
  return { body: {} };
};

const conversationsInfo: MethodHandler = (ctx, params) => ({
  body: { channel: conversationOf(ctx, required(params, 'channel', 'channel_not_found')) },
});

/** The messages of a thread: the bot's, and those people wrote through the world helpers (`humanWrites`). */
const conversationsReplies: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel', 'channel_not_found');
  joinedConversation(ctx, channel);
  const ts = required(params, 'ts', 'thread_not_found');
  const oldest = str(params, 'oldest');
  const limit = Number(str(params, 'limit') ?? 1000);
  const metadata = new Map(ctx.world.visibleMessages(channel).map((m) => [m.ts, m.metadata]));
  const messages = ctx.world
    .threadMessages(channel, ts, { userId: ctx.identity.botUserId, botId: ctx.identity.botId })
    .filter((m) => oldest === undefined || m.ts >= oldest)
    .slice(0, limit)
    .map((m) => ({
      type: 'message',
      ...m,
      ...(metadata.get(m.ts) !== undefined ? { metadata: metadata.get(m.ts) } : {}),
    }));
  return { body: { messages, has_more: false } };
};

const connectionsOpen: MethodHandler = (ctx) => ({ body: { url: ctx.socketUrl() } });

export const methods: ReadonlyMap<string, MethodEntry> = new Map<string, MethodEntry>([
  ...channelMethods,
  ['auth.test', { handler: authTest, token: 'bot' }],
  ['chat.postMessage', { handler: postMessage, token: 'bot' }],
  ['chat.update', { handler: update, token: 'bot' }],
  ['chat.startStream', { handler: startStream, token: 'bot' }],
  ['chat.appendStream', { handler: appendStream, token: 'bot' }],
  ['chat.stopStream', { handler: stopStream, token: 'bot' }],
  ['assistant.threads.setStatus', { handler: setStatus, token: 'bot' }],
  ['assistant.threads.setSuggestedPrompts', { handler: setSuggestedPrompts, token: 'bot' }],
  ['assistant.threads.setTitle', { handler: setTitle, token: 'bot' }],
  ['conversations.info', { handler: conversationsInfo, token: 'bot' }],
  ['conversations.replies', { handler: conversationsReplies, token: 'bot' }],
  ['apps.connections.open', { handler: connectionsOpen, token: 'app' }],
]);
