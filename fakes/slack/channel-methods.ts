/**
 * The Web API methods of a channel where people work with the app (operators' channel):
 * permalinks, who a user is (users.info, the e-mail only with users:read.email), and
 * files shared by the bot (upload v2: files.getUploadURLExternal, the bytes POSTed to the
 * upload URL, files.completeUploadExternal into a channel or thread), with Slack's errors.
 */
import { MAX_TEXT_LENGTH, requireScope, SlackApiError, type MethodHandler, type MethodParams } from './context.js';
import type { MethodEntry } from './context.js';
import { conversationOf, joinedConversation, newMessage, required, str } from './params.js';
import type { SharedFile } from './world.js';

const getPermalink: MethodHandler = (ctx, params) => {
  const channel = required(params, 'channel', 'channel_not_found');
  conversationOf(ctx, channel);
  const ts = required(params, 'message_ts', 'message_not_found');
  const known =
    ctx.world.message(channel, ts) ?? ctx.world.humanMessages.find((m) => m.channel === channel && m.ts === ts);
  if (!known) throw new SlackApiError('message_not_found');
  const host = `https://${ctx.identity.teamName.toLowerCase()}.slack.com`;
  return { body: { channel, permalink: `${host}/archives/${channel}/p${ts.replace('.', '')}` } };
};

const usersInfo: MethodHandler = (ctx, params) => {
  requireScope(ctx, 'users:read');
  const id = required(params, 'user', 'user_not_found');
  const user = ctx.world.users.get(id);
  if (!user) throw new SlackApiError('user_not_found');
  const realName = user.real_name ?? '';
  const email = ctx.scopes.includes('users:read.email') ? user.email : undefined;
  return {
    body: {
      user: {
        id: user.id,
        team_id: ctx.identity.teamId,
        name: user.name ?? user.id.toLowerCase(),
        deleted: false,
        real_name: realName,
        is_bot: user.is_bot ?? false,
        profile: {
          real_name: realName,
          display_name: user.display_name ?? '',
          ...(email !== undefined ? { email } : {}),
        },
      },
    },
  };
};

const getUploadUrl: MethodHandler = (ctx, params) => {
  requireScope(ctx, 'files:write');
  const filename = required(params, 'filename');
  const length = Number(required(params, 'length'));
  if (!Number.isInteger(length) || length < 1) throw new SlackApiError('invalid_arguments');
  if (length > ctx.maxUploadBytes) throw new SlackApiError('file_upload_size_restricted');
  const id = ctx.world.nextFileId();
  ctx.world.uploads.set(id, { id, filename, length, completed: false });
  return { body: { upload_url: ctx.uploadUrl(id), file_id: id } };
};

function filesOf(params: MethodParams): { id: string; title?: string }[] {
  const files = params.files;
  if (!Array.isArray(files) || files.length === 0) throw new SlackApiError('invalid_arguments');
  return files.map((file: unknown) => {
    const entry = file as { id?: unknown; title?: unknown };
    if (typeof entry?.id !== 'string') throw new SlackApiError('invalid_arguments');
    return { id: entry.id, ...(typeof entry.title === 'string' ? { title: entry.title } : {}) };
  });
}

const completeUpload: MethodHandler = (ctx, params) => {
  requireScope(ctx, 'files:write');
  const wanted = filesOf(params);
  const channel = str(params, 'channel_id');
  const threadTs = str(params, 'thread_ts');
  if (channel !== undefined) joinedConversation(ctx, channel);
  const comment = str(params, 'initial_comment');
  if (comment !== undefined && comment.length > MAX_TEXT_LENGTH) throw new SlackApiError('msg_too_long');
  const shared: SharedFile[] = wanted.map(({ id, title }) => {
    const upload = ctx.world.uploads.get(id);
    // Never announced, already completed, or its bytes never arrived at the upload URL.
    if (!upload || upload.completed || !upload.bytes) throw new SlackApiError('file_not_found');
    return { id, name: upload.filename, title: title ?? upload.filename, bytes: upload.bytes };
  });
  for (const file of shared) {
    const upload = ctx.world.uploads.get(file.id)!;
    upload.completed = true;
    ctx.world.files.set(file.id, {
      id: file.id,
      name: file.name,
      mimetype: 'application/octet-stream',
      filetype: file.name.split('.').at(-1) ?? 'binary',
      size: file.bytes.byteLength,
      bytes: file.bytes,
    });
  }
  if (channel !== undefined) {
    newMessage(ctx, {
      channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: comment ?? '',
      sentWith: 'files.completeUploadExternal',
      files: shared,
    });
  }
  return {
    body: {
      files: shared.map((file) => ({
        id: file.id,
        title: file.title,
        name: file.name,
        size: file.bytes.byteLength,
        url_private: ctx.fileUrl(file.id, file.name),
      })),
    },
  };
};

export const channelMethods: [string, MethodEntry][] = [
  ['chat.getPermalink', { handler: getPermalink, token: 'bot' }],
  ['users.info', { handler: usersInfo, token: 'bot' }],
  ['files.getUploadURLExternal', { handler: getUploadUrl, token: 'bot' }],
  ['files.completeUploadExternal', { handler: completeUpload, token: 'bot' }],
];
