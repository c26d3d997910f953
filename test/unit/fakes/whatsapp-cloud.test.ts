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
import {
  startFakeWhatsAppCloud,
  type FakeWhatsAppCloud,
  type FakeWhatsAppCloudOptions,
} from '../../../fakes/whatsapp-cloud/index.js';

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

async function start(
  options: FakeWhatsAppCloudOptions = {},
): Promise<{ cloud: FakeWhatsAppCloud; receiver: Receiver }> {
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
  const response = await request(`${fake.apiUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

function errorOf(json: Record<string, unknown>): {
  code: number;
  message: string;
  type: string;
  fbtrace_id: string;
  error_data?: { details: string };
} {
  return json.error as {
    code: number;
    message: string;
    type: string;
    fbtrace_id: string;
    error_data?: { details: string };
  };
}

function sendText(
  fake: FakeWhatsAppCloud,
  to: string,
  body: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return graph(fake, 'POST', `/${fake.phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'text',
    text: { body },
  });
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
    expect(cloud.calls().map((c) => [c.status, c.authorized])).toEqual([
      [401, false],
      [401, false],
    ]);
  });

  it('tells doctor the number (GET /{phone-number-id})', async () => {
    const { cloud } = await start();
    const { status, json } = await graph(cloud, 'GET', `/${cloud.phoneNumberId}`);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: cloud.phoneNumberId,
      display_phone_number: cloud.displayPhoneNumber,
      verified_name: 'Fake Business',
    });
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
    const edge = await graph(cloud, 'GET', `/${cloud.phoneNumberId}/templates`);
    expect(edge.status).toBe(400);
    expect(edge.json.error).toMatchObject({ code: 2500, message: 'Unknown path components: /templates' });
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
    const parsed = JSON.parse(raw.toString()) as {
      entry: { changes: { value: { messages: { id: string; text: { body: string } }[] } }[] }[];
    };
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
    expect(cloud.webhookAttempts().map((a) => [a.id, a.status])).toEqual([
      [wamid, 500],
      [wamid, 401],
      [wamid, 200],
    ]);
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
    expect(info.json).toMatchObject({
      id: mediaId,
      mime_type: 'image/jpeg',
      file_size: bytes.byteLength,
      messaging_product: 'whatsapp',
    });
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

type Answer = { status: number; json: Record<string, unknown> };

function send(fake: FakeWhatsAppCloud, message: Record<string, unknown>): Promise<Answer> {
  return graph(fake, 'POST', `/${fake.phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: USER,
    ...message,
  });
}

function expectError(answer: Answer, httpStatus: number, code: number, detailsLike?: RegExp): void {
  expect(answer.status).toBe(httpStatus);
  const error = errorOf(answer.json);
  expect(error.code).toBe(code);
  expect(error.message).toContain(`(#${code})`);
  if (detailsLike) expect(error.error_data?.details).toMatch(detailsLike);
}

function buttonsMessage(buttons: { id: string; title: string }[], body = 'Pick one'): Record<string, unknown> {
  return {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: body },
      action: { buttons: buttons.map((reply) => ({ type: 'reply', reply })) },
    },
  };
}

function listMessage(
  sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[],
  extra: Record<string, unknown> = {},
  button = 'Listings',
): Record<string, unknown> {
  return {
    type: 'interactive',
    interactive: { type: 'list', body: { text: 'Page 1' }, action: { button, sections }, ...extra },
  };
}

const rows = (n: number, prefix = 'r'): { id: string; title: string }[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${prefix}${i}` }));

describe('fake WhatsApp Cloud: body rules', () => {
  it('takes a text of 4,096 characters (an emoji is one) and refuses 4,097 with code 100 naming text[body]', async () => {
    const { cloud } = await start({ pairRateLimit: false });
    await cloud.userSends({ from: USER, text: 'hi' });
    expect((await send(cloud, { type: 'text', text: { body: '😀'.repeat(4096) } })).status).toBe(200);
    expectError(
      await send(cloud, { type: 'text', text: { body: 'a'.repeat(4097) } }),
      400,
      100,
      /text\['body'\] must be at most 4096 characters/,
    );
    expectError(await send(cloud, { type: 'text', text: { body: '' } }), 400, 100, /text\['body'\] is required/);
    expect(cloud.visibleMessages(USER)).toHaveLength(1);
    expect(cloud.calls().map((c) => c.errorCode)).toEqual([undefined, 100, 100]);
  });

  it('refuses an edit, or any key Meta does not know, with code 100', async () => {
    const { cloud } = await start();
    await cloud.userSends({ from: USER, text: 'hi' });
    const { json } = await send(cloud, { type: 'text', text: { body: 'first' } });
    const id = (json.messages as { id: string }[])[0]!.id;
    expectError(
      await send(cloud, { type: 'text', text: { body: 'changed' }, edit: { message_id: id } }),
      400,
      100,
      /Unexpected key "edit"/,
    );
    expectError(
      await send(cloud, { type: 'text', text: { body: 'x', markdown: true } }),
      400,
      100,
      /Unexpected key "markdown" on param "text"/,
    );
    expectError(
      await graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, { to: USER, type: 'text', text: { body: 'x' } }),
      400,
      100,
      /messaging_product is required/,
    );
    expectError(
      await send(cloud, { messaging_product: 'sms', type: 'text', text: { body: 'x' } }),
      400,
      100,
      /messaging_product/,
    );
    expectError(
      await send(cloud, { to: 'not a number', type: 'text', text: { body: 'x' } }),
      400,
      100,
      /not a valid WhatsApp phone number/,
    );
    expect(cloud.visibleMessages(USER).map((m) => m.text)).toEqual(['first']);
  });

  it('shows reply buttons within the limits and refuses 4 buttons, long or repeated titles, long ids and bodies with 131009', async () => {
    const { cloud } = await start({ pairRateLimit: false });
    await cloud.userSends({ from: USER, text: 'listings' });
    const ok = [
      { id: 'next', title: 'Next' },
      { id: 'a'.repeat(256), title: 'b'.repeat(20) },
      { id: 'c', title: 'Ünïcödé títlé 20 chr' },
    ];
    expect((await send(cloud, buttonsMessage(ok, 'x'.repeat(1024)))).status).toBe(200);
    expect(cloud.visibleMessages(USER)[0]?.interactive?.buttons).toEqual(ok);
    expectError(await send(cloud, buttonsMessage([...ok, { id: 'd', title: 'Four' }])), 400, 131009, /at most 3/);
    expectError(
      await send(cloud, buttonsMessage([{ id: 'a', title: 'c'.repeat(21) }])),
      400,
      131009,
      /title'\] must be at most 20/,
    );
    expectError(
      await send(
        cloud,
        buttonsMessage([
          { id: 'a', title: 'Same' },
          { id: 'b', title: 'Same' },
        ]),
      ),
      400,
      131009,
      /unique titles/,
    );
    expectError(
      await send(cloud, buttonsMessage([{ id: 'a'.repeat(257), title: 'Ok' }])),
      400,
      131009,
      /id'\] must be at most 256/,
    );
    expectError(
      await send(cloud, buttonsMessage([{ id: 'a', title: 'Ok' }], 'x'.repeat(1025))),
      400,
      131009,
      /body'\]\['text'\] must be at most 1024/,
    );
    expect(cloud.visibleMessages(USER)).toHaveLength(1);
  });

  it('shows a list within the limits and refuses 11 rows in all, long titles, descriptions, button, header and footer with 131009', async () => {
    const { cloud } = await start({ pairRateLimit: false });
    await cloud.userSends({ from: USER, text: 'listings' });
    const full = [
      { title: 'Berlin', rows: rows(5, 'b') },
      { title: 'Köln', rows: [...rows(4, 'k'), { id: 'next', title: 'x'.repeat(24), description: 'd'.repeat(72) }] },
    ];
    expect(
      (
        await send(
          cloud,
          listMessage(
            full,
            { header: { type: 'text', text: 'h'.repeat(60) }, footer: { text: 'f'.repeat(60) } },
            'b'.repeat(20),
          ),
        )
      ).status,
    ).toBe(200);
    const shown = cloud.visibleMessages(USER)[0]!.interactive!;
    expect(shown.sections?.flatMap((s) => s.rows)).toHaveLength(10);
    expect(shown.header).toBe('h'.repeat(60));
    expectError(
      await send(
        cloud,
        listMessage([
          { title: 'A', rows: rows(6, 'a') },
          { title: 'B', rows: rows(5, 'b') },
        ]),
      ),
      400,
      131009,
      /at most 10 rows in all sections; it has 11/,
    );
    expectError(
      await send(cloud, listMessage([{ rows: [{ id: 'a', title: 'x'.repeat(25) }] }])),
      400,
      131009,
      /title'\] must be at most 24/,
    );
    expectError(
      await send(cloud, listMessage([{ rows: [{ id: 'a', title: 'A', description: 'd'.repeat(73) }] }])),
      400,
      131009,
      /description'\] must be at most 72/,
    );
    expectError(
      await send(cloud, listMessage([{ rows: rows(1) }], {}, 'b'.repeat(21))),
      400,
      131009,
      /button'\] must be at most 20/,
    );
    expectError(
      await send(cloud, listMessage([{ rows: rows(1) }], { header: { type: 'text', text: 'h'.repeat(61) } })),
      400,
      131009,
      /header'\]\['text'\] must be at most 60/,
    );
    expectError(
      await send(cloud, listMessage([{ rows: rows(1) }], { footer: { text: 'f'.repeat(61) } })),
      400,
      131009,
      /footer'\]\['text'\] must be at most 60/,
    );
    expectError(
      await send(cloud, listMessage([{ title: 'A', rows: rows(1, 'a') }, { rows: rows(1, 'b') }])),
      400,
      131009,
      /sections'\]\[1\]\['title'\] is required/,
    );
    expect(cloud.visibleMessages(USER)).toHaveLength(1);
  });
});

describe('fake WhatsApp Cloud: read and typing', () => {
  it('marks a real inbound wamid read with the typing indicator and refuses any other id with code 100', async () => {
    const { cloud } = await start();
    const wamid = await cloud.userSends({ from: USER, text: 'hi' });
    const read = await graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
      typing_indicator: { type: 'text' },
    });
    expect(read).toEqual({ status: 200, json: { success: true } });
    const { json } = await sendText(cloud, USER, 'answer');
    const outbound = (json.messages as { id: string }[])[0]!.id;
    expectError(
      await graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: outbound,
      }),
      400,
      100,
      /not a message this business number received/,
    );
    expectError(
      await graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: wamid,
        typing_indicator: { type: 'audio' },
      }),
      400,
      100,
      /typing_indicator/,
    );
    expect(cloud.readMarks()).toEqual([{ messageId: wamid, typing: true, at: expect.any(Number) as number }]);
  });
});

describe('fake WhatsApp Cloud: limits', () => {
  it('answers 131047 once 24 hours have passed since the user’s last message, to a user who never wrote, never to a template', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { cloud } = await start({ clock: () => now });
    expectError(await sendText(cloud, USER, 'unasked'), 400, 131047, /24 hours/);
    await cloud.userSends({ from: USER, text: 'hi' });
    now += 24 * 60 * 60 * 1000;
    expect((await sendText(cloud, USER, 'just in time')).status).toBe(200);
    now += 1;
    expectError(await sendText(cloud, USER, 'too late'), 400, 131047, /24 hours/);
    const template = await send(cloud, {
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' } },
    });
    expect(template.status).toBe(200);
    expect(template.json.messages).toEqual([
      { id: expect.stringMatching(/^wamid\./) as string, message_status: 'accepted' },
    ]);
    await cloud.userSends({ from: USER, text: 'back again' });
    expect((await sendText(cloud, USER, 'welcome back')).status).toBe(200);
    expect(cloud.visibleMessages(USER).map((m) => m.text)).toEqual(['just in time', 'hello_world', 'welcome back']);
  });

  it('lets Meta’s pair burst of 45 through, then answers 131056 with HTTP 400 until the borrowed time is paid back', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { cloud } = await start({ clock: () => now });
    await cloud.userSends({ from: USER, text: 'hi' });
    for (let n = 0; n < 45; n++) expect((await sendText(cloud, USER, `part ${n}`)).status).toBe(200);
    expectError(await sendText(cloud, USER, 'one too many'), 400, 131056);
    now += 45 * 6000 - 1;
    expectError(await sendText(cloud, USER, 'still owing'), 400, 131056);
    now += 1;
    expect((await sendText(cloud, USER, 'paid back')).status).toBe(200);
    // Another user has a pair of their own.
    await cloud.userSends({ from: '4915100000000', text: 'hi' });
    expect((await sendText(cloud, '4915100000000', 'hello')).status).toBe(200);
    expect(cloud.visibleMessages(USER)).toHaveLength(46);
  });

  it('sustains one message per 6 s to a user without a 131056, and refuses the third of two quick ones 6 s later', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { cloud } = await start({ clock: () => now });
    await cloud.userSends({ from: USER, text: 'hi' });
    for (let n = 0; n < 20; n++) {
      expect((await sendText(cloud, USER, `steady ${n}`)).status).toBe(200);
      now += 6000;
    }
    expect((await sendText(cloud, USER, 'quick 1')).status).toBe(200);
    now += 1000;
    expect((await sendText(cloud, USER, 'quick 2')).status).toBe(200);
    now += 5000;
    // The burst window closed and 12 s are owed since quick 1; 6 s have passed.
    expectError(await sendText(cloud, USER, 'quick 3'), 400, 131056);
    now += 6000;
    expect((await sendText(cloud, USER, 'quick 3 again')).status).toBe(200);
  });

  it('answers 130429 with HTTP 429 over the number’s throughput per second', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { cloud } = await start({ clock: () => now, throughputPerSecond: 3, pairRateLimit: false });
    await cloud.userSends({ from: USER, text: 'hi' });
    for (let n = 0; n < 3; n++) expect((await sendText(cloud, USER, `m${n}`)).status).toBe(200);
    expectError(await sendText(cloud, USER, 'over'), 429, 130429);
    now += 1000;
    expect((await sendText(cloud, USER, 'next second')).status).toBe(200);
  });

  it('fails the next sends as scripted: Meta’s code and status, for one user or any, and a 500 of Meta’s own', async () => {
    const { cloud } = await start({ pairRateLimit: false });
    await cloud.userSends({ from: USER, text: 'hi' });
    await cloud.userSends({ from: '4915100000000', text: 'hi' });
    cloud.failNext({ code: 131056, times: 2, to: USER });
    cloud.failNext({ code: 500 });
    expectError(await sendText(cloud, '4915100000000', 'other user'), 500, 131000);
    expectError(await sendText(cloud, USER, 'a'), 400, 131056);
    expectError(await sendText(cloud, USER, 'b'), 400, 131056);
    expect((await sendText(cloud, USER, 'c')).status).toBe(200);
    cloud.failNext({ code: 130429, httpStatus: 400 });
    expectError(await sendText(cloud, USER, 'd'), 400, 130429);
    expect(cloud.visibleMessages(USER).map((m) => m.text)).toEqual(['c']);
  });
});

describe('fake WhatsApp Cloud: statuses', () => {
  it('posts sent, delivered and read for every answer, every second one with read before delivered', async () => {
    const { cloud, receiver } = await start({ statusWebhooks: true });
    await cloud.userSends({ from: USER, text: 'hi' });
    const first = (await sendText(cloud, USER, 'one')).json.messages as { id: string }[];
    const second = (await sendText(cloud, USER, 'two')).json.messages as { id: string }[];
    await cloud.waitFor(() => cloud.webhookAttempts().filter((a) => a.kind === 'status').length === 6);
    const statuses = receiver.received.slice(1).map((r) => statusOf(r.raw));
    const of = (id: string): string[] => statuses.filter((s) => s.id === id).map((s) => s.status);
    expect(of(first[0]!.id)).toEqual(['sent', 'delivered', 'read']);
    expect(of(second[0]!.id)).toEqual(['sent', 'read', 'delivered']);
    expect(statuses.every((s) => s.recipient_id === USER)).toBe(true);
  });

  it('accepts a send scripted to fail later and posts a failed status with Meta’s code in errors[]', async () => {
    const { cloud, receiver } = await start({ statusWebhooks: true });
    await cloud.userSends({ from: USER, text: 'hi' });
    cloud.failNext({ code: 131047, via: 'status' });
    const answer = await sendText(cloud, USER, 'lost');
    expect(answer.status).toBe(200);
    const id = (answer.json.messages as { id: string }[])[0]!.id;
    await cloud.waitFor(() => receiver.received.length === 2);
    expect(statusOf(receiver.received[1]!.raw)).toMatchObject({
      id,
      status: 'failed',
      errors: [{ code: 131047, title: 'Re-engagement message' }],
    });
    expect(cloud.visibleMessages(USER)).toEqual([]);
  });
});

describe('fake WhatsApp Cloud: deliveries', () => {
  it('answers the handshake the way Meta sends it, with the right or a wrong verify token', async () => {
    const { cloud, receiver } = await start();
    const result = await cloud.verifyWebhook();
    expect(result.body).toBe(result.challenge);
    await cloud.verifyWebhook({ verifyToken: 'wrong' });
    const queries = receiver.received.map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
    expect(queries).toEqual([
      { 'hub.mode': 'subscribe', 'hub.verify_token': cloud.verifyToken, 'hub.challenge': result.challenge },
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': expect.any(String) as string },
    ]);
  });

  it('delivers a duplicate as the same bytes twice, and a held message after a later one', async () => {
    const { cloud, receiver } = await start();
    const wamid = await cloud.userSends({ from: USER, text: 'twice' }, { duplicate: true });
    expect(receiver.received.map((r) => messageOf(r.raw).id)).toEqual([wamid, wamid]);
    expect(receiver.received[0]!.raw.equals(receiver.received[1]!.raw)).toBe(true);

    let release = (): void => undefined;
    const held = cloud.userSends(
      { from: USER, text: 'first written' },
      { holdUntil: new Promise<void>((resolve) => (release = resolve)) },
    );
    await cloud.userSends({ from: USER, text: 'second written' });
    release();
    await held;
    const [later, earlier] = receiver.received.slice(2).map((r) => messageOf(r.raw));
    expect([later!.text.body, earlier!.text.body]).toEqual(['second written', 'first written']);
    expect(Number(earlier!.timestamp)).toBeLessThanOrEqual(Number(later!.timestamp));
  });

  it('batches several users’ messages in one webhook, each sender once in contacts, each opening its own window', async () => {
    const { cloud, receiver } = await start();
    const other = '4915100000000';
    const wamids = await cloud.usersSendTogether([
      { from: USER, name: 'Ana', text: 'one' },
      { from: other, text: 'two' },
      { from: USER, unsupported: true },
    ]);
    expect(receiver.received).toHaveLength(1);
    const value = changeOf(receiver.received[0]!.raw).value as unknown as {
      contacts: { wa_id: string }[];
      messages: Record<string, unknown>[];
    };
    expect(value.contacts.map((c) => c.wa_id)).toEqual([USER, other]);
    expect(value.messages.map((m) => m.id)).toEqual(wamids);
    expect(value.messages[2]).toMatchObject({ type: 'unsupported', errors: [{ code: 131051 }] });
    expect((await sendText(cloud, other, 'answer')).status).toBe(200);
  });

  it('gives up with a clear error when the webhook never answers 200', async () => {
    const { cloud, receiver } = await start();
    receiver.answers.push(503, 503, 503, 503);
    await expect(cloud.userSends({ from: USER, text: 'lost' })).rejects.toThrow(
      /never answered 200 in 4 tries \(last: HTTP 503/,
    );
  });

  it('posts raw bytes signed as given, unsigned or with a chosen signature, and other fields signed', async () => {
    const { cloud, receiver } = await start();
    receiver.answers.push(401, 400);
    expect((await cloud.postRaw('{"object":"whatsapp_business_account"}', { signature: 'sha256=00' })).status).toBe(
      401,
    );
    expect((await cloud.postRaw('not json', { signature: null })).status).toBe(400);
    expect(await cloud.postOtherField('account_update')).toBe(200);
    const [forged, unsigned, other] = receiver.received;
    expect(forged!.headers['x-hub-signature-256']).toBe('sha256=00');
    expect(unsigned!.headers['x-hub-signature-256']).toBeUndefined();
    expect(other!.headers['x-hub-signature-256']).toBe(
      `sha256=${createHmac('sha256', cloud.appSecret).update(other!.raw).digest('hex')}`,
    );
    expect(JSON.parse(other!.raw.toString())).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [{ id: cloud.wabaId, changes: [{ field: 'account_update' }] }],
    });
  });

  it('builds Meta’s message shapes: a voice note, a button reply naming its message, a list reply, a document, a reaction', async () => {
    const { cloud, receiver } = await start();
    await cloud.userSends({
      from: USER,
      audio: { bytes: Buffer.from('OggS'), mimeType: 'audio/ogg; codecs=opus', voice: true },
    });
    await cloud.userSends({ from: USER, buttonReply: { id: 'next', title: 'Next', contextId: 'wamid.carrier' } });
    await cloud.userSends({ from: USER, listReply: { id: 'row-1', title: 'Berlin' } });
    await cloud.userSends({
      from: USER,
      document: { bytes: Buffer.from('%PDF'), mimeType: 'application/pdf', filename: 'a.pdf' },
    });
    await cloud.userSends({ from: USER, reaction: { messageId: 'wamid.x', emoji: '👍' } });
    const [voice, button, list, document, reaction] = receiver.received.map(
      (r) => messageOf(r.raw) as unknown as Record<string, unknown>,
    );
    expect(voice).toMatchObject({
      type: 'audio',
      audio: { mime_type: 'audio/ogg; codecs=opus', voice: true, id: expect.stringMatching(/^\d+$/) as string },
    });
    expect(button).toMatchObject({
      type: 'interactive',
      context: { from: cloud.displayPhoneNumber, id: 'wamid.carrier' },
      interactive: { type: 'button_reply', button_reply: { id: 'next', title: 'Next' } },
    });
    expect(list).toMatchObject({
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'row-1', title: 'Berlin' } },
    });
    expect(document).toMatchObject({ type: 'document', document: { filename: 'a.pdf', mime_type: 'application/pdf' } });
    expect(reaction).toMatchObject({ type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } });
    await expect(
      cloud.userSends({ from: USER, image: { bytes: Buffer.from('x'), mimeType: 'image/gif' } }),
    ).rejects.toThrow(/not a format Meta delivers/);
    await expect(cloud.userSends({ from: USER, text: 'a', sticker: true })).rejects.toThrow(/exactly one of/);
  });
});

type Change = {
  value: {
    messages?: { id: string; timestamp: string; text: { body: string } }[];
    statuses?: { id: string; status: string; recipient_id: string }[];
  };
};

function changeOf(raw: Buffer): Change {
  return (JSON.parse(raw.toString()) as { entry: { changes: Change[] }[] }).entry[0]!.changes[0]!;
}

function messageOf(raw: Buffer): { id: string; timestamp: string; text: { body: string } } {
  return changeOf(raw).value.messages![0]!;
}

function statusOf(raw: Buffer): { id: string; status: string; recipient_id: string } {
  return changeOf(raw).value.statuses![0]!;
}

describe('fake WhatsApp Cloud: media sizes and links', () => {
  it('announces the size before any download, issues a fresh link per GET /{media-id}, and 404s a link it never issued', async () => {
    let now = Date.now();
    const { cloud, receiver } = await start({ clock: () => now });
    await cloud.userSends({
      from: USER,
      video: { bytes: Buffer.from('small'), mimeType: 'video/mp4', declaredSize: 40 * 1024 * 1024 },
    });
    const mediaId = findMediaId(receiver);
    const info = await graph(cloud, 'GET', `/${mediaId}`);
    expect(info.json.file_size).toBe(40 * 1024 * 1024);
    expect(cloud.mediaDownloads()).toEqual([]);

    now += 6 * 60 * 1000;
    const again = await graph(cloud, 'GET', `/${mediaId}`);
    expect(again.json.url).not.toBe(info.json.url);
    const fresh = await request(String(again.json.url), { headers: { authorization: `Bearer ${cloud.accessToken}` } });
    expect(fresh.statusCode).toBe(200);
    await fresh.body.dump();

    const forged = new URL(String(again.json.url));
    forged.searchParams.set('hash', 'never-issued');
    const unknown = await request(forged.toString(), { headers: { authorization: `Bearer ${cloud.accessToken}` } });
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
  });
});

describe('fake WhatsApp Cloud: uploads and media messages', () => {
  /** POST /{phone-number-id}/media with a file part of `type` ('' for none, as a client that forgets it). */
  async function upload(
    fake: FakeWhatsAppCloud,
    file: { bytes: Uint8Array; type: string; name: string },
    fields: Record<string, string> = { messaging_product: 'whatsapp' },
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([file.bytes], file.type ? { type: file.type } : {}), file.name);
    const response = await fetch(`${fake.apiUrl}/${fake.phoneNumberId}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.accessToken}` },
      body: form,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it("answers an upload's media id, which a message then sends: the user gets the bytes, file name and caption", async () => {
    const { cloud } = await start();
    await cloud.userSends({ from: USER, text: 'hi' });
    const pdf = Buffer.from('%PDF-1.4 plan');
    const uploaded = await upload(cloud, { bytes: pdf, type: 'application/pdf', name: 'plan.pdf' });
    expect(uploaded.status).toBe(200);
    const id = String(uploaded.json.id);
    expect(id).toMatch(/^\d+$/);
    const sent = await graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      to: USER,
      type: 'document',
      document: { id, filename: 'Plan.pdf', caption: 'The plan' },
    });
    expect(sent.status).toBe(200);
    const [seen] = cloud.visibleMessages(USER);
    expect([seen!.type, seen!.text, seen!.file?.fileName, seen!.file?.mimeType]).toEqual([
      'document',
      'The plan',
      'Plan.pdf',
      'application/pdf',
    ]);
    expect(seen!.file!.bytes.equals(pdf)).toBe(true);
  });

  it('refuses a file part without its own type as Meta does, listing the types it takes, and a type it does not take', async () => {
    const { cloud } = await start();
    const untyped = await upload(
      cloud,
      { bytes: Buffer.from('x'), type: '', name: 'a.png' },
      {
        messaging_product: 'whatsapp',
        type: 'image/png',
      },
    );
    expect(untyped.status).toBe(400);
    expect(errorOf(untyped.json).code).toBe(100);
    expect(errorOf(untyped.json).message).toMatch(
      /^\(#100\) Param file must be a file with one of the following types: audio\/aac, .*image\/png.*\. Received file of type 'application\/octet-stream'\.$/,
    );
    const zip = await upload(cloud, { bytes: Buffer.from('PK'), type: 'application/zip', name: 'a.zip' });
    expect(errorOf(zip.json).message).toMatch(/Received file of type 'application\/zip'/);
    const noProduct = await upload(cloud, { bytes: Buffer.from('x'), type: 'text/plain', name: 'a.txt' }, {});
    expect(errorOf(noProduct.json).error_data?.details).toMatch(/messaging_product is required/);
  });

  it("refuses a file over its type's size (a photo over 5 MB), and a message naming no upload or one it cannot show", async () => {
    const { cloud } = await start();
    await cloud.userSends({ from: USER, text: 'hi' });
    const big = await upload(cloud, { bytes: new Uint8Array(5 * 1024 * 1024 + 1), type: 'image/jpeg', name: 'a.jpg' });
    expect([big.status, errorOf(big.json).code]).toEqual([400, 131053]);
    expect(errorOf(big.json).error_data?.details).toMatch(/5MB/);
    const send = (type: string, id: string) =>
      graph(cloud, 'POST', `/${cloud.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        to: USER,
        type,
        [type]: { id },
      });
    expect(errorOf((await send('image', '123456')).json).code).toBe(100);
    const pdf = await upload(cloud, { bytes: Buffer.from('%PDF'), type: 'application/pdf', name: 'a.pdf' });
    expect(errorOf((await send('image', String(pdf.json.id))).json).code).toBe(131053);
    expect(cloud.visibleMessages(USER)).toEqual([]);
  });
});

/** The media id of the last user message the receiver got. */
function findMediaId(from: Receiver): string {
  const last = from.received.at(-1)!;
  const parsed = JSON.parse(last.raw.toString()) as {
    entry: { changes: { value: { messages: Record<string, { id?: string }>[] } }[] }[];
  };
  const message = parsed.entry[0]!.changes[0]!.value.messages[0]!;
  const type = (message as unknown as { type: string }).type;
  return String(message[type]?.id);
}
