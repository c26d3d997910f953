/**
 * The sink an adapter holds between start() and stop() (SinkHolder in the contract's kit):
 * what arrives outside that time is refused in the platform's words, so the adapter's
 * caller fails it the platform's way; in between, every message reaches the core.
 */
import { describe, expect, it } from 'vitest';
import { AdapterNotStartedError, SinkHolder, type Inbound } from '../../../src/contract.js';

const message = (text: string): Inbound => ({
  conversation: { bot: 'main', platform: 'slack', id: 'D0DM000001' },
  user: { id: 'U0USER0001' },
  text,
  attachments: [],
  isGroup: false,
  addressed: true,
  platformMessageId: text,
  sentAt: 0,
});

describe('SinkHolder', () => {
  it("refuses a message before start() and after stop(), in the platform's words; passes it on in between", async () => {
    const holder = new SinkHolder({ who: 'Slack bot "main"', what: 'an event', then: 'Slack will send it again' });
    const queued: string[] = [];
    const refusal = 'Slack bot "main" received an event before start() or after stop(); Slack will send it again';

    await expect(holder.accept(message('too early'))).rejects.toThrow(new AdapterNotStartedError(refusal));
    expect(holder.holding).toBe(false);

    holder.hold({ accept: async (inbound) => void queued.push(inbound.text) });
    expect(holder.holding).toBe(true);
    await holder.accept(message('hello'));

    holder.release();
    await expect(holder.accept(message('too late'))).rejects.toBeInstanceOf(AdapterNotStartedError);
    expect(queued).toEqual(['hello']);
  });

  it("passes the core's own failure on unchanged (a webhook then answers 500)", async () => {
    const holder = new SinkHolder({ who: 'telegram bot "main"', what: 'an update' });
    const outage = new Error('Redis is down');
    holder.hold({ accept: async () => Promise.reject(outage) });
    await expect(holder.accept(message('hello'))).rejects.toBe(outage);
  });
});
