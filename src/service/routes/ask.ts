import { z } from 'zod';
import { checkAskShape, checkFile, checkMediaEnabled } from '../ask/media-rules.js';
import { collectAnswer, streamAnswer, withSuffix } from '../ask/run-answer.js';
import { checkRateLimit, reserveMonthlyMessage } from '../ask/usage-limits.js';
import type { Endpoint, ServiceContext } from '../context.js';
import { notFound, sendOk } from '../envelope.js';
import type { AttachedFile } from '../engines/types.js';
import { parseBody } from '../validation/bind.js';
import { modelName } from './chatbot.js';

function askSchema(contentChars: number) {
  return z.object({
    sessionID: z.number().int().min(1),
    content: z.string().max(contentChars).optional(),
    chatAskType: z.enum(['Text', 'Audio', 'Image', 'Video']).optional(),
    stream: z.boolean().optional(),
    fileIds: z.array(z.number().int().min(1)).optional(),
  });
}

export function askEndpoints(ctx: ServiceContext): Endpoint[] {
  const schema = askSchema(ctx.limits.contentChars);
  return [
    {
      path: '/chat/Chat/ClientAsk',
      methods: ['POST'],
      credential: 'secret',
      requiresJson: true,
      async handle(req, res) {
        const body = parseBody(schema, req.body);
        const askType = body.chatAskType ?? 'Text';
        checkAskShape(askType, body.content, body.fileIds, ctx.limits);
        const question = body.content ?? '';

        const session = await ctx.sessions.get(body.sessionID);
        const chatbot = await ctx.chatbots.find(session.serialNumber);
        if (!chatbot)
          throw notFound(
            `The chatbot of session ${session.sessionId} has been removed; this session can no longer be used.`,
          );
        checkMediaEnabled(askType, chatbot.settings);
        const files: AttachedFile[] =
          askType === 'Text'
            ? []
            : await Promise.all(
                (body.fileIds ?? []).map(async (fileId) => {
                  const meta = checkFile(askType, await ctx.files.get(fileId), ctx.limits);
                  return { meta, bytes: () => ctx.files.bytes(fileId) };
                }),
              );

        // Only a well-formed ask reaches the counters, so rejected ones never use up the month.
        await checkRateLimit(ctx.state, chatbot, session.sessionId);
        const reservation = await reserveMonthlyMessage(ctx.state, chatbot);
        const abort = new AbortController();
        res.on('close', () => abort.abort());
        try {
          const [ids, listings] = await Promise.all([
            ctx.sessions.nextMessageIds(),
            ctx.listings.all(chatbot.serialNumber),
          ]);
          const fragments = withSuffix(
            ctx.engine.answer({
              chatbot,
              model: modelName(ctx, chatbot.settings.Model),
              question,
              askType,
              files,
              listings,
              history: () => ctx.sessions.history(session.sessionId),
              signal: abort.signal,
            }),
            chatbot.settings.AnswerSuffix,
          );

          const done = body.stream
            ? await streamAnswer(res, question, ids, fragments)
            : await collectAnswer(question, fragments);
          if (!body.stream && done) {
            sendOk(res, {
              messageid: ids.answerId,
              content: done.answer,
              totalToken: done.totalToken,
              noAnswer: done.noAnswer,
            });
          }
          if (done) await ctx.sessions.record(session.sessionId, question || `[${askType}]`, done.answer);
        } catch (error) {
          await reservation.release();
          throw error;
        }
      },
    },
  ];
}
