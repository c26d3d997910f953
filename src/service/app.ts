import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { checkCredential } from './auth.js';
import { createContext, type Endpoint, type ServiceContext } from './context.js';
import { seedDemoData } from './demo.js';
import { warmUpTokenCounter } from './engines/tokens.js';
import { migrateLegacyServiceKeys } from './legacy-keys.js';
import { sendError, ServiceError } from './envelope.js';
import type { ServiceOptions } from './options.js';
import { askEndpoints } from './routes/ask.js';
import { chatbotEndpoints } from './routes/chatbot.js';
import { realEstateEndpoints } from './routes/realestate.js';
import { uploadEndpoints } from './routes/upload.js';

function endpointHandler(ctx: ServiceContext, endpoint: Endpoint): RequestHandler {
  return async (req, res) => {
    if (!endpoint.methods.includes(req.method as Endpoint['methods'][number])) {
      throw new ServiceError(
        405,
        `${req.method} is not allowed on ${req.path}; use ${endpoint.methods.join(' or ')}.`,
        { Allow: endpoint.methods.join(', ') },
      );
    }
    if (endpoint.credential) checkCredential(req, endpoint.credential, ctx.options);
    if (endpoint.requiresJson && !req.is('application/json')) {
      throw new ServiceError(415, `${req.path} requires the header "Content-Type: application/json".`);
    }
    await endpoint.handle(req, res);
  };
}

/** body-parser's errors carry a `type`; turn the ones a caller can cause into envelope errors. */
function asServiceError(error: unknown, req: Request, ctx: ServiceContext): ServiceError {
  if (error instanceof ServiceError) return error;
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed')
    return new ServiceError(400, 'The request body is not valid JSON; send a JSON object.');
  if (type === 'entity.too.large')
    return new ServiceError(413, `The request body is larger than ${ctx.limits.jsonBodyBytes} bytes.`);
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new ServiceError(415, 'The request body must be UTF-8 JSON.');
  if (type === 'request.aborted') return new ServiceError(400, 'The request was aborted before its body arrived.');
  // Inflating a body that is not what its Content-Encoding says fails in zlib (gzip, deflate: Z_DATA_ERROR,
  // Z_BUF_ERROR when cut short) or in its brotli decoder (ERR__ERROR_FORMAT_…).
  if (/^(Z_|ERR__ERROR_)/.test(String((error as { code?: unknown }).code))) {
    return new ServiceError(
      400,
      `The request body is not valid ${req.get('content-encoding') ?? 'compressed'} data; send it intact, or uncompressed without Content-Encoding.`,
    );
  }
  return new ServiceError(500, 'The service failed unexpectedly; the error is in its log. Please try again.');
}

/**
 * The embedded Chatbot Service as an express app. It claims only `/chat/...`
 * (unknown `/chat` paths get an envelope 404); any other path falls through
 * with `next()`, so the gateway can mount it on its own server next to its routes.
 * With `seedDemo`, the demo chatbot is created in the background and `/chat`
 * requests wait for it.
 */
export function createServiceApp(options: ServiceOptions): express.Express {
  const ctx = createContext(options);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  // Requests wait for keys of the old layout to move and for the demo seed, so no chatbot
  // looks missing right after start.
  const seeded = migrateLegacyServiceKeys(ctx.state)
    .then(
      (moved) => {
        if (moved > 0) ctx.logger.info({ moved }, 'service keys moved to the hash-tagged layout');
      },
      (error: unknown) =>
        ctx.logger.error(
          { err: error },
          'moving service keys of the old layout failed; chatbots kept there look missing',
        ),
    )
    .then(() =>
      options.seedDemo
        ? seedDemoData(ctx.state).then(
            (result) => ctx.logger.info(result, 'demo chatbot ready'),
            (error: unknown) =>
              ctx.logger.error({ err: error }, 'seeding the demo chatbot failed; the service runs without it'),
          )
        : undefined,
    );
  app.use('/chat', async (_req, _res, next) => {
    await seeded;
    next();
  });

  const endpoints = [
    ...chatbotEndpoints(ctx),
    ...askEndpoints(ctx),
    ...realEstateEndpoints(ctx),
    ...uploadEndpoints(ctx),
  ];
  // The docs' own examples omit Content-Type on List/Delete, so every body is read as JSON, except
  // an upload's: its route reads the bytes itself, and only once the URL's signature checked out.
  const json = express.json({ type: () => true, limit: ctx.limits.jsonBodyBytes });
  app.use('/chat', (req, res, next) => (req.path.startsWith('/upload/') ? next() : json(req, res, next)));
  for (const endpoint of endpoints) app.all(endpoint.path, endpointHandler(ctx, endpoint));
  app.use('/chat', (req) => {
    throw new ServiceError(
      404,
      `There is no endpoint ${req.method} ${req.originalUrl.split('?')[0]}; see the API description for the paths.`,
    );
  });

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const failure = asServiceError(error, req, ctx);
    if (failure.code >= 500) ctx.logger.error({ err: error, path: req.path }, 'chatbot service request failed');
    else
      ctx.logger.debug(
        { code: failure.code, path: req.path, message: failure.message },
        'chatbot service request refused',
      );
    // A stream that already started has sent its own error event.
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    sendError(res, failure);
  };
  app.use(onError);
  return app;
}

/**
 * What a service must do before it takes requests. The builtin engine reports no usage, so
 * every answer is counted: the token ranks are built now (~0.6 s of one core, holding the event
 * loop), not on a user's first message, where they would stall every chat the process serves
 * (and the heartbeats that keep its conversation locks). An openai engine reports usage; its
 * process builds them only if an answer lacks it.
 */
export async function prepareService(options: Pick<ServiceOptions, 'engine'>): Promise<void> {
  if ((options.engine?.kind ?? 'builtin') === 'builtin') await warmUpTokenCounter();
}
