/**
 * The HTTP face of the fake: `/bot<token>/<method>` with the Bot API's body
 * encodings and answer envelope, and `/file/bot<token>/<file_path>` downloads.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, type MethodContext } from './context.js';
import { describeFailure, type FailureScript } from './limits.js';
import { methodsByLowerName } from './methods.js';
import { BadRequest, Params, parseMultipart, type RawRequest } from './params.js';
import type { World } from './world.js';

export interface ServerDeps {
  token: string;
  world: World;
  failures: FailureScript;
  /** Everything a method needs except the per-request abort signal. */
  context: Omit<MethodContext, 'signal'>;
  /** Paths of files downloaded through /file/bot…, in order. */
  downloads: string[];
  /** Whether the token is revoked now (FakeTelegram.refuseToken): every call answers 401 as for a wrong token. */
  tokenRefused?: () => boolean;
}

function send(res: Response, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.status(status).json(body);
}

function sendError(res: Response, error: ApiError): void {
  send(res, error.errorCode, {
    ok: false,
    error_code: error.errorCode,
    description: error.description,
    ...(error.parameters ? { parameters: error.parameters } : {}),
  });
}

function rawRequest(req: Request): RawRequest {
  const contentType = req.headers['content-type'] ?? '';
  const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  if (Buffer.isBuffer(req.body) && /multipart\/form-data/i.test(contentType)) {
    const parsed = parseMultipart(req.body, contentType);
    return { params: { ...query, ...parsed.params }, files: parsed.files };
  }
  const body =
    req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  return { params: { ...query, ...body }, files: new Map() };
}

function chatIdOf(params: Params): number | undefined {
  try {
    return params.has('chat_id') ? params.optionalNumber('chat_id') : undefined;
  } catch {
    return undefined;
  }
}

async function handleMethod(deps: ServerDeps, req: Request, res: Response, methodName: string): Promise<void> {
  const entry = methodsByLowerName.get(methodName.toLowerCase());
  if (!entry) {
    sendError(res, new ApiError(404, 'Not Found'));
    return;
  }
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let params: Params | undefined;
  let chatId: number | undefined;
  let lastResult: unknown;
  const log = (fields: {
    ok: boolean;
    errorCode?: number;
    description?: string;
    visibleText?: string;
    messageId?: number;
  }): void => {
    // getUpdates is logged only when it returns something, so idle polling does not flood the log.
    if (entry.name === 'getUpdates' && fields.ok && Array.isArray(lastResult) && lastResult.length === 0) return;
    deps.world.log(chatId, { method: entry.name, params: params?.all() ?? {}, at: deps.world.now(), ...fields });
  };
  try {
    params = new Params(rawRequest(req));
    chatId = chatIdOf(params);
    // A revoked token: Telegram's answer to a wrong one, logged with the call so a test can see the refusals.
    if (deps.tokenRefused?.()) throw new ApiError(401, 'Unauthorized');
    const failure = deps.failures.next(entry.name);
    if (failure) {
      throw new ApiError(
        failure.errorCode,
        describeFailure(failure),
        failure.errorCode === 429 ? { retry_after: failure.retryAfter ?? 1 } : undefined,
      );
    }
    const outcome = await entry.handler({ ...deps.context, signal: controller.signal }, params);
    lastResult = outcome.result;
    log({ ok: true, visibleText: outcome.visibleText, messageId: outcome.messageId });
    send(res, 200, { ok: true, result: outcome.result });
  } catch (error) {
    const apiError =
      error instanceof ApiError
        ? error
        : error instanceof BadRequest
          ? new ApiError(400, error.message)
          : new ApiError(500, `Internal Server Error: ${(error as Error).message}`);
    log({ ok: false, errorCode: apiError.errorCode, description: apiError.description });
    sendError(res, apiError);
  }
}

export function createFakeTelegramApp(deps: ServerDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '60mb' }));
  app.use(express.urlencoded({ extended: false, limit: '60mb' }));
  app.use(express.raw({ type: 'multipart/form-data', limit: '60mb' }));

  app.use((req, res, next) => {
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.path);
    if (file) {
      const stored = file[1] === deps.token ? deps.world.fileByPath(decodeURIComponent(file[2] ?? '')) : undefined;
      if (!stored) {
        sendError(res, new ApiError(404, 'Not Found'));
        return;
      }
      deps.downloads.push(stored.file_path);
      res
        .status(200)
        .type(stored.mimeType ?? 'application/octet-stream')
        .send(Buffer.from(stored.bytes));
      return;
    }
    const call = /^\/bot([^/]+)\/([^/]+)$/.exec(req.path);
    if (!call) {
      sendError(res, new ApiError(404, 'Not Found'));
      return;
    }
    if (call[1] !== deps.token) {
      sendError(res, new ApiError(401, 'Unauthorized'));
      return;
    }
    handleMethod(deps, req, res, call[2] ?? '').catch(next);
  });

  // Body parser failures (bad JSON, too large) answer in the Bot API's envelope too.
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status ?? 500;
    sendError(res, new ApiError(status, status === 413 ? 'Request Entity Too Large' : `Bad Request: ${error.message}`));
  });
  return app;
}
