/**
 * How Meta posts a webhook (/work/shared/notes/whatsapp-cloud.md, "Webhook", "Delivery"): JSON with
 * non-ASCII characters escaped as \uXXXX, signed over those exact bytes (`X-Hub-Signature-256:
 * sha256=<hex>` of HMAC-SHA256 with the app secret), and posted again with backoff until the
 * answer is a 200 (Meta keeps trying for 7 days; the fake a few times quickly). A receiver that
 * re-serialises the parsed JSON before checking computes another HMAC: only the raw bytes verify.
 */
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Meta's delays between tries are minutes to hours over 7 days; a test needs seconds. These
 * cover a gateway still starting (answering 503 behind its WebhookGate) for about 15 s.
 */
export const DEFAULT_REDELIVERY_DELAYS_MS = [100, 200, 400, 800, 1600, 3200, 4000, 5000];
/**
 * How long the fake waits for an answer before it counts the try as failed. Sources disagree on
 * Meta's timeout (3 s to 20 s, per the notes); 10 s sits between them.
 */
export const DEFAULT_ACK_TIMEOUT_MS = 10_000;

/** JSON as Meta sends it: every character outside ASCII as \uXXXX (a UTF-16 unit each, surrogates as pairs). */
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function signature(appSecret: string, raw: Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

export interface PostResult {
  status: number;
  body: string;
}

/**
 * One POST of the raw bytes. `signatureHeader`: the header's value, or null for none.
 * Rejects when the request fails or times out.
 */
export async function postWebhook(
  url: string,
  raw: Buffer,
  signatureHeader: string | null,
  timeoutMs: number,
  stop?: AbortSignal,
): Promise<PostResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'facebookexternalua' };
  if (signatureHeader !== null) headers['x-hub-signature-256'] = signatureHeader;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
  const response = await fetch(url, { method: 'POST', headers, body: raw, signal });
  return { status: response.status, body: await response.text() };
}

export interface DeliveryOptions {
  url: () => string | undefined;
  appSecret: string;
  delaysMs: readonly number[];
  ackTimeoutMs: number;
  /** Told of every try (the gateway's status, or 'error'). */
  onAttempt: (status: number | 'error') => void;
  /** Aborted when the fake closes: stops waiting and redelivering. */
  stop: AbortSignal;
}

/**
 * Posts the body signed, again after each delay until a 200; rejects with what happened
 * after the last try (or at once when no webhook URL is set).
 */
export async function deliverUntilOk(raw: Buffer, options: DeliveryOptions): Promise<void> {
  const header = signature(options.appSecret, raw);
  let last = '';
  for (let attempt = 0; attempt <= options.delaysMs.length; attempt++) {
    if (attempt > 0)
      await sleep(options.delaysMs[attempt - 1], undefined, { signal: options.stop }).catch(() => undefined);
    if (options.stop.aborted) throw new Error('fake WhatsApp Cloud: closed while delivering a webhook');
    const url = options.url();
    if (!url) throw new Error('fake WhatsApp Cloud: no webhook URL; call setWebhook(url) first');
    try {
      const { status, body } = await postWebhook(url, raw, header, options.ackTimeoutMs, options.stop);
      options.onAttempt(status);
      if (status === 200) return;
      last = `HTTP ${status} ${body.slice(0, 200)}`;
    } catch (error) {
      options.onAttempt('error');
      last = error instanceof Error ? error.message : String(error);
    }
  }
  throw new Error(
    `fake WhatsApp Cloud: the webhook never answered 200 in ${options.delaysMs.length + 1} tries (last: ${last})`,
  );
}
