/**
 * The WhatsApp adapter asks Redis whether a chat was greeted before it hands the chat's message
 * to the gateway. A frozen Redis never answers; the message must still reach the gateway, which
 * holds it and tells the user the answer will come (test/e2e/whatsapp/redis-outage.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FirstContactGreeter, type Inbound } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';

/** Short, so that the test need not wait the production GREETING_CHECK_MAX_MS. */
const CHECK_MAX_MS = 200;

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

describe('the WhatsApp greeting check while Redis is frozen', () => {
  let redis: PrivateRedis | undefined;
  let store: RedisStateStore | undefined;

  afterEach(async () => {
    redis?.thaw();
    await store?.close();
    await redis?.close();
    redis = store = undefined;
  });

  it('gives up without a greeting instead of holding the message, and greets again once Redis answers', async () => {
    redis = await startPrivateRedis();
    store = new RedisStateStore({ url: redis.url, prefix: 'greeting-outage:' });
    const greeter = new FirstContactGreeter(platformStorage(store, 'whatsapp', 'main'), silentLogger(), {
      platform: 'whatsapp',
      checkMaxMs: CHECK_MAX_MS,
    });

    redis.freeze();
    expect(await greeter.isFirstContact(inbound('frozen@c.us'))).toBe(false);

    redis.thaw();
    expect(await greeter.isFirstContact(inbound('new@c.us'))).toBe(true);
    await greeter.greeted('new@c.us');
    expect(await greeter.isFirstContact(inbound('new@c.us'))).toBe(false);
  });
});
