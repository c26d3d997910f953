/**
 * The first-contact greeting of the contract's kit (both WhatsApp adapters): the greeting mark
 * lives as long as the conversation's session (written with the idle lifetime, renewed by each
 * message); a group or a message not addressed to the bot is no first contact; the `/start`
 * queued before a first message is typed text with its own id, even when that message was a
 * button press.
 */
import { describe, expect, it } from 'vitest';
import {
  FirstContactGreeter,
  greetedKey,
  greetingBefore,
  GREETING_ID_PREFIX,
  type Inbound,
} from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../src/state/index.js';

const DAY_MS = 24 * 60 * 60_000;
const inbound = (id: string): Inbound => ({
  conversation: { bot: 'main', platform: 'whatsapp', id },
  user: { id },
  text: 'hello',
  attachments: [],
  isGroup: false,
  addressed: true,
  platformMessageId: `m-${id}`,
  sentAt: 0,
});

describe('the WhatsApp greeting mark', () => {
  it('is written with the idle lifetime, and a mark an earlier version left without one gets it with the next message', async () => {
    const state = new MemoryStateStore({ prefix: 'greeting:' });
    const storage = platformStorage(state, 'whatsapp', 'main', { conversationIdleTtlMs: 30 * DAY_MS });
    const greeter = new FirstContactGreeter(storage, silentLogger(), { platform: 'whatsapp' });
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

  it('is no question for a group or a message not addressed to the bot: neither is a first contact', async () => {
    const storage = platformStorage(new MemoryStateStore({ prefix: 'greeting:' }), 'whatsapp', 'main', {
      conversationIdleTtlMs: DAY_MS,
    });
    const greeter = new FirstContactGreeter(storage, silentLogger(), { platform: 'whatsapp' });
    expect(await greeter.isFirstContact({ ...inbound('group@g.us'), isGroup: true })).toBe(false);
    expect(await greeter.isFirstContact({ ...inbound('quiet@c.us'), addressed: false })).toBe(false);
    expect(await greeter.isFirstContact(inbound('new@c.us'))).toBe(true);
  });
});

describe('the greeting before a first message', () => {
  it("is a typed /start with the message's id after its prefix, without the message's text, files or button press", () => {
    const pressed: Inbound = {
      ...inbound('15551234567'),
      text: 'Show listings',
      action: { id: 'a:1', value: 'listings' },
      attachments: [
        { kind: 'image', mimeType: 'image/jpeg', size: 3, fetch: () => Promise.resolve(new Uint8Array(3)) },
      ],
    };
    const greeting = greetingBefore(pressed);
    expect(greeting.text).toBe('/start');
    expect(greeting.attachments).toEqual([]);
    expect('action' in greeting).toBe(false);
    expect(greeting.platformMessageId).toBe(`${GREETING_ID_PREFIX}m-15551234567`);
    expect(greeting.conversation).toEqual(pressed.conversation);
    expect(greeting.user).toEqual(pressed.user);
  });
});
