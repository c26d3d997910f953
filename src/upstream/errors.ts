import type { UpstreamOperation } from './paths.js';

/**
 * - http: the service answered with a non-2xx status.
 * - envelope: 2xx, but the envelope says `Success: false` (or a stream carried an error object).
 * - network: the request never got an answer (refused, reset, DNS).
 * - timeout: the call's timeout (or a stream's idle timeout) expired.
 * - aborted: the caller's AbortSignal fired.
 * - invalid-response: the body was not what the API documents (unparsable, wrong shape).
 */
export type UpstreamErrorKind = 'http' | 'envelope' | 'network' | 'timeout' | 'aborted' | 'invalid-response';

export interface UpstreamErrorInit {
  kind: UpstreamErrorKind;
  operation: UpstreamOperation;
  message: string;
  status?: number | null;
  code?: number | null;
  cause?: unknown;
}

/**
 * Every failure of the upstream client. `message` is the service's own `Message`
 * when it sent one, otherwise a description of what went wrong; `hint` says what
 * an operator can do about it, when we can tell.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  readonly operation: UpstreamOperation;
  /** HTTP status of the response, or null when there was none. */
  readonly status: number | null;
  /** The envelope's `Code`, or null when there was no envelope. */
  readonly code: number | null;
  readonly hint: string | null;

  constructor(init: UpstreamErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.hint = hintFor(init.kind, this.status, this.code);
  }

  /** Whether trying again later may succeed (the service or the network was down, or busy). */
  get transient(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    const status = this.status ?? 0;
    return status === 429 || status >= 500;
  }
}

function hintFor(kind: UpstreamErrorKind, status: number | null, code: number | null): string | null {
  const authFailure = status === 401 || status === 403 || code === 401 || code === 403;
  if (authFailure) {
    return 'check the upstream secret key (UPSTREAM_SECRET_KEY) and session key (UPSTREAM_SESSION_KEY)';
  }
  if (status === 404) return 'check UPSTREAM_BASE_URL and the configured upstream paths';
  if (kind === 'network') return 'check that UPSTREAM_BASE_URL is reachable from this host';
  if (kind === 'timeout') return 'the service is slow or unreachable; raise the upstream timeout if answers are long';
  return null;
}

/**
 * Why a call was cut short by us: set by the call's deadline before it aborts the
 * request, so the resulting undici error can be told apart from a network failure.
 */
export type AbortCause = 'timeout' | 'aborted' | null;

/** Turns whatever a call threw into an UpstreamError, keeping one that already is. */
export function toUpstreamError(
  error: unknown,
  operation: UpstreamOperation,
  abortCause: AbortCause,
  timeoutMs?: number,
): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (abortCause === 'timeout') {
    const after = timeoutMs === undefined ? '' : ` after ${timeoutMs} ms`;
    return new UpstreamError({ kind: 'timeout', operation, message: `${operation} timed out${after}`, cause: error });
  }
  if (abortCause === 'aborted') {
    return new UpstreamError({
      kind: 'aborted',
      operation,
      message: `${operation} was aborted by the caller`,
      cause: error,
    });
  }
  const detail = error instanceof Error ? describeNetworkError(error) : String(error);
  return new UpstreamError({
    kind: 'network',
    operation,
    message: `${operation} could not reach the service: ${detail}`,
    cause: error,
  });
}

function describeNetworkError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const nested = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return typeof code === 'string' ? `${code}: ${error.message}${nested}` : `${error.message}${nested}`;
}
