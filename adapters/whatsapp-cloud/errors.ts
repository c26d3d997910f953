/**
 * What Meta said when it refused a Graph API call, in the only terms the core reacts to
 * (`PlatformError` kinds). Meta's `error.code` decides, whatever the HTTP status (it answers
 * 400 for most refusals, rate limits included, 429 for some; the notes, "Errors"):
 *
 *   130429 throughput, 131056 pair rate limit (and Graph's 4, 80007)  → 'rate-limited'
 *   131047 more than 24 h since the user's last message                → 'window-closed'
 *   5xx, 1, 2, 131000 (Meta failed on its side), 131057 (maintenance)  → 'unreachable'
 *   100 naming a text longer than allowed                              → 'too-long'
 *   190 (the access token expired or was revoked), or a 401 without a code  → 'unauthorized'
 *   anything else                                                      → 'other'
 *
 * The message carries Meta's code, error_subcode and fbtrace_id (what Meta's support asks
 * for); the access token is never in it (it travels in a header, never in a URL).
 */
import { PlatformError } from '../../src/contract.js';

/** Meta's codes the adapter reacts to, named as Meta's error-code reference names them. */
export const META_CODES = {
  unknown: 1,
  temporarilyUnavailable: 2,
  applicationRateLimit: 4,
  invalidParameter: 100,
  accessToken: 190,
  businessRateLimit: 80007,
  throughput: 130429,
  somethingWentWrong: 131000,
  parameterValueNotValid: 131009,
  reEngagement: 131047,
  pairRateLimit: 131056,
  maintenance: 131057,
} as const;

const RATE_LIMITS = new Set<number>([
  META_CODES.throughput,
  META_CODES.pairRateLimit,
  META_CODES.applicationRateLimit,
  META_CODES.businessRateLimit,
]);
const META_SIDE = new Set<number>([
  META_CODES.unknown,
  META_CODES.temporarilyUnavailable,
  META_CODES.somethingWentWrong,
  META_CODES.maintenance,
]);
/** How Meta words a parameter over its length: "Param text['body'] must be at most 4096 characters long." */
const TOO_LONG = /must be at most \d+ characters/i;

/** What to fix when Meta refuses the token (the words of the log and of /readyz). */
export const ACCESS_TOKEN_REFUSED =
  'Meta refuses the access token: set a working WHATSAPP_CLOUD_ACCESS_TOKEN (bots[].whatsappCloud.accessToken)';

/** A Graph API answer other than 2xx, with Meta's error object when it sent one. */
export class MetaApiError extends Error {
  constructor(
    readonly call: string,
    readonly httpStatus: number,
    readonly meta: {
      message?: string;
      type?: string;
      code?: number;
      subcode?: number;
      details?: string;
      fbtraceId?: string;
    },
  ) {
    super(`WhatsApp Cloud ${call} refused: ${describeMeta(httpStatus, meta)}`);
    this.name = 'MetaApiError';
  }

  get code(): number | undefined {
    return this.meta.code;
  }

  /** Meta's error JSON (`{error: {message, type, code, error_subcode, error_data: {details}, fbtrace_id}}`), or what the body was. */
  static fromResponse(call: string, httpStatus: number, body: string): MetaApiError {
    let error: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (parsed && typeof parsed.error === 'object' && parsed.error !== null)
        error = parsed.error as Record<string, unknown>;
    } catch {
      // A proxy's or a load balancer's page: only the status says anything.
    }
    if (!error) return new MetaApiError(call, httpStatus, { message: body.trim().slice(0, 200) || 'no body' });
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
    const data = error.error_data as Record<string, unknown> | undefined;
    const fields = {
      message: text(error.message),
      type: text(error.type),
      code: number(error.code),
      subcode: number(error.error_subcode),
      details: text(data?.details),
      fbtraceId: text(error.fbtrace_id),
    };
    return new MetaApiError(
      call,
      httpStatus,
      Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    );
  }
}

/** The Graph API did not answer (connection refused or reset, timeout). */
export class GraphUnreachableError extends Error {
  constructor(
    readonly call: string,
    cause: unknown,
  ) {
    super(`WhatsApp Cloud ${call}: the Graph API did not answer (${(cause as Error).message ?? String(cause)})`, {
      cause,
    });
    this.name = 'GraphUnreachableError';
  }
}

function describeMeta(httpStatus: number, meta: MetaApiError['meta']): string {
  const facts = [
    `HTTP ${httpStatus}`,
    meta.code !== undefined ? `code ${meta.code}` : undefined,
    meta.subcode !== undefined ? `error_subcode ${meta.subcode}` : undefined,
    meta.fbtraceId ? `fbtrace_id ${meta.fbtraceId}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  return `${meta.message ?? 'no message'}${meta.details ? `: ${meta.details}` : ''} (${facts})`;
}

export function isRateLimit(error: unknown): boolean {
  return error instanceof MetaApiError && error.code !== undefined && RATE_LIMITS.has(error.code);
}

export function isWindowClosed(error: unknown): boolean {
  return error instanceof MetaApiError && error.code === META_CODES.reEngagement;
}

/**
 * `retryAfterMs`: the wait a rate limit gets (the caller's backoff: Meta sends no Retry-After).
 * `sent`: what the call sent (`describeSent`), named in the error with the call for the log.
 */
export function toPlatformError(error: unknown, options: { retryAfterMs?: number; sent?: string } = {}): PlatformError {
  if (error instanceof PlatformError) return error;
  const sent = options.sent !== undefined ? { sent: options.sent } : {};
  if (error instanceof GraphUnreachableError)
    return new PlatformError(`${error.message}; the gateway tries again`, 'unreachable', undefined, {
      cause: error,
      method: error.call,
      ...sent,
    });
  if (!(error instanceof MetaApiError))
    return new PlatformError(`WhatsApp Cloud: ${(error as Error).message}`, 'other', undefined, {
      cause: error,
      ...sent,
    });
  const code = error.code;
  const platformCode = code === undefined ? `HTTP ${error.httpStatus}` : String(code);
  const as = (kind: PlatformError['kind'], message = error.message, retryAfterMs?: number) =>
    new PlatformError(message, kind, retryAfterMs, { cause: error, platformCode, method: error.call, ...sent });
  if (isRateLimit(error))
    return as('rate-limited', `${error.message}; tried again after a pause`, options.retryAfterMs);
  if (code === META_CODES.reEngagement) {
    return as(
      'window-closed',
      `${error.message}. More than 24 hours have passed since the user last wrote: ` +
        'WhatsApp takes only an approved template message to them now; their next message opens the window again.',
    );
  }
  if (error.httpStatus >= 500 || (code !== undefined && META_SIDE.has(code)))
    return as('unreachable', `${error.message}; Meta failed on its side, the gateway tries again`);
  if (code === META_CODES.invalidParameter && TOO_LONG.test(`${error.meta.message ?? ''} ${error.meta.details ?? ''}`))
    return as('too-long');
  if (code === META_CODES.accessToken || (code === undefined && error.httpStatus === 401))
    return as('unauthorized', `${error.message}; ${ACCESS_TOKEN_REFUSED}`);
  return as('other');
}
