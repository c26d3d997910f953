import { z } from 'zod';
import type { CallOptions, ChatbotSettingsEdit, ModelInfo } from './api.js';
import { caseInsensitiveObject, stringLike } from './case-insensitive.js';
import type { UpstreamContext } from './context.js';
import { parseData } from './envelope.js';
import { UpstreamError } from './errors.js';

/** Edit answers `Data: 1`; hosts that answer `true` or nothing at all are taken at their `Success`. */
const editResultSchema = z.union([z.number(), z.boolean(), z.null(), z.undefined()]);

const modelSchema = caseInsensitiveObject({
  Key: stringLike,
  Value: z.string(),
  Status: z.boolean().nullish(),
}).transform((model): ModelInfo => ({ Key: model.Key, Value: model.Value, Status: model.Status ?? true }));

const serialNumberSchema = stringLike.pipe(z.string().min(1, 'the new chatbot id is empty'));

export async function edit(ctx: UpstreamContext, settings: ChatbotSettingsEdit, options?: CallOptions): Promise<void> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'Edit',
      method: 'POST',
      target: ctx.paths.edit,
      credential: 'secret',
      json: settings,
      idempotent: true,
    },
    options,
  );
  const result = parseData('Edit', status, editResultSchema, data);
  if (result === 0 || result === false) {
    throw new UpstreamError({
      kind: 'envelope',
      operation: 'Edit',
      status,
      message: `Edit reported no change (Data ${String(result)}); check that chatbot ${settings.serialNumber} exists`,
    });
  }
}

export async function modelList(ctx: UpstreamContext, options?: CallOptions): Promise<ModelInfo[]> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'ModelList',
      method: 'GET',
      target: ctx.paths.modelList,
      credential: 'secret',
      idempotent: true,
    },
    options,
  );
  return parseData('ModelList', status, z.array(modelSchema), data);
}

/** Creates a chatbot (`type` 0 = a generic chatbot, the only documented value); returns its serial number. */
export async function addChatbot(
  ctx: UpstreamContext,
  request: { timeZone?: string; type?: number },
  options?: CallOptions,
): Promise<string> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'Add',
      method: 'POST',
      target: ctx.paths.addChatbot,
      credential: 'secret',
      json: { timeZone: request.timeZone ?? 'UTC', type: request.type ?? 0 },
      idempotent: false,
    },
    options,
  );
  return parseData('Add', status, serialNumberSchema, data);
}

export async function removeChatbot(ctx: UpstreamContext, serialNumber: string, options?: CallOptions): Promise<void> {
  await ctx.http.call(
    {
      operation: 'Remove',
      method: 'POST',
      target: ctx.paths.removeChatbot,
      credential: 'secret',
      json: { serialNumber },
      idempotent: false,
    },
    options,
  );
}
