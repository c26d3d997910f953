/**
 * Conversation ids in a path are checked against their platform's bounds at both doors, the inbox and the admin API,
 * over real HTTP: an id that no conversation of its platform can have is a 404 before anything is read or written,
 * one of the right shape opens (an empty conversation: nobody wrote there yet).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedRedisStore } from '../../../support/redis.js';
import { ADMIN_TOKEN, startHandoffStack, type HandoffStack } from '../stack.js';
import { csrfIn, startInboxProcess, type InboxProcess } from './inbox-support.js';

const CANNOT_EXIST = [
  `main:telegram:${'7'.repeat(5_000)}`,
  // A signed 64-bit integer has at most 19 digits.
  'main:telegram:-12345678901234567890',
  'main:telegram:-1001234:12345678901',
  'main:slack:c0123abcd',
  `main:slack:C${'A'.repeat(40)}`,
  'main:slack:C0123ABCD:1712345678.000100000000',
  // A phone number has at most 15 digits.
  'main:whatsapp:1234567890123456@c.us',
  `main:whatsapp:${'1'.repeat(60)}@g.us`,
  // A platform without a fixed shape still has the overall cap.
  `main:fakechat:${'x'.repeat(300)}`,
];
const CAN_EXIST = [
  'main:telegram:-1001234567890',
  'main:telegram:-1234567890123456789:7',
  'main:slack:C0123ABCD:1712345678.000100',
  'main:whatsapp:491511234567890@c.us',
  'main:whatsapp:120363000000000001@g.us',
  'main:fakechat:c1',
];
const path = (id: string) => encodeURIComponent(id);

describe('conversation ids within their platform’s bounds', () => {
  let stack: HandoffStack;
  let process: InboxProcess;
  const store = isolatedRedisStore('conversation-id-bounds', { checkSlots: true });

  beforeAll(async () => {
    stack = await startHandoffStack('conversation-id-bounds');
    process = await startInboxProcess({ state: store, upstream: stack.client });
  });
  afterAll(async () => {
    await process.stop();
    await store.cleanup();
    await stack.close();
  });

  it('the inbox answers 404 "No such conversation" for an id that cannot exist, and opens one that can', async () => {
    const browser = process.browser();
    expect((await browser.signIn('Bruno')).status).toBe(303);
    for (const id of CANNOT_EXIST) {
      const page = await browser.get(`/inbox/conversations/${path(id)}`);
      expect(page.status, id.slice(0, 60)).toBe(404);
      expect(page.html).toContain('No such conversation');
    }
    const csrf = csrfIn((await browser.get('/inbox')).html);
    const claim = await browser.post(`/inbox/conversations/${path(CANNOT_EXIST[0]!)}/claim`, { _csrf: csrf });
    expect(claim.status).toBe(404);
    for (const id of CAN_EXIST) expect((await browser.get(`/inbox/conversations/${path(id)}`)).status, id).toBe(200);
    // Not <bot>:<platform>:<id> at all: the request is malformed.
    expect((await browser.get('/inbox/conversations/just-a-word')).status).toBe(400);
  });

  it('the admin API answers 404 naming the expected shape, and 200 for an id that can exist', async () => {
    const call = (id: string, method = 'GET', body?: unknown) =>
      fetch(`${process.url}/admin/conversations/${path(id)}${method === 'POST' ? '/claim' : ''}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    for (const id of CANNOT_EXIST) {
      const response = await call(id);
      expect(response.status, id.slice(0, 60)).toBe(404);
      expect(((await response.json()) as { error: string }).error).toMatch(/conversation id|at most 256 characters/);
    }
    expect((await call(CANNOT_EXIST[0]!, 'POST', { name: 'Bruno' })).status).toBe(404);
    const telegram = await (await call(CANNOT_EXIST[1]!)).json();
    expect(telegram).toEqual({ error: expect.stringContaining('expected <chat id>, or <chat id>:<topic id>') });
    for (const id of CAN_EXIST) expect((await call(id)).status, id).toBe(200);
  });
});
