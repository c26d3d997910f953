/**
 * The Graph API calls of one bot: JSON over HTTPS with the bearer token in a header (never in
 * a URL, so no log line of a URL shows it). A refusal is a MetaApiError with Meta's error
 * object, a call that got no answer a GraphUnreachableError (errors.ts maps both). Nothing is
 * retried here: the caller decides (outbound.ts waits out rate limits, the core the rest).
 */
import { request } from 'undici';
import { GraphUnreachableError, MetaApiError } from './errors.js';

/** Meta's Graph API with the version the adapter is written against (WHATSAPP_CLOUD_API_URL overrides it). */
export const DEFAULT_GRAPH_API_URL = 'https://graph.facebook.com/v23.0';
/** A call that has not answered by then counts as unreachable (and is retried by the core). */
export const GRAPH_TIMEOUT_MS = 30_000;
/** A media upload may carry 100 MB: it has this long (100 MB at about 3 Mbit/s). */
export const GRAPH_UPLOAD_TIMEOUT_MS = 5 * 60_000;

export interface GraphOptions {
  /** The Graph base with its version, e.g. https://graph.facebook.com/v23.0 (a fake or a proxy in tests). */
  apiUrl: string;
  accessToken: string;
  timeoutMs?: number;
}

export class GraphClient {
  readonly base: string;

  constructor(private readonly options: GraphOptions) {
    this.base = options.apiUrl.replace(/\/+$/, '');
  }

  /** `path` of ids joined with '/', e.g. ['1000001', 'messages']; each part URL-encoded. */
  get(path: readonly string[], call: string, signal?: AbortSignal): Promise<unknown> {
    return this.call('GET', path, undefined, call, signal);
  }

  post(path: readonly string[], body: unknown, call: string, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', path, body, call, signal);
  }

  /** A multipart POST (the media upload): undici writes the boundary and each part's Content-Type. */
  postForm(path: readonly string[], form: FormData, call: string, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', path, form, call, signal, GRAPH_UPLOAD_TIMEOUT_MS);
  }

  /** The header every call carries, and the media download (media.ts) with it. */
  authorization(): string {
    return `Bearer ${this.options.accessToken}`;
  }

  private async call(
    method: 'GET' | 'POST',
    path: readonly string[],
    body: unknown,
    call: string,
    signal?: AbortSignal,
    timeoutMs = this.options.timeoutMs ?? GRAPH_TIMEOUT_MS,
  ): Promise<unknown> {
    const url = `${this.base}/${path.map(encodeURIComponent).join('/')}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const form = body instanceof FormData;
    let status: number;
    let text: string;
    try {
      if (form) {
        // The runtime's own FormData goes with the runtime's own fetch: undici's request, a package of its
        // own version, does not always stream another undici's FormData whole (Node 24).
        const response = await fetch(url, {
          method,
          headers: { authorization: this.authorization() },
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        status = response.status;
        text = await response.text();
      } else {
        const response = await request(url, {
          method,
          headers: {
            authorization: this.authorization(),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        status = response.statusCode;
        text = await response.body.text();
      }
    } catch (error) {
      throw new GraphUnreachableError(call, error);
    }
    if (status < 200 || status >= 300) throw MetaApiError.fromResponse(call, status, text);
    try {
      return text === '' ? {} : (JSON.parse(text) as unknown);
    } catch {
      throw new MetaApiError(call, status, { message: `answered ${text.length} bytes that are not JSON` });
    }
  }
}
