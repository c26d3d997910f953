/**
 * Slack's request signing (docs/platforms.md §B.3): `v0=HMAC-SHA256(secret,
 * "v0:" + timestamp + ":" + raw body)` in `x-slack-signature`, the timestamp
 * (seconds) in `x-slack-request-timestamp`. And a POST of a signed event to a
 * gateway, as Slack's Events API / interactivity / slash commands send it.
 */
import { createHmac } from 'node:crypto';

export interface SignedHeaders {
  'x-slack-request-timestamp': string;
  'x-slack-signature': string;
}

export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
): SignedHeaders {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${rawBody}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestampSeconds), 'x-slack-signature': `v0=${signature}` };
}

/** A JSON body (Events API), or form fields (interactivity's `payload`, slash commands). */
export type SlackRequestBody = object | URLSearchParams;

export interface SignedRequestOptions {
  /** Redelivery number (1..3) in `X-Slack-Retry-Num`. */
  retryNum?: number;
  /** `X-Slack-Retry-Reason` (default 'http_timeout' when retryNum is set). */
  retryReason?: string;
  /** Signing timestamp in seconds (e.g. 6 minutes ago to test the replay window). Default now. */
  timestampSeconds?: number;
  /** Sign with this secret instead (a forged request). */
  signWith?: string;
  /** Replace the signature header altogether. */
  signature?: string;
  signal?: AbortSignal;
}

/** The raw body and content type Slack would send for this body. */
export function encodeSlackBody(body: SlackRequestBody): { raw: string; contentType: string } {
  if (body instanceof URLSearchParams)
    return { raw: body.toString(), contentType: 'application/x-www-form-urlencoded' };
  return { raw: JSON.stringify(body), contentType: 'application/json' };
}

/** POSTs a signed Slack request to `url` (e.g. `http://127.0.0.1:PORT/slack/events`) and returns the gateway's answer. */
export function signedEventRequest(
  url: string,
  signingSecret: string,
  body: SlackRequestBody,
  options: SignedRequestOptions = {},
): Promise<Response> {
  return signedRawRequest(url, signingSecret, encodeSlackBody(body), options);
}

/** The same with the body's bytes as given: one that JSON.stringify cannot make (nested too deep), or that is not JSON at all. */
export async function signedRawRequest(
  url: string,
  signingSecret: string,
  { raw, contentType }: { raw: string; contentType: string },
  options: SignedRequestOptions = {},
): Promise<Response> {
  const signed = signSlackRequest(options.signWith ?? signingSecret, raw, options.timestampSeconds);
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    ...signed,
    ...(options.signature !== undefined ? { 'x-slack-signature': options.signature } : {}),
  };
  if (options.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = options.retryReason ?? 'http_timeout';
  }
  return fetch(url, { method: 'POST', headers, body: raw, signal: options.signal });
}
