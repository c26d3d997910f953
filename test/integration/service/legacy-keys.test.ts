/**
 * A Redis that a service before issue #13 wrote to (keys without hash tags): started on
 * it, the service finds its chatbots, listings, sessions and files where they were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/index.js';
import { DEMO_SERIAL_NUMBER } from '../../../src/service/demo.js';
import { currentServiceKey, KEY_LAYOUT_MARKER } from '../../../src/service/legacy-keys.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { media } from './media-fixtures.js';
import { listing, SECRET, SESSION_KEY } from './harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SERIAL = 'ab'.repeat(16);

let running: RunningService | undefined;
const stores: ReturnType<typeof isolatedRedisStore>[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  await Promise.all(stores.splice(0).map((store) => store.cleanup()));
});

/** What the service before #13 left in Redis: a chatbot with two listings, a session with history, an uploaded PNG. */
async function oldLayout(serialNumber: string) {
  const state = isolatedRedisStore('service-legacy');
  stores.push(state);
  const settings = { TimeZone: 'UTC', WelcomeMessage: 'Howdy from the old layout', MessageLimit: 5 };
  await state.set(
    `svc:chatbot:${serialNumber}`,
    JSON.stringify({ serialNumber, type: 0, createdAt: '2026-01-01T00:00:00.000Z', settings }),
  );
  const { SerialNumber: _, ...fields } = listing(serialNumber, { City: 'Austin', MLSNumber: 'OLD-1' });
  await state.hashSet(`svc:listings:${serialNumber}`, {
    7: JSON.stringify({ ID: 7, ...fields }),
    9: JSON.stringify({ ID: 9, ...fields, MLSNumber: 'OLD-2', City: 'Denver' }),
  });
  await state.set(`svc:listings-version:${serialNumber}`, 'old-token');
  await state.set(
    'svc:session:41',
    JSON.stringify({ sessionId: 41, serialNumber, createdAt: '2026-01-01T00:00:00.000Z' }),
    { ttlMs: 30 * DAY_MS },
  );
  await state.listPush(
    'svc:history:41',
    [JSON.stringify({ role: 'user', content: 'hi' }), JSON.stringify({ role: 'assistant', content: 'hello' })],
    { ttlMs: 30 * DAY_MS },
  );
  await state.set(`svc:usage:${serialNumber}:${new Date().toISOString().slice(0, 7)}`, '5', { ttlMs: 62 * DAY_MS });
  const png = media.png();
  await state.set(
    'svc:file:12',
    JSON.stringify({
      fileId: 12,
      fileName: 'a.png',
      createdAt: '2026-01-01T00:00:00.000Z',
      uploadedAt: '2026-01-01T00:00:01.000Z',
      size: png.length,
      mime: 'image/png',
      ext: 'png',
      animated: false,
    }),
    { ttlMs: 7 * DAY_MS },
  );
  await state.set('svc:filedata:12', png.toString('base64'), { ttlMs: 7 * DAY_MS });
  await state.set('svc:seq:listing', '9');
  return state;
}

async function call<T>(path: string, body: unknown, auth: Record<string, string> = { authorization: SECRET }) {
  const response = await fetch(running!.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { Data: T; Code: number; Message: string } };
}

const listMls = async (serialNumber: string) =>
  (
    await call<{ List: { ID: number; MLSNumber: string }[] }>(
      '/chat/Chatbot/RealEstateList',
      { SerialNumber: serialNumber },
      { 'chatrobot-sessionkey': SESSION_KEY },
    )
  ).body.Data.List.map((item) => `${item.ID}:${item.MLSNumber}`);

describe('a Redis written with the key layout before hash tags', () => {
  it('serves the chatbot, its listings, sessions, monthly count and files where they were', async () => {
    const state = await oldLayout(SERIAL);
    running = await startService({
      state,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      engine: { kind: 'builtin', tokensPerSecond: 0 },
    });

    expect(await listMls(SERIAL)).toEqual(['7:OLD-1', '9:OLD-2']);
    expect((await call('/chat/User/ConfirmUpload', { FileStoreId: '12' })).body).toMatchObject({
      Code: 200,
      Data: { ContentType: 'image/png' },
    });
    // The month's 5 messages of MessageLimit 5 were used under the old layout.
    expect((await call('/chat/Chat/ClientAsk', { sessionID: 41, content: 'hi' })).body).toMatchObject({ Code: 429 });
    await call('/chat/Chatbot/Edit', { serialNumber: SERIAL, MessageLimit: -1 });
    expect((await call('/chat/Chat/ClientAsk', { sessionID: 41, content: 'homes in Austin' })).status).toBe(200);
    const history = await state.listRange('svc:history:{session:41}', 0, -1);
    expect(history.map((entry) => (JSON.parse(entry) as { content: string }).content).slice(0, 3)).toEqual([
      'hi',
      'hello',
      'homes in Austin',
    ]);
    expect(await state.ttlMs('svc:session:{session:41}')).toBeGreaterThan(29 * DAY_MS);
    const created = await call<string>('/chat/Chatbot/RealEstateCreate', listing(SERIAL, { MLSNumber: 'NEW-1' }), {
      'chatrobot-sessionkey': SESSION_KEY,
    });
    expect(created.body.Data).toBe('10');
  });

  it('keeps the demo chatbot as the owner left it, not a fresh seed beside it', async () => {
    const state = await oldLayout(DEMO_SERIAL_NUMBER);
    running = await startService({
      state,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      seedDemo: true,
      engine: { kind: 'builtin', tokensPerSecond: 0 },
    });
    const listed = await listMls(DEMO_SERIAL_NUMBER);
    expect(listed.slice(0, 2)).toEqual(['7:OLD-1', '9:OLD-2']);
    await call('/chat/Chatbot/Edit', { serialNumber: DEMO_SERIAL_NUMBER, MessageLimit: -1 });
    const session = await call<{ SessionID: number }>('/chat/Chatbot/GetSession', { serialNumber: DEMO_SERIAL_NUMBER });
    const greeting = await call<{ content: string }>('/chat/Chat/ClientAsk', {
      sessionID: session.body.Data.SessionID,
      content: 'hello',
    });
    expect(greeting.body.Data.content).toMatch(/Howdy from the old layout/);
  });

  it('looks for old keys once: a key of the old layout written later stays where it is until the marker is deleted', async () => {
    const state = await oldLayout(SERIAL);
    running = await startService({
      state,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      engine: { kind: 'builtin', tokensPerSecond: 0 },
    });
    expect(await listMls(SERIAL)).toHaveLength(2);
    await running.close();
    await state.set(
      'svc:chatbot:late',
      JSON.stringify({
        serialNumber: 'late',
        type: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        settings: { TimeZone: 'UTC' },
      }),
    );

    running = await startService({
      state,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      engine: { kind: 'builtin', tokensPerSecond: 0 },
    });
    expect((await call('/chat/Chatbot/GetSession', { serialNumber: 'late' })).status).toBe(404);
    await running.close();

    await state.del(KEY_LAYOUT_MARKER);
    running = await startService({
      state,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      engine: { kind: 'builtin', tokensPerSecond: 0 },
    });
    expect((await call('/chat/Chatbot/GetSession', { serialNumber: 'late' })).status).toBe(200);
  });
});

describe('currentServiceKey', () => {
  it.each([
    ['svc:chatbot:abc', 'svc:chatbot:{s:abc}'],
    ['svc:listings-version:abc', 'svc:listings-version:{s:abc}'],
    ['svc:usage:a:b:2026-03', 'svc:usage:{s:a:b}:2026-03'],
    ['svc:filedata:12', 'svc:filedata:{file:12}'],
    ['svc:rate:41', 'svc:rate:{session:41}'],
    ['svc:chatbot:{s:abc}', null],
    ['svc:seq:session', null],
    ['svc:generated-keys', null],
    ['svc:session:not-a-number', null],
  ])('%s → %s', (legacy, current) => {
    expect(currentServiceKey(legacy)).toBe(current);
  });
});
