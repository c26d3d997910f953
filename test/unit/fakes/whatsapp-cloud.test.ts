/**
 * The fake Cloud API enforces Meta's rules that the whatsapp-cloud adapter's tests rely on; each
 * rule is proved here with plain HTTP (undici) against the Graph origin, the media origin and a
 * tiny webhook receiver that keeps the raw bytes it was sent.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeWhatsAppCloud, type FakeWhatsAppCloud, type FakeWhatsAppCloudOptions } from '../../../fakes/whatsapp-cloud/index.js';

const USER = '4915112345678';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A webhook endpoint that records every request and answers with the next scripted status (200 when none). */
interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer, in order, before answering 200. */
  answers: number[];
  close(): Promise<void>;
}

let cloud: FakeWhatsAppCloud | undefined;
let receiver: Receiver | undefined;

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET') {
        res.writeHead(200).end(url.searchParams.get('hub.challenge') ?? '');
        return;
      }
      res.writeHead(answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/whatsapp-cloud/webhook`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function start(options: FakeWhatsAppCloudOptions = {}): Promise<{ cloud: FakeWhatsAppCloud; receiver: Receiver }> {
  cloud = await startFakeWhatsAppCloud({ statusWebhooks: false, redeliveryDelaysMs: [10, 10, 10], ...options });
  receiver = await startReceiver();
  cloud.setWebhook(receiver.url);
  return { cloud, receiver };
}

afterEach(async () => {
  await cloud?.close();
  await receiver?.close();
  cloud = undefined;
  receiver = undefined;
});

/** A Graph call with the fake's token unless told otherwise; the status and parsed JSON answer. */
async function graph(
  fake: FakeWhatsAppCloud,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  token: string | null = fake.accessToken,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await request(`${fake.apiUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

function errorOf(json: Record<string, unknown>): { code: number; message: string; type: string; fbtrace_id: string; error_data?: { details: string } } {
  return json.error as { code: number; message: string; type: string; fbtrace_id: string; error_data?: { details: string } };
}

function sendText(fake: FakeWhatsAppCloud, to: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return graph(fake, 'POST', `/${fake.phoneNumberId}/messages`, { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body } });
}

describe('fake WhatsApp Cloud: Graph API', () => {
  it('answers 401 with code 190 in Meta’s error JSON without the bearer token or with a wrong one', async () => {
    const { cloud } = await start();
    for (const token of [null, 'wrong-token']) {
      const { status, json } = await graph(cloud, 'GET', `/${cloud.phoneNumberId}`, undefined, token);
      expect(status).toBe(401);
      const error = errorOf(json);
      expect(error.code).toBe(190);
      expect(error.type).toBe('OAuthException');
      expect(error.fbtrace_id).toMatch(/^[\w-]{10,}$/);
    }
    expect(cloud.calls().map((c) => [c.status, c.authorized])).toEqual([[401, false], [401, false]]);
  });

  it('tells doctor the number (GET /{phone-number-id})', async () => {
    const { cloud } = await start();
    const { status, json } = await graph(cloud, 'GET', `/${cloud.phoneNumberId}`);
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: cloud.phoneNumberId, display_phone_number: cloud.displayPhoneNumber, verified_name: 'Fake Business' });
  });

  it('lists no subscribed app until POST /{waba-id}/subscribed_apps', async () => {
    const { cloud } = await start();
    expect((await graph(cloud, 'GET', `/${cloud.wabaId}/subscribed_apps`)).json).toEqual({ data: [] });
    expect((await graph(cloud, 'POST', `/${cloud.wabaId}/subscribed_apps`)).json).toEqual({ success: true });
    const after = await graph(cloud, 'GET', `/${cloud.wabaId}/subscribed_apps`);
    expect((after.json.data as unknown[]).length).toBe(1);
    expect(cloud.isSubscribed()).toBe(true);
  });

  it('answers an unknown object with code 100, subcode 33', async () => {
    const { cloud } = await start();
    const { status, json } = await graph(cloud, 'GET', '/123456');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

describe('fake WhatsApp Cloud: webhooks', () => {
  it('signs the exact bytes it sends, with non-ASCII text escaped as \\uXXXX, so only the raw bytes verify', async () => {
    const { cloud, receiver } = await start();
    const text = 'Grüße aus Köln 👋 — user@example.com';
    const wamid = await cloud.userSends({ from: USER, name: 'Zoë', text });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const raw = delivery!.raw;
    expect(raw.toString('latin1')).toMatch(/^[\x20-\x7e]*$/);
    expect(raw.toString()).toContain('Gr\\u00fc\\u00dfe');
    expect(raw.toString()).toContain('\\ud83d\\udc4b');
    const expected = `sha256=${createHmac('sha256', cloud.appSecret).update(raw).digest('hex')}`;
    expect(delivery!.headers['x-hub-signature-256']).toBe(expected);
    const parsed = JSON.parse(raw.toString()) as { entry: { changes: { value: { messages: { id: string; text: { body: string } }[] } }[] }[] };
    const message = parsed.entry[0]!.changes[0]!.value.messages[0]!;
    expect(message).toMatchObject({ id: wamid, text: { body: text } });
    // A receiver that re-serialises the parsed body computes another HMAC.
    const reserialised = `sha256=${createHmac('sha256', cloud.appSecret).update(JSON.stringify(parsed)).digest('hex')}`;
    expect(reserialised).not.toBe(expected);
  });

  it('posts again until the webhook answers 200', async () => {
    const { cloud, receiver } = await start();
    receiver.answers.push(500, 401);
    const wamid = await cloud.userSends({ from: USER, text: 'hello' });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.raw.toString())).size).toBe(1);
    expect(cloud.webhookAttempts().map((a) => [a.id, a.status])).toEqual([[wamid, 500], [wamid, 401], [wamid, 200]]);
  });
});

describe('fake WhatsApp Cloud: sending', () => {
  it('shows a text to the user within the 24-hour window and answers Meta’s send shape', async () => {
    const { cloud } = await start();
    await cloud.userSends({ from: USER, text: 'hi' });
    const { status, json } = await sendText(cloud, `+${USER}`, '*Hello* there');
    expect(status).toBe(200);
    const id = (json.messages as { id: string }[])[0]!.id;
    expect(id).toMatch(/^wamid\./);
    expect(json.contacts).toEqual([{ input: `+${USER}`, wa_id: USER }]);
    expect(cloud.visibleMessages(USER)).toMatchObject([{ id, type: 'text', text: '*Hello* there' }]);
  });
});

describe('fake WhatsApp Cloud: media', () => {
  it('serves a user’s image from another origin, with the token only, for 5 minutes', async () => {
    let now = Date.now();
    const { cloud, receiver } = await start({ clock: () => now });
    const bytes = Buffer.from('fake jpeg bytes');
    await cloud.userSends({ from: USER, image: { bytes, mimeType: 'image/jpeg', caption: 'look' } });
    const mediaId = findMediaId(receiver);
    const info = await graph(cloud, 'GET', `/${mediaId}`);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ id: mediaId, mime_type: 'image/jpeg', file_size: bytes.byteLength, messaging_product: 'whatsapp' });
    const url = String(info.json.url);
    expect(new URL(url).origin).toBe(cloud.mediaOrigin);
    expect(new URL(url).origin).not.toBe(new URL(cloud.apiUrl).origin);

    const without = await request(url);
    expect(without.statusCode).toBe(401);
    await without.body.dump();
    const withToken = await request(url, { headers: { authorization: `Bearer ${cloud.accessToken}` } });
    expect(withToken.statusCode).toBe(200);
    expect(Buffer.from(await withToken.body.arrayBuffer())).toEqual(bytes);

    now += 5 * 60 * 1000 + 1;
    const expired = await request(url, { headers: { authorization: `Bearer ${cloud.accessToken}` } });
    expect(expired.statusCode).toBe(404);
    await expired.body.dump();
    expect(cloud.mediaDownloads()).toEqual([
      { mediaId, authorized: false, bytes: 0 },
      { mediaId, authorized: true, bytes: bytes.byteLength },
      { mediaId, authorized: true, bytes: 0 },
    ]);
  });
});

/** The media id of the last user message the receiver got. */
function findMediaId(from: Receiver): string {
  const last = from.received.at(-1)!;
  const parsed = JSON.parse(last.raw.toString()) as { entry: { changes: { value: { messages: Record<string, { id?: string }>[] } }[] }[] };
  const message = parsed.entry[0]!.changes[0]!.value.messages[0]!;
  const type = (message as unknown as { type: string }).type;
  return String(message[type]?.id);
}
