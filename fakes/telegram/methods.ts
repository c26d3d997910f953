/** The fake's non-message methods, and the one table of every method it knows. */
import { ApiError, MAX_DOWNLOAD_BYTES, type MethodHandler } from './context.js';
import { forumMethods } from './forum.js';
import { messagingMethods } from './messaging.js';
import { BadRequest } from './params.js';

const getMe: MethodHandler = (ctx) => ({ result: ctx.botUser });

const getUpdates: MethodHandler = async (ctx, params) => {
  if (ctx.queue.webhook) {
    throw new ApiError(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  const updates = await ctx.queue.poll({
    offset: params.optionalNumber('offset'),
    limit: params.optionalNumber('limit'),
    timeoutSeconds: params.optionalNumber('timeout'),
    allowedUpdates: params.json<string[]>('allowed_updates'),
    signal: ctx.signal,
  });
  if (updates === 'conflict') {
    throw new ApiError(
      409,
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    );
  }
  return { result: updates };
};

const setWebhook: MethodHandler = (ctx, params) => {
  const url = params.optionalString('url') ?? '';
  const dropPending = params.boolean('drop_pending_updates');
  if (url === '') {
    ctx.queue.deleteWebhook(dropPending);
    return { result: true };
  }
  if (!/^https?:\/\//.test(url)) throw new BadRequest('bad webhook: An HTTPS URL must be provided for webhook');
  const secretToken = params.optionalString('secret_token');
  if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
    throw new BadRequest('secret token contains unallowed characters');
  }
  ctx.queue.setWebhook({ url, secretToken, allowedUpdates: params.json<string[]>('allowed_updates') }, dropPending);
  return { result: true };
};

const deleteWebhook: MethodHandler = (ctx, params) => {
  ctx.queue.deleteWebhook(params.boolean('drop_pending_updates'));
  return { result: true };
};

const getWebhookInfo: MethodHandler = (ctx) => {
  const hook = ctx.queue.webhook;
  return {
    result: {
      url: hook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: ctx.queue.pendingCount,
      ...(hook?.lastErrorDate
        ? { last_error_date: hook.lastErrorDate, last_error_message: hook.lastErrorMessage }
        : {}),
      ...(hook?.allowedUpdates ? { allowed_updates: hook.allowedUpdates } : {}),
    },
  };
};

const getFile: MethodHandler = (ctx, params) => {
  const file = ctx.world.file(params.string('file_id'));
  if (!file) throw new BadRequest('invalid file_id');
  if (!ctx.localServer && file.file_size > MAX_DOWNLOAD_BYTES) throw new BadRequest('file is too big');
  return {
    result: {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      file_size: file.file_size,
      file_path: file.file_path,
    },
  };
};

const answerCallbackQuery: MethodHandler = (ctx, params) => {
  const answer = ctx.world.callbackQueries.get(params.string('callback_query_id'));
  if (!answer) throw new BadRequest('query is too old and response timeout expired or query ID is invalid');
  Object.assign(answer, {
    answered: true,
    text: params.optionalString('text'),
    show_alert: params.boolean('show_alert'),
  });
  return { result: true };
};

const setMyCommands: MethodHandler = (ctx, params) => {
  const commands = params.json<{ command: string; description: string }[]>('commands');
  if (!Array.isArray(commands)) throw new BadRequest('parameter "commands" is required');
  for (const c of commands) {
    if (!/^[a-z0-9_]{1,32}$/.test(c.command)) throw new BadRequest('BOT_COMMAND_INVALID');
    if (!c.description || c.description.length > 256) throw new BadRequest('BOT_COMMAND_DESCRIPTION_INVALID');
  }
  ctx.world.commands.push(params.all());
  return { result: true };
};

const known: Record<string, MethodHandler> = {
  getMe,
  getUpdates,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  getFile,
  answerCallbackQuery,
  setMyCommands,
  ...messagingMethods,
  ...forumMethods,
};

/** Method names are case-insensitive in the Bot API. */
export const methodsByLowerName = new Map(
  Object.entries(known).map(([name, handler]) => [name.toLowerCase(), { name, handler }]),
);
