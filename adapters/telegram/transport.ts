/**
 * grammY's Bot API calls over undici's request() instead of node-fetch on Node's
 * http module: the HTTP client was the largest slice of CPU per answer (BENCHMARKS.md, the peers'
 * floors). grammY only needs
 * `fetch(url, init)` resolving to something with `json()`, so that is all this is:
 * not a general fetch (Node's own fetch, also undici, was twice as slow as node-fetch).
 */
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { Bot } from 'grammy';

/** grammY's `client.fetch` option (typed as node-fetch's fetch). */
export type GrammyFetch = NonNullable<
  NonNullable<NonNullable<ConstructorParameters<typeof Bot>[1]>['client']>['fetch']
>;

/** What grammY's client passes: a JSON string, or a multipart stream for uploads; its own signal (the abort-controller polyfill). */
interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Readable;
  signal?: unknown;
}

/**
 * Sockets to the Bot API stay open between calls (one TLS handshake, not one per message).
 * Idle ones close after a while; undici unrefs them, so they never keep the process up.
 */
const KEEP_ALIVE_MS = 30_000;

let shared: Dispatcher | undefined;

/** One pool for every bot of the process: all of them talk to the same Bot API origin(s). */
function botApiDispatcher(): Dispatcher {
  shared ??= new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS });
  return shared;
}

/**
 * The fetch grammY calls. Connection failures reject with undici's error (e.g. "connect
 * ECONNREFUSED 127.0.0.1:443", no URL and so no token), which grammY wraps in HttpError
 * as it did node-fetch's; the adapter maps that to 'unreachable'. An abort (grammY's timeout,
 * the runner's stop) rejects the same way.
 */
export function undiciFetch(dispatcher: Dispatcher = botApiDispatcher()): GrammyFetch {
  const call = async (url: string | URL, init: CallInit = {}) => {
    const response = await request(url, {
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      // Any object with addEventListener('abort') works for undici, the polyfill included.
      ...(init.signal ? { signal: init.signal as AbortSignal } : {}),
      dispatcher,
    });
    const { statusCode, body } = response;
    return {
      ok: statusCode >= 200 && statusCode < 300,
      status: statusCode,
      // grammY reads every answer as JSON (errors too: {ok:false, error_code, description}); a page
      // that is not JSON (a proxy's 502) rejects here and becomes grammY's HttpError.
      json: () => body.json(),
      text: () => body.text(),
    };
  };
  // Only json() of the answer is used by grammY's client; its option is typed as node-fetch's full fetch.
  return call as unknown as GrammyFetch;
}
