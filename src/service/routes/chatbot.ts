import { z } from 'zod';
import type { Endpoint, ServiceContext } from '../context.js';
import { badRequest, notFound, sendOk } from '../envelope.js';
import { parseBody } from '../validation/bind.js';
import { editSchema, timeZone } from '../validation/settings.js';

const addSchema = z.object({
  timeZone: timeZone('timeZone').optional(),
  type: z.number().int().optional(),
});
const serialSchema = z.object({ serialNumber: z.string().min(1) });

/** ModelList: the engine's models, Key "1" first; `Model` in Edit takes one of these Keys. */
export function modelList(ctx: ServiceContext): { Key: string; Value: string; Status: boolean }[] {
  return ctx.engine.models.map((name, index) => ({ Key: String(index + 1), Value: name, Status: true }));
}

export function modelName(ctx: ServiceContext, key: string): string {
  const models = ctx.engine.models;
  return models[Number(key) - 1] ?? models[0]!;
}

export function chatbotEndpoints(ctx: ServiceContext): Endpoint[] {
  return [
    {
      path: '/chat/Chatbot/Add',
      methods: ['POST'],
      credential: 'secret',
      async handle(req, res) {
        const body = parseBody(addSchema, req.body);
        if (body.type !== undefined && body.type !== 0)
          throw badRequest('type must be 0 (a generic chatbot); no other chatbot type is offered.');
        const record = await ctx.chatbots.create({ type: 0, ...(body.timeZone ? { timeZone: body.timeZone } : {}) });
        sendOk(res, record.serialNumber);
      },
    },
    {
      path: '/chat/Chatbot/Remove',
      methods: ['POST'],
      credential: 'secret',
      async handle(req, res) {
        const { serialNumber } = parseBody(serialSchema, req.body);
        if (!(await ctx.chatbots.remove(serialNumber)))
          throw notFound(`No chatbot has the serialNumber "${serialNumber}"; nothing was removed.`);
        sendOk(res);
      },
    },
    {
      path: '/chat/Chatbot/Edit',
      methods: ['POST'],
      credential: 'secret',
      requiresJson: true,
      async handle(req, res) {
        const { serialNumber, ...changes } = parseBody(editSchema, req.body);
        if (changes.Model !== undefined && !modelList(ctx).some((model) => model.Key === changes.Model)) {
          throw badRequest(
            `Model must be a Key from /chat/Chatbot/ModelList (${modelList(ctx)
              .map((m) => `"${m.Key}"`)
              .join(', ')}).`,
          );
        }
        await ctx.chatbots.update(serialNumber, changes);
        sendOk(res, 1);
      },
    },
    {
      path: '/chat/Chatbot/GetSession',
      methods: ['POST'],
      credential: 'secret',
      async handle(req, res) {
        const { serialNumber } = parseBody(serialSchema, req.body);
        await ctx.chatbots.get(serialNumber, 'serialNumber');
        const session = await ctx.sessions.create(serialNumber);
        sendOk(res, { SessionID: session.sessionId });
      },
    },
    {
      // The docs send a GET with a JSON body; POST is accepted too because some hosts document it so.
      path: '/chat/Chatbot/ModelList',
      methods: ['GET', 'POST'],
      credential: 'secret',
      async handle(_req, res) {
        sendOk(res, modelList(ctx));
      },
    },
  ];
}
