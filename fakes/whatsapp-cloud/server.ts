/**
 * The Graph API face of the fake, under `/<version>`: the bearer token on every call (401, code
 * 190), `POST /{phone-number-id}/messages` (sends and the read/typing call, checked by
 * validation.ts, then scripted failures, throughput, the 24-hour window and the pair rate limit,
 * in that order; a media message by the id of an upload, its file kept for the user),
 * `POST /{phone-number-id}/media` (uploads.ts), `GET /{media-id}` (a URL on the media origin), `GET /{phone-number-id}` (what
 * doctor reads), `GET|POST|DELETE /{waba-id}/subscribed_apps`. Every call is logged.
 */
import express, { type Request, type Response } from 'express';
import { CloudApiError, META_CODES, invalidParameter, unknownObject } from './errors.js';
import {
  windowOpen,
  type FailureScript,
  type PairLimiter,
  type ScriptedFailure,
  type ThroughputLimiter,
} from './limits.js';
import { issueMediaUrl } from './media-server.js';
import { mediaForMessage, upload } from './uploads.js';
import { BSUID, parseSendRequest, type MessageContent } from './validation.js';
import type { World } from './world.js';

/** The Graph API version the fake answers under (the adapter's default base is …/v23.0). */
export const GRAPH_VERSION = 'v23.0';

export interface BusinessIdentity {
  accessToken: string;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
}

export interface GraphDeps {
  world: World;
  identity: BusinessIdentity;
  failures: FailureScript;
  pair: PairLimiter;
  throughput: ThroughputLimiter;
  mediaOrigin: () => string;
  /** Whether the access token is revoked now (FakeWhatsAppCloud.refuseToken): every call answers 190. */
  tokenRefused: () => boolean;
  /** A message was accepted and shown: the fake posts its statuses. */
  onSent: (to: string, wamid: string) => void;
  /** A message was accepted but a scripted failure follows in a `failed` status. */
  onFailedLater: (to: string, wamid: string, code: number) => void;
}

/** `logged`: what the call log shows of a body that is not JSON (an upload: its fields and the file's name, type and size). */
type Answer = { status: number; body: unknown; logged?: unknown };

function bearer(req: Request): string | undefined {
  const header = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  // Graph also takes the token as a query parameter.
  return header ?? (typeof req.query.access_token === 'string' ? req.query.access_token : undefined);
}

function authorize(deps: GraphDeps, req: Request): void {
  const token = bearer(req);
  if (!token)
    throw new CloudApiError(META_CODES.accessToken, undefined, {
      message: 'An access token is required to request this resource.',
    });
  if (token !== deps.identity.accessToken) {
    throw new CloudApiError(META_CODES.accessToken, undefined, {
      message: 'Invalid OAuth access token - Cannot parse access token',
    });
  }
  // Meta's words for a token whose session was invalidated (revoked, the system user removed, a password changed).
  if (deps.tokenRefused()) {
    throw new CloudApiError(META_CODES.accessToken, undefined, {
      subcode: SESSION_INVALIDATED,
      message:
        'Error validating access token: The session has been invalidated because the user changed their password ' +
        'or Facebook has changed the session for security reasons.',
    });
  }
}

/** Meta's error_subcode for a token whose session was invalidated. */
const SESSION_INVALIDATED = 460;

function jsonBody(req: Request): unknown {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParameter('The request body is not valid JSON.');
  }
}

/** A scripted code in 500–599 is an HTTP failure of Meta's own (131000 in the body); any other is Meta's code. */
function scriptedError(failure: ScriptedFailure): CloudApiError {
  if (failure.code >= 500 && failure.code < 600) {
    return new CloudApiError(META_CODES.somethingWentWrong, undefined, {
      httpStatus: failure.httpStatus ?? failure.code,
    });
  }
  return new CloudApiError(
    failure.code,
    undefined,
    failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {},
  );
}

function send(deps: GraphDeps, body: unknown): Answer {
  const request = parseSendRequest(body);
  const { world } = deps;
  if (request.kind === 'read') {
    if (!world.isInbound(request.messageId)) {
      throw invalidParameter(`Param message_id "${request.messageId}" is not a message this business number received.`);
    }
    world.mark({ messageId: request.messageId, typing: request.typing, at: world.now() });
    return { status: 200, body: { success: true } };
  }
  const { to, content } = request;
  // Checked with the body, before any limit: a message naming no upload, or one it cannot show, never counts.
  const media = content.media?.id !== undefined ? mediaForMessage(world, content.type, content.media.id) : undefined;
  const scripted = deps.failures.next(to);
  if (scripted && scripted.via !== 'status') throw scriptedError(scripted);
  if (!deps.throughput.take()) throw new CloudApiError(META_CODES.throughput);
  // Templates are the one way to write outside the window (the notes: "templates exempt").
  if (content.type !== 'template' && !windowOpen(world.lastInboundAt(to), world.now()))
    throw new CloudApiError(META_CODES.reEngagement);
  if (!deps.pair.take(to)) throw new CloudApiError(META_CODES.pairRateLimit);
  const wamid = world.newWamid();
  if (scripted) {
    deps.onFailedLater(to, wamid, scripted.code);
  } else {
    const file = media && {
      bytes: media.bytes,
      mimeType: media.mimeType,
      ...((content.media?.filename ?? media.fileName) ? { fileName: content.media?.filename ?? media.fileName } : {}),
    };
    world.show({ id: wamid, to, at: world.now(), ...(content satisfies MessageContent), ...(file ? { file } : {}) });
    deps.onSent(to, wamid);
  }
  const input = body && typeof body === 'object' && 'to' in body ? (body as { to: unknown }).to : to;
  return {
    status: 200,
    body: {
      messaging_product: 'whatsapp',
      contacts: [BSUID.test(to) ? { input: to, user_id: to } : { input, wa_id: to }],
      messages: [{ id: wamid, ...(content.type === 'template' ? { message_status: 'accepted' } : {}) }],
    },
  };
}

function getObject(deps: GraphDeps, id: string): Answer {
  const { identity, world } = deps;
  if (id === identity.phoneNumberId) {
    return {
      status: 200,
      body: {
        verified_name: identity.verifiedName,
        code_verification_status: 'VERIFIED',
        display_phone_number: identity.displayPhoneNumber,
        quality_rating: 'GREEN',
        platform_type: 'CLOUD_API',
        throughput: { level: 'STANDARD' },
        id,
      },
    };
  }
  if (id === identity.wabaId)
    return {
      status: 200,
      body: {
        id,
        name: `${identity.verifiedName} WABA`,
        timezone_id: '1',
        message_template_namespace: 'fake_namespace',
      },
    };
  const media = world.media.get(id);
  if (media) {
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: issueMediaUrl(world, deps.mediaOrigin(), media),
        mime_type: media.mimeType,
        sha256: media.sha256,
        file_size: media.fileSize,
        id,
      },
    };
  }
  throw unknownObject('GET', id);
}

function subscribedApps(deps: GraphDeps, method: string): Answer {
  if (method === 'GET') {
    const app = {
      whatsapp_business_api_data: {
        id: '300000000000001',
        link: 'https://www.facebook.com/games/?app_id=300000000000001',
        name: 'chatbridge',
      },
    };
    return { status: 200, body: { data: deps.world.subscribed ? [app] : [] } };
  }
  if (method === 'POST' || method === 'DELETE') {
    deps.world.subscribed = method === 'POST';
    deps.world.changed();
    return { status: 200, body: { success: true } };
  }
  throw unknownObject(method, deps.identity.wabaId);
}

async function uploadMedia(deps: GraphDeps, req: Request): Promise<Answer> {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const media = await upload(deps.world, req.headers['content-type'] ?? '', body);
  return {
    status: 200,
    body: { id: media.id },
    logged: { file: { name: media.fileName, type: media.mimeType, size: media.fileSize } },
  };
}

/** Synchronous but for an upload (its multipart body is parsed asynchronously): see answer(). */
function route(deps: GraphDeps, req: Request): Answer | Promise<Answer> {
  authorize(deps, req);
  const [id, edge, ...rest] = req.path.split('/').filter(Boolean);
  const { identity } = deps;
  if (id === undefined) throw unknownObject(req.method, '');
  if (edge === undefined && req.method === 'GET') return getObject(deps, id);
  if (id === identity.phoneNumberId && edge === 'messages' && rest.length === 0 && req.method === 'POST')
    return send(deps, jsonBody(req));
  if (id === identity.phoneNumberId && edge === 'media' && rest.length === 0 && req.method === 'POST')
    return uploadMedia(deps, req);
  if (id === identity.wabaId && edge === 'subscribed_apps' && rest.length === 0)
    return subscribedApps(deps, req.method);
  const known = id === identity.phoneNumberId || id === identity.wabaId || deps.world.media.has(id);
  if (!known) throw unknownObject(req.method, id);
  throw new CloudApiError(META_CODES.unknownPath, undefined, {
    message: `Unknown path components: /${[edge, ...rest].filter(Boolean).join('/')}`,
  });
}

/** Meta's error as the answer; anything else is the fake's own failure. */
function failed(error: unknown): { result: Answer; errorCode: number } {
  if (!(error instanceof CloudApiError)) throw error;
  return { result: { status: error.httpStatus, body: error.body() }, errorCode: error.code };
}

/**
 * Answers and logs a call. A message is shown, logged and answered in one go (a test that waits for
 * what the user sees finds the call logged too); only an upload awaits its body first.
 */
function answer(deps: GraphDeps, req: Request, res: Response): void | Promise<void> {
  let routed: Answer | Promise<Answer>;
  try {
    routed = route(deps, req);
  } catch (error) {
    return finish(deps, req, res, failed(error));
  }
  if (routed instanceof Promise)
    return routed.then(
      (result) => finish(deps, req, res, { result }),
      (error: unknown) => finish(deps, req, res, failed(error)),
    );
  finish(deps, req, res, { result: routed });
}

function finish(
  deps: GraphDeps,
  req: Request,
  res: Response,
  { result, errorCode }: { result: Answer; errorCode?: number },
): void {
  let body: unknown = result.logged;
  if (body === undefined && !/^multipart\//i.test(req.headers['content-type'] ?? '')) {
    try {
      body = jsonBody(req);
    } catch {
      body = undefined;
    }
  }
  deps.world.log({
    method: req.method,
    path: req.path,
    ...(body !== undefined ? { body } : {}),
    status: result.status,
    ...(errorCode !== undefined ? { errorCode } : {}),
    authorized: bearer(req) === deps.identity.accessToken,
    at: deps.world.now(),
  });
  res.status(result.status).json(result.body);
}

export function createGraphApp(deps: GraphDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Raw bytes: the token is checked before the body is read, as Graph does. Room for a 100 MB document's upload.
  app.use(express.raw({ type: () => true, limit: '101mb' }));
  app.use(`/${GRAPH_VERSION}`, (req, res, next) => {
    try {
      void answer(deps, req, res)?.catch(next);
    } catch (error) {
      next(error);
    }
  });
  app.use((req, res) => {
    res.status(400).json(
      new CloudApiError(META_CODES.unknownPath, undefined, {
        message: `Unknown path components: ${req.path} (the fake serves /${GRAPH_VERSION})`,
      }).body(),
    );
  });
  return app;
}
