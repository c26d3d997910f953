/**
 * A fake WhatsApp Business Cloud API for tests and benchmarks: Meta's Graph API on one origin,
 * the media (lookaside) on another, and the webhook sender, enforcing what Meta enforces
 * (/work/shared/notes/whatsapp-cloud.md):
 *
 * - Graph at `apiUrl` (`http://127.0.0.1:<port>/v23.0`), bearer token on every call (401, code 190),
 *   errors in Meta's JSON shape (errors.ts). `POST /{phone-number-id}/messages`: Meta's body rules
 *   (validation.ts: text ≤ 4,096, reply buttons and lists within their limits, no `edit` or any
 *   unknown key), the read + typing call on a real inbound wamid, 131047 past 24 h since the user's
 *   last message (templates exempt), 130429 over the number's throughput, 131056 over the pair rate
 *   limit (limits.ts). `POST /{phone-number-id}/media` (uploads.ts: Meta's types and sizes by type),
 *   media messages by the id of an upload (the user's file kept in `visibleMessages`),
 *   `GET /{media-id}`, `GET /{phone-number-id}`, `…/{waba-id}/subscribed_apps`.
 * - Media at `mediaOrigin`: URLs valid 5 minutes that need the token (media-server.ts).
 * - Webhooks (webhooks.ts): Meta's envelope, non-ASCII escaped, signed over the bytes sent,
 *   posted again until a 200; duplicates and held (reordered) deliveries on request; statuses of
 *   every accepted message (sent, delivered, read; every second message's read before its
 *   delivered), and `failed` with errors[] when scripted.
 *
 *   const cloud = await startFakeWhatsAppCloud();
 *   cloud.setWebhook(`${gateway}/whatsapp-cloud/webhook`);
 *   await cloud.userSends({ from: '4915112345678', text: 'hi' });
 *   await cloud.waitFor(() => cloud.visibleMessages('4915112345678').length > 0);
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { randomInt } from 'node:crypto';
import {
  messageEnvelope,
  otherFieldEnvelope,
  statusEnvelope,
  type Business,
  type Envelope,
  type InboundEntry,
  type StatusName,
} from './envelopes.js';
import { detailsOf, titleOf } from './errors.js';
import { inboundMessage, type UserMessage } from './inbound.js';
import {
  DEFAULT_THROUGHPUT_PER_SECOND,
  FailureScript,
  PAIR_BURST,
  PAIR_PER_SECONDS,
  PairLimiter,
  ThroughputLimiter,
  type PairRateLimit,
} from './limits.js';
import { createMediaApp } from './media-server.js';
import { GRAPH_VERSION, createGraphApp } from './server.js';
import {
  DEFAULT_ACK_TIMEOUT_MS,
  DEFAULT_REDELIVERY_DELAYS_MS,
  deliverUntilOk,
  metaJson,
  postWebhook,
  signature,
} from './webhooks.js';
import {
  World,
  type LoggedCloudCall,
  type MediaDownload,
  type ReadMark,
  type VisibleCloudMessage,
  type WebhookAttempt,
} from './world.js';
import { waitForChange } from '../wait-for.js';

export { GRAPH_VERSION } from './server.js';
export { MEDIA_URL_TTL_MS } from './media-server.js';
export { DEFAULT_THROUGHPUT_PER_SECOND, PAIR_BURST, PAIR_PER_SECONDS, SERVICE_WINDOW_MS } from './limits.js';
export {
  MAX_BUTTONS,
  MAX_BUTTON_BODY,
  MAX_BUTTON_ID,
  MAX_BUTTON_TITLE,
  MAX_FOOTER,
  MAX_HEADER,
  MAX_LIST_BUTTON,
  MAX_LIST_ROWS,
  MAX_LIST_SECTIONS,
  MAX_ROW_DESCRIPTION,
  MAX_ROW_ID,
  MAX_ROW_TITLE,
} from './interactive.js';
export { MAX_CAPTION, MAX_TEXT_BODY } from './validation.js';
export { UPLOAD_LIMITS } from './uploads.js';
export { metaJson, signature as signWebhook } from './webhooks.js';
export type {
  Envelope,
  LoggedCloudCall,
  MediaDownload,
  PairRateLimit,
  ReadMark,
  UserMessage,
  VisibleCloudMessage,
  WebhookAttempt,
};

export interface FakeWhatsAppCloudOptions {
  /** Default 'fake-cloud-access-token'. */
  accessToken?: string;
  /** Signs every webhook. Default 'fake-cloud-app-secret'. */
  appSecret?: string;
  /** What the handshake sends as hub.verify_token. Default 'fake-cloud-verify-token'. */
  verifyToken?: string;
  /** Default '100000000000001'. */
  phoneNumberId?: string;
  /** Default '200000000000001'. */
  wabaId?: string;
  /** Default '15550000001'. */
  displayPhoneNumber?: string;
  /** Default 'Fake Business'. */
  verifiedName?: string;
  /** Default Meta's (burst PAIR_BURST in PAIR_PER_SECONDS, then 1 per PAIR_PER_SECONDS); false turns it off. */
  pairRateLimit?: PairRateLimit | false;
  /** Messages per second of the number; over it 130429. Default 80; false turns it off. */
  throughputPerSecond?: number | false;
  /** The fake's clock (ms): the 24-hour window, media expiry, rate limits and timestamps use it. Default Date.now. */
  clock?: () => number;
  /** Post sent/delivered/read statuses of every accepted message. Default true. */
  statusWebhooks?: boolean;
  /**
   * The number is on the WhatsApp Business app as well ("Coexistence"): a user's edit and revoke are
   * posted as `edit` and `revoke` messages. Default false: as for a number on the Cloud API alone,
   * they come as `unsupported`.
   */
  coexistence?: boolean;
  /** Delays between webhook tries until a 200 (default DEFAULT_REDELIVERY_DELAYS_MS: 9 tries over about 15 s). */
  redeliveryDelaysMs?: readonly number[];
  /** A try without an answer this long counts as failed. Default DEFAULT_ACK_TIMEOUT_MS. */
  ackTimeoutMs?: number;
}

export interface FakeWhatsAppCloud {
  /** Graph base with version, e.g. http://127.0.0.1:<port>/v23.0 */
  readonly apiUrl: string;
  /** Another origin (a second listening server) serving media URLs, as lookaside.fbsbx.com does. */
  readonly mediaOrigin: string;
  readonly accessToken: string;
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly phoneNumberId: string;
  readonly wabaId: string;
  readonly displayPhoneNumber: string;
  /** Where the fake posts webhooks (the gateway's /whatsapp-cloud/webhook or /whatsapp-cloud/<bot>/webhook). */
  setWebhook(url: string): void;
  /** Meta's handshake: GET url?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…; the gateway's status and body, and the challenge sent. */
  verifyWebhook(options?: { verifyToken?: string }): Promise<{ status: number; body: string; challenge: string }>;
  /**
   * A user sends one thing: Meta's envelope, signed over the raw bytes, posted until a 200; returns the
   * wamid. `duplicate`: delivered twice at once. `holdUntil`: posted only once it resolves (send another
   * meanwhile to reorder). Rejects when the webhook never answered 200.
   */
  userSends(message: UserMessage, options?: { duplicate?: boolean; holdUntil?: Promise<void> }): Promise<string>;
  /** Several user messages in one webhook (Meta batches them); returns their wamids in order. */
  usersSendTogether(messages: UserMessage[]): Promise<string[]>;
  /** Posts any body once, signed over its bytes as given (or with `signature`, null for none); the gateway's answer. */
  postRaw(body: string | Buffer, options?: { signature?: string | null }): Promise<{ status: number; body: string }>;
  /** Posts one change of another field (account_update, message_template_status_update…), signed; the gateway's status. */
  postOtherField(field: string): Promise<number>;
  /** What a user sees from the business, in order: text, interactive, media (with the file's bytes), templates, with their wamids. */
  visibleMessages(user: string): VisibleCloudMessage[];
  /** Every Graph API call, in order. */
  calls(): LoggedCloudCall[];
  /** Read marks (with or without the typing indicator) on user messages. */
  readMarks(): ReadMark[];
  /**
   * The next `times` (default 1) sends, to `to` or to anyone, answer Meta's `code` (131056, 130429,
   * 131047…; 500–599 is an HTTP failure of Meta's own, 131000 in the body) with `httpStatus` or Meta's
   * usual one. `via: 'status'`: accepted, then a `failed` status with the code in the webhook.
   */
  failNext(options: {
    code: number;
    times?: number;
    to?: string;
    httpStatus?: number;
    via?: 'response' | 'status';
  }): void;
  /**
   * While `refused`, every Graph API call answers as Meta does for a revoked token (401, code 190,
   * error_subcode 460), though the token is the same one: Meta checks it on every call.
   */
  refuseToken(refused: boolean): void;
  /** Requests to the media origin: the media id, whether the token came, bytes served (0 when refused). */
  mediaDownloads(): MediaDownload[];
  /** Every webhook try and the gateway's answer. */
  webhookAttempts(): WebhookAttempt[];
  /** Whether POST /{waba-id}/subscribed_apps was called (and not undone). */
  isSubscribed(): boolean;
  waitFor(condition: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  close(): Promise<void>;
}

async function listen(app: Express): Promise<{ server: Server; origin: string }> {
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startFakeWhatsAppCloud(options: FakeWhatsAppCloudOptions = {}): Promise<FakeWhatsAppCloud> {
  const clock = options.clock ?? Date.now;
  const world = new World(clock);
  const identity = {
    accessToken: options.accessToken ?? 'fake-cloud-access-token',
    phoneNumberId: options.phoneNumberId ?? '100000000000001',
    wabaId: options.wabaId ?? '200000000000001',
    displayPhoneNumber: options.displayPhoneNumber ?? '15550000001',
    verifiedName: options.verifiedName ?? 'Fake Business',
  };
  const appSecret = options.appSecret ?? 'fake-cloud-app-secret';
  const verifyToken = options.verifyToken ?? 'fake-cloud-verify-token';
  const business: Business = {
    wabaId: identity.wabaId,
    phoneNumberId: identity.phoneNumberId,
    displayPhoneNumber: identity.displayPhoneNumber,
  };
  const pairRule =
    options.pairRateLimit === false
      ? null
      : (options.pairRateLimit ?? { burst: PAIR_BURST, perSeconds: PAIR_PER_SECONDS });
  const throughput =
    options.throughputPerSecond === false ? null : (options.throughputPerSecond ?? DEFAULT_THROUGHPUT_PER_SECOND);
  const failures = new FailureScript();
  const stop = new AbortController();
  const ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
  let webhookUrl: string | undefined;
  let sentCount = 0;

  const deliver = (envelope: Envelope, kind: WebhookAttempt['kind'], id: string): Promise<void> =>
    deliverUntilOk(Buffer.from(metaJson(envelope)), {
      url: () => webhookUrl,
      appSecret,
      delaysMs: options.redeliveryDelaysMs ?? DEFAULT_REDELIVERY_DELAYS_MS,
      ackTimeoutMs,
      stop: stop.signal,
      onAttempt: (status) => world.attempt({ kind, id, status, at: clock() }),
    });

  /** Statuses go one after another in the background; a gateway that never takes them fails nothing else. */
  const postStatuses = (to: string, wamid: string, statuses: StatusName[], errorCode?: number): void => {
    if (!webhookUrl) return;
    const error =
      errorCode === undefined
        ? undefined
        : { code: errorCode, title: titleOf(errorCode), message: titleOf(errorCode), details: detailsOf(errorCode) };
    void (async () => {
      for (const status of statuses) {
        await deliver(
          statusEnvelope(business, { wamid, status, recipient: to, atMs: clock(), ...(error ? { error } : {}) }),
          'status',
          `${wamid}/${status}`,
        );
      }
    })().catch(() => undefined);
  };

  /** FakeWhatsAppCloud.refuseToken. */
  let tokenRefused = false;
  const graph = await listen(
    createGraphApp({
      world,
      identity,
      failures,
      pair: new PairLimiter(pairRule, clock),
      throughput: new ThroughputLimiter(throughput, clock),
      mediaOrigin: () => media.origin,
      tokenRefused: () => tokenRefused,
      onSent: (to, wamid) => {
        if (options.statusWebhooks === false) return;
        sentCount += 1;
        // "Delivered" can arrive after "read" (the notes): every second message shows it.
        postStatuses(to, wamid, sentCount % 2 === 0 ? ['sent', 'read', 'delivered'] : ['sent', 'delivered', 'read']);
      },
      onFailedLater: (to, wamid, code) => postStatuses(to, wamid, ['failed'], code),
    }),
  );
  const media = await listen(createMediaApp(world, identity.accessToken));

  /** Meta knows a message (its wamid, the window it opens) before it posts it. */
  const receive = (message: UserMessage): InboundEntry => {
    const notice = message.userIdChanged !== undefined;
    const entry: InboundEntry = {
      user: { waId: message.from, name: message.name ?? `User ${message.from.slice(-4)}` },
      wamid: world.newWamid(),
      atMs: clock(),
      message: inboundMessage(world, message, {
        displayPhoneNumber: identity.displayPhoneNumber,
        coexistence: options.coexistence === true,
      }),
      ...(notice ? { notice } : {}),
    };
    // A notice is Meta's, not a message of the user's: it opens no window. Nor, here, does a change to
    // a message sent before (Meta does not say whether an edit or a revoke counts as the user writing).
    const change = message.edit !== undefined || message.revoke !== undefined;
    if (!notice && !change) world.recordInbound(message.from, entry.wamid, entry.atMs, entry.message);
    return entry;
  };

  const userSends: FakeWhatsAppCloud['userSends'] = async (message, sendOptions = {}) => {
    const entry = receive(message);
    if (sendOptions.holdUntil) await sendOptions.holdUntil;
    const once = (): Promise<void> => deliver(messageEnvelope(business, [entry]), 'message', entry.wamid);
    await (sendOptions.duplicate ? Promise.all([once(), once()]) : once());
    return entry.wamid;
  };

  return {
    apiUrl: `${graph.origin}/${GRAPH_VERSION}`,
    mediaOrigin: media.origin,
    accessToken: identity.accessToken,
    appSecret,
    verifyToken,
    phoneNumberId: identity.phoneNumberId,
    wabaId: identity.wabaId,
    displayPhoneNumber: identity.displayPhoneNumber,
    setWebhook: (url) => {
      webhookUrl = url;
    },
    verifyWebhook: async ({ verifyToken: token = verifyToken } = {}) => {
      if (!webhookUrl) throw new Error('fake WhatsApp Cloud: no webhook URL; call setWebhook(url) first');
      const challenge = String(randomInt(1, 2 ** 31 - 1));
      const url = new URL(webhookUrl);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.verify_token', token);
      url.searchParams.set('hub.challenge', challenge);
      const response = await fetch(url, {
        headers: { 'user-agent': 'facebookplatform/1.0 (+http://developers.facebook.com)' },
        signal: AbortSignal.timeout(ackTimeoutMs),
      });
      return { status: response.status, body: await response.text(), challenge };
    },
    userSends,
    usersSendTogether: async (messages) => {
      if (messages.length === 0) throw new Error('fake WhatsApp Cloud: usersSendTogether needs at least one message');
      const entries = messages.map(receive);
      await deliver(messageEnvelope(business, entries), 'message', entries.map((e) => e.wamid).join(','));
      return entries.map((e) => e.wamid);
    },
    postRaw: async (body, { signature: given } = {}) => {
      if (!webhookUrl) throw new Error('fake WhatsApp Cloud: no webhook URL; call setWebhook(url) first');
      const raw = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
      const result = await postWebhook(
        webhookUrl,
        raw,
        given === undefined ? signature(appSecret, raw) : given,
        ackTimeoutMs,
        stop.signal,
      );
      world.attempt({ kind: 'raw', id: '', status: result.status, at: clock() });
      return result;
    },
    postOtherField: async (field) => {
      if (!webhookUrl) throw new Error('fake WhatsApp Cloud: no webhook URL; call setWebhook(url) first');
      const raw = Buffer.from(metaJson(otherFieldEnvelope(business, field, clock())));
      const { status } = await postWebhook(webhookUrl, raw, signature(appSecret, raw), ackTimeoutMs, stop.signal);
      world.attempt({ kind: 'other', id: field, status, at: clock() });
      return status;
    },
    visibleMessages: (user) => world.visibleMessages(user),
    calls: () => [...world.calls],
    readMarks: () => [...world.readMarks],
    failNext: ({ times = 1, ...failure }) => failures.add(failure, times),
    mediaDownloads: () => [...world.downloads],
    webhookAttempts: () => [...world.webhookAttempts],
    refuseToken: (refused) => {
      tokenRefused = refused;
    },
    isSubscribed: () => world.subscribed,
    waitFor: (condition, waitOptions) => waitForChange('fake WhatsApp Cloud', world, condition, waitOptions),
    close: async () => {
      stop.abort();
      await Promise.all([closeServer(graph.server), closeServer(media.server)]);
    },
  };
}
