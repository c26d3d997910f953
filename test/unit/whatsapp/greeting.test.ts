/**
 * The greeting mark of a WhatsApp chat lives as long as the conversation's session: it is
 * written with the idle lifetime and renewed by each message.
 */
import { describe, expect, it } from 'vitest';
import { Greeter, greetedKey } from '../../../adapters/whatsapp/greeting.js';
import type { Inbound } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../src/state/index.js';

const DAY_MS = 24 * 60 * 60_000;
const inbound = (id: string): Inbound => ({
  conversation: { bot: 'main', platform: 'whatsapp', id }, user: { id }, text: 'hello', attachments: [],
  isGroup: false, addressed: true, platformMessageId: `m-${id}`, sentAt: 0,
});

describe('the WhatsApp greeting mark', () => {
  it('is written with the idle lifetime, and a mark an earlier version left without one gets it with the next message', async () => {
    const state = new MemoryStateStore({ prefix: 'greeting:' });
    const storage = platformStorage(state, 'whatsapp', 'main', { conversationIdleTtlMs: 30 * DAY_MS });
    const greeter = new Greeter(storage, silentLogger());
    const key = `platform:whatsapp:main:${greetedKey('new@c.us')}`;

    expect(await greeter.isFirstContact(inbound('new@c.us'))).toBe(true);
    await greeter.greeted('new@c.us');
    expect(await state.ttlMs(key)).toBeGreaterThan(29 * DAY_MS);

    const old = `platform:whatsapp:main:${greetedKey('old@c.us')}`;
    await state.setBytes(old, new Uint8Array([49]));
    expect(await state.ttlMs(old)).toBe(-1);
    expect(await greeter.isFirstContact(inbound('old@c.us'))).toBe(false);
    expect(await state.ttlMs(old)).toBeGreaterThan(29 * DAY_MS);
  });
});
