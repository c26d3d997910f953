import { z } from 'zod';
import type { CallOptions, ChatAnswer, ClientAskRequest } from './api.js';
import { caseInsensitiveObject, intLike } from './case-insensitive.js';
import type { UpstreamContext } from './context.js';
import { parseData } from './envelope.js';

const sessionSchema = caseInsensitiveObject({ SessionID: intLike });

/** `Data` of a non-streamed ClientAsk (older docs: lowercase `messageid`, camel `totalToken`). */
export const chatAnswerSchema = caseInsensitiveObject({
  messageid: intLike,
  content: z.string(),
  totalToken: intLike.nullish(),
  noAnswer: z.boolean().nullish(),
}).transform((data): ChatAnswer => ({
  messageId: data.messageid,
  content: data.content,
  totalToken: data.totalToken ?? 0,
  noAnswer: data.noAnswer ?? false,
}));

export async function getSession(
  ctx: UpstreamContext,
  serialNumber: string,
  options?: CallOptions,
): Promise<{ sessionId: number }> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'GetSession',
      method: 'POST',
      target: ctx.paths.getSession,
      credential: 'secret',
      json: { serialNumber },
      idempotent: false,
    },
    options,
  );
  return { sessionId: parseData('GetSession', status, sessionSchema, data).SessionID };
}

/** The ClientAsk body; `chatAskType` null means Text, as the spec allows. */
export function clientAskBody(request: ClientAskRequest, stream: boolean): Record<string, unknown> {
  return {
    sessionID: request.sessionId,
    content: request.content,
    chatAskType: request.chatAskType ?? null,
    stream,
    fileIds: request.fileIds && request.fileIds.length > 0 ? request.fileIds : null,
  };
}

export async function ask(ctx: UpstreamContext, request: ClientAskRequest, options?: CallOptions): Promise<ChatAnswer> {
  const { status, data } = await ctx.http.call(
    {
      operation: 'ClientAsk',
      method: 'POST',
      target: ctx.paths.clientAsk,
      credential: 'secret',
      json: clientAskBody(request, false),
      idempotent: false,
    },
    options,
  );
  return parseData('ClientAsk', status, chatAnswerSchema, data);
}
