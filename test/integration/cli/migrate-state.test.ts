import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateStateKeys } from '../../../src/cli/migrate-state.js';
import type { ConversationRef } from '../../../src/contract.js';
import { conversationTag, gatewayKeys, pendingMembers, TranscriptStore } from '../../../src/gateway/index.js';
import { PauseStore } from '../../../src/handoff/pause/pause-store.js';
import { handoffKeys, mailTag } from '../../../src/handoff/keys.js';
import { isolatedRedisStore, testRedisUrl } from '../../support/redis.js';

const conversation: ConversationRef = { bot: 'main', platform: 'slack', id: 'C123:1712.5' };
const old = `${conversation.bot}:${conversation.platform}:${conversation.id}`;

describe('chatbridge migrate-state', () => {
  const store = isolatedRedisStore('migrate-state', { checkSlots: true });
  const redis = new Redis(testRedisUrl());
  afterAll(async () => {
    await store.cleanup();
    redis.disconnect();
  });

  it('moves what an earlier version kept so this one reads it (session, transcript, queue, pause, waiting e-mail), drops its failure count', async () => {
    const p = store.prefix;
    const entry = { at: 1, role: 'user', text: 'Homes in Austin?' };
    const expiresAt = Date.now() + 3_600_000;
    await redis
      .multi()
      .set(`${p}session:${old}`, '42')
      // Counted in the pause hash now: not moved into it (it would stand in the pause's way), deleted.
      .set(`${p}failures:${old}`, '2')
      .rpush(`${p}transcript:${old}`, JSON.stringify(entry))
      .rpush(`${p}queue:${old}`, '{"queued":"message"}')
      .sadd(`${p}queues:pending`, JSON.stringify([conversation.bot, conversation.platform, conversation.id]))
      .hset(`${p}handoff:${old}`, {
        handoffId: 'h1',
        since: '1',
        expiresAt: String(expiresAt),
        reason: 'asked',
        isGroup: '0',
      })
      .zadd(`${p}handoffs:paused`, expiresAt, old)
      .set(
        `${p}handoff:mail:m1`,
        JSON.stringify({
          id: 'm1',
          to: 'ops@example.com',
          subject: 's',
          text: 't',
          html: 'h',
          conversation: old,
          createdAt: 1,
          failures: 0,
        }),
      )
      .zadd(`${p}handoff:outbox`, 5, 'm1')
      .set(`${p}handoff:secret`, 'kept as it is')
      .exec();

    const report = await migrateStateKeys(redis, p);

    expect(report).toMatchObject({ renamed: 4, mails: 1, dropped: 1, kept: [] });
    expect(await store.get(gatewayKeys.session(conversation))).toBe('42');
    expect(await new TranscriptStore(store, { maxEntries: 50, ttlMs: 60_000 }).read(conversation)).toEqual([entry]);
    expect(await pendingMembers(store)).toEqual([
      JSON.stringify([conversation.bot, conversation.platform, conversation.id]),
    ]);
    const pauses = new PauseStore(store);
    expect(await pauses.read(conversation)).toMatchObject({ handoffId: 'h1', expiresAt });
    expect(await store.hashGetAll(handoffKeys.pause(conversation))).not.toHaveProperty('upstreamFailures');
    expect((await pauses.listActive()).map((pause) => pause.conversation)).toEqual([conversation]);
    const [waiting] = await store.sortedRangeByScore(handoffKeys.outbox(conversationTag(conversation)), 0, 10);
    expect(waiting?.score).toBe(5);
    expect(JSON.parse((await store.get(handoffKeys.mail(mailTag(waiting!.member)!, waiting!.member)))!)).toMatchObject({
      id: waiting!.member,
      to: 'ops@example.com',
    });
    expect(await store.get('handoff:secret')).toBe('kept as it is');
    // Nothing of the old layout is left, and a second run moves nothing.
    expect((await redis.keys(`${p}*`)).filter((key) => !key.includes('{c') && !key.endsWith('handoff:secret'))).toEqual(
      [],
    );
    expect(await migrateStateKeys(redis, p)).toEqual({ renamed: 0, indexed: 0, mails: 0, dropped: 0, kept: [] });
  });
});
