/**
 * The HTTP face of the fake: `POST /api/<method>` with the Web API's body
 * encodings (form-encoded with JSON-valued fields, or JSON), bearer tokens and
 * answer envelope; and shared files behind bearer auth at `/files-pri/…`.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { SlackApiError, type MethodContext, type MethodParams, type TokenKind } from './context.js';
import type { FailureScript, RateLimiter } from './limits.js';
import { methods } from './methods.js';
import type { World } from './world.js';

export interface ServerDeps {
  world: World;
  failures: FailureScript;
  limiter: RateLimiter;
  /** Read on every call, so tests can change streaming support and scopes on the fly. */
  context: () => MethodContext;
  tokens: Record<TokenKind, string>;
}

/** Form fields that web-api JSON-stringifies (arrays and objects). */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'chunks', 'prompts', 'metadata', 'loading_messages', 'files']);

/** Slack's answer to a file URL fetched without a valid token: a login page, with status 200. */
const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in to your workspace</body></html>';

function decodeParams(req: Request): MethodParams {
  const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const isJson = /application\/json/i.test(req.headers['content-type'] ?? '');
  const params: MethodParams = { ...query, ...body };
  if (!isJson) {
    for (const [key, value] of Object.entries(params)) {
      if (JSON_FIELDS.has(key) && typeof value === 'string') {
        try {
          params[key] = JSON.parse(value);
        } catch {
          throw new SlackApiError(key === 'blocks' ? 'invalid_blocks_format' : 'invalid_arguments');
        }
      }
    }
  }
  return params;
}

function bearer(req: Request): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1]?.trim();
}

function checkToken(deps: ServerDeps, token: string | undefined, wanted: TokenKind): void {
  if (!token) throw new SlackApiError('not_authed');
  if (token === deps.tokens[wanted]) return;
  const other: TokenKind = wanted === 'bot' ? 'app' : 'bot';
  if (token === deps.tokens[other]) throw new SlackApiError('not_allowed_token_type');
  throw new SlackApiError('invalid_auth');
}

function channelOf(params: MethodParams): string | undefined {
  const channel = params.channel ?? params.channel_id;
  return typeof channel === 'string' ? channel : undefined;
}

function handleMethod(deps: ServerDeps, req: Request, res: Response, method: string, scripted = true): void {
  let params: MethodParams = {};
  const log = (status: number, error?: string): void => {
    const { token: _token, ...shown } = params;
    deps.world.log({
      method,
      params: shown,
      ok: status === 200 && error === undefined,
      error,
      status,
      channel: channelOf(params),
      at: deps.world.now(),
    });
  };
  try {
    params = decodeParams(req);
    const entry = methods.get(method);
    const failure = scripted ? deps.failures.next(method) : undefined;
    if (failure && 'until' in failure) {
      failure.arrived?.();
      void failure.until.then(() => handleMethod(deps, req, res, method, false));
      return;
    }
    if (failure) {
      if ('reset' in failure) {
        log(0, 'connection_reset');
        req.socket.destroy();
        return;
      }
      if ('error' in failure) throw new SlackApiError(failure.error);
      if (failure.status === 429) {
        log(429, 'ratelimited');
        res
          .status(429)
          .set('Retry-After', String(failure.retryAfter ?? 1))
          .json({ ok: false, error: 'ratelimited' });
        return;
      }
      log(failure.status, `http_${failure.status}`);
      res.status(failure.status).type('text/plain').send('upstream unavailable (injected by the fake)');
      return;
    }
    if (!entry) throw new SlackApiError('unknown_method');
    checkToken(deps, bearer(req) ?? (typeof params.token === 'string' ? params.token : undefined), entry.token);
    // Slack names a bot token's scopes on every Web API answer, refusals included (web-api: response_metadata.scopes).
    if (entry.token === 'bot') res.set('x-oauth-scopes', deps.context().scopes.join(','));
    const limited = deps.limiter.take(method, channelOf(params));
    if (limited) {
      log(429, 'ratelimited');
      res.status(429).set('Retry-After', String(limited.retryAfter)).json({ ok: false, error: 'ratelimited' });
      return;
    }
    const outcome = entry.handler(deps.context(), params);
    log(200);
    res
      .status(200)
      .set(outcome.headers ?? {})
      .json({ ok: true, ...outcome.body });
  } catch (error) {
    if (!(error instanceof SlackApiError)) throw error;
    log(200, error.error);
    res.status(200).json({ ok: false, error: error.error, ...error.extra });
  }
}

function handleFile(deps: ServerDeps, req: Request, res: Response, fileId: string): void {
  const file = deps.world.files.get(fileId);
  if (!file) {
    res.status(404).type('text/plain').send('file not found');
    return;
  }
  const authorized = bearer(req) === deps.tokens.bot;
  deps.world.downloads.push({ fileId, authorized });
  deps.world.changed();
  if (!authorized) {
    res.status(200).type('text/html').send(LOGIN_PAGE);
    return;
  }
  res.status(200).type(file.mimetype).send(Buffer.from(file.bytes));
}

/** The file's bytes from an upload POST: the one file part of a multipart body, or the body itself. */
async function uploadedBytes(req: Request): Promise<Uint8Array> {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) return new Uint8Array(raw);
  const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
  for (const value of form.values()) if (typeof value !== 'string') return new Uint8Array(await value.arrayBuffer());
  throw new Error('no file part');
}

async function handleUpload(deps: ServerDeps, req: Request, res: Response, fileId: string): Promise<void> {
  const upload = deps.world.uploads.get(fileId);
  if (!upload || upload.completed) {
    res.status(404).type('text/plain').send('upload not found');
    return;
  }
  let bytes: Uint8Array;
  try {
    bytes = await uploadedBytes(req);
  } catch {
    res.status(400).type('text/plain').send('unreadable upload');
    return;
  }
  // Slack takes the length announced by files.getUploadURLExternal; more bytes than that are refused.
  if (bytes.byteLength > upload.length) {
    res.status(413).type('text/plain').send(`upload larger than the announced ${upload.length} bytes`);
    return;
  }
  upload.bytes = bytes;
  deps.world.changed();
  res.status(200).type('text/plain').send(`OK - ${bytes.byteLength}`);
}

export function createFakeSlackApp(deps: ServerDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '10mb' }));
  app.use(express.urlencoded({ extended: false, limit: '10mb' }));

  app.all('/api/:method', (req, res) => handleMethod(deps, req, res, String(req.params.method)));
  // url_private: /files-pri/<team>-<file>/<name>; url_private_download: /files-pri/<team>-<file>/download/<name>.
  app.get(['/files-pri/:teamFile/:name', '/files-pri/:teamFile/download/:name'], (req, res) => {
    const fileId = String(req.params.teamFile).split('-').at(-1) ?? '';
    handleFile(deps, req, res, fileId);
  });

  // Upload v2's second step: the bytes, raw or as multipart form data (web-api sends the latter), no token needed.
  app.post('/upload/v1/:fileId', express.raw({ type: () => true, limit: '1100mb' }), (req, res) => {
    void handleUpload(deps, req, res, String(req.params.fileId));
  });

  // Body parser failures answer in the Web API's envelope too.
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res
      .status(error.status === 413 ? 413 : 200)
      .json({ ok: false, error: error.status === 413 ? 'request_too_large' : 'invalid_form_data' });
  });
  return app;
}
