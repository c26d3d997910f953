/**
 * A bounded number of messages being accepted at once per process (issue #12: a webhook that
 * hands over 10,000 new chats at once must not build them all in memory at the same moment).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAdapter, MemoryPlatform } from '../../../../fakes/memory/index.js';
import { AcceptLine } from '../../../../src/gateway/intake/accept-line.js';
import { createGateway } from '../../../../src/gateway/index.js';
import { ACCEPTS_AT_ONCE } from '../../../../src/gateway/intake/intake.js';
import { silentLogger } from '../../../../src/logger.js';
import { RedisStateStore } from '../../../../src/state/index.js';
import type { ConversationQueueKeys, QueueOfferOptions, QueueOfferResult } from '../../../../src/state/types.js';
import { testRedisUrl } from '../../../support/redis.js';
import { startEchoService, upstreamClient } from '../../../support/scripted-service.js';

/** A real Redis store that counts the messages being queued in it at once. */
class CountingStore extends RedisStateStore {
  offering = 0;
  mostAtOnce = 0;

  override async queueOffer(
    keys: ConversationQueueKeys,
    entry: string,
    options: QueueOfferOptions,
  ): Promise<QueueOfferResult> {
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.offering);
    try {
      return await super.queueOffer(keys, entry, options);
    } finally {
      this.offering--;
    }
  }
}

const store = new CountingStore({ url: testRedisUrl(), prefix: `cbtest:accept-line:${randomUUID().slice(0, 8)}:` });
afterAll(async () => {
  await store.deleteByPrefix();
  await store.close();
});

/** A promise with its resolve, to finish a piece of work when the test says so. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('the line of messages being accepted', () => {
  it('works on at most its capacity at once and starts the others in the order they came', async () => {
    const line = new AcceptLine(2);
    const started: number[] = [];
    const finish = [deferred(), deferred(), deferred(), deferred()];
    const runs = finish.map((done, n) =>
      line.run(async () => {
        started.push(n);
        await done.promise;
        return n;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(line.waiting).toBe(2);

    finish[1]!.resolve();
    await runs[1];
    expect(started).toEqual([0, 1, 2]);
    finish[0]!.resolve();
    finish[2]!.resolve();
    finish[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(line.inProgress).toBe(0);
  });

  it('gives back the place of an accept that failed, so the next one still runs', async () => {
    const line = new AcceptLine(1);
    const failing = line.run(() => Promise.reject(new Error('the store is down')));
    const next = line.run(() => Promise.resolve('queued'));
    await expect(failing).rejects.toThrow('the store is down');
    expect(await next).toBe('queued');
    expect(line.inProgress).toBe(0);
  });

  it(`queues at most ${ACCEPTS_AT_ONCE} messages at once when a source hands over a burst all at once, and answers every chat`, async () => {
    const platform = new MemoryPlatform({ name: 'webhook-burst' });
    const gateway = createGateway({
      state: store,
      upstream: upstreamClient(await startEchoService()),
      bots: [{ id: 'main', serialNumber: 'serial' }],
      adapters: [createMemoryAdapter({ platform })],
      logger: silentLogger(),
      policy: { stopGraceMs: 2_000, sweepIntervalMs: 3_600_000 },
    });
    await gateway.start();
    try {
      const ids = Array.from({ length: ACCEPTS_AT_ONCE * 3 }, (_, i) => `chat-${i}`);
      await Promise.all(ids.map((id) => platform.userSends('main', id, `question from ${id}`)));
      expect(store.mostAtOnce).toBe(ACCEPTS_AT_ONCE);
      const deadline = Date.now() + 20_000;
      while (
        !ids.every((id) => platform.textsIn(id).includes(`You said: question from ${id}`)) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(ids.filter((id) => !platform.textsIn(id).includes(`You said: question from ${id}`))).toEqual([]);
    } finally {
      await gateway.stop();
    }
  });
});
