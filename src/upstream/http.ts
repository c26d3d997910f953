import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { CallOptions } from './api.js';
import { Deadline } from './deadline.js';
import { dataOrThrow } from './envelope.js';
import { toUpstreamError } from './errors.js';
import type { UpstreamOperation } from './paths.js';
import { joinUrl } from './paths.js';

/** Which credential headers a call carries (the spec's Authentication rules). */
export type Credential = 'secret' | 'session' | 'both' | 'none';

export interface TransportOptions {
  baseUrl: string;
  secretKey: string;
  sessionKey: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  dispatcher?: Dispatcher;
}

export interface CallSpec {
  operation: UpstreamOperation;
  method: 'GET' | 'POST' | 'PUT';
  /** A path under the base URL, or an absolute URL (pre-upload URLs). */
  target: string;
  credential: Credential;
  /** Serialized as JSON. */
  json?: unknown;
  raw?: { bytes: Uint8Array; contentType: string };
  accept?: string;
  /** Safe to send twice: only these are retried (on 429, 5xx and connection failures). */
  idempotent: boolean;
}

export type RawResponse = Dispatcher.ResponseData;

/** Statuses worth another attempt: busy or temporarily broken, never a client error. */
const RETRY_STATUS_CODES = [429, 500, 502, 503, 504];
const RETRY_MAX_DELAY_MS = 10_000;

/**
 * HTTP for the upstream client: one keep-alive pool, credentials per the spec's
 * rules, a deadline on every call, and undici's retry interceptor for the
 * idempotent operations only.
 */
export class HttpTransport {
  private readonly ownAgent: Agent | null;
  private readonly plain: Dispatcher;
  private readonly retrying: Dispatcher;

  constructor(private readonly options: TransportOptions) {
    this.ownAgent = options.dispatcher ? null : new Agent({ keepAliveTimeout: 30_000, connections: 64 });
    this.plain = options.dispatcher ?? (this.ownAgent as Agent);
    this.retrying =
      options.retries > 0
        ? this.plain.compose(
            interceptors.retry({
              maxRetries: options.retries,
              minTimeout: options.retryDelayMs,
              maxTimeout: RETRY_MAX_DELAY_MS,
              timeoutFactor: 2,
              // The caller vouches for idempotency (CallSpec.idempotent), whatever the method.
              methods: ['GET', 'POST', 'PUT'],
              statusCodes: RETRY_STATUS_CODES,
              // Hand the last failed response over, so its envelope's Message reaches the error.
              throwOnError: false,
            }),
          )
        : this.plain;
  }

  get defaultTimeoutMs(): number {
    return this.options.timeoutMs;
  }

  deadline(options: CallOptions | undefined): Deadline {
    return new Deadline(options?.signal, options?.timeoutMs ?? this.options.timeoutMs);
  }

  /** Sends the request; the caller reads (and must consume or destroy) the body. Errors are UpstreamErrors. */
  async open(spec: CallSpec, deadline: Deadline): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json' };
    if (spec.credential === 'secret' || spec.credential === 'both') headers.authorization = this.options.secretKey;
    if (spec.credential === 'session' || spec.credential === 'both')
      headers['chatrobot-sessionkey'] = this.options.sessionKey;
    let body: string | Uint8Array | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.raw) {
      headers['content-type'] = spec.raw.contentType;
      body = spec.raw.bytes;
    }
    const url = /^https?:\/\//i.test(spec.target) ? spec.target : joinUrl(this.options.baseUrl, spec.target);
    try {
      return await request(url, {
        method: spec.method,
        headers,
        body,
        signal: deadline.signal,
        dispatcher: spec.idempotent ? this.retrying : this.plain,
      });
    } catch (error) {
      throw toUpstreamError(error, spec.operation, deadline.cause, deadline.timeoutMs);
    }
  }

  /** A whole call whose answer is the JSON envelope: returns its `Data` (and the HTTP status). */
  async call(spec: CallSpec, options: CallOptions | undefined): Promise<{ status: number; data: unknown }> {
    const deadline = this.deadline(options);
    try {
      const response = await this.open(spec, deadline);
      const text = await response.body.text();
      return { status: response.statusCode, data: dataOrThrow(spec.operation, response.statusCode, text) };
    } catch (error) {
      throw toUpstreamError(error, spec.operation, deadline.cause, deadline.timeoutMs);
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    await this.ownAgent?.close();
  }
}
