/**
 * A burst split across replicas: two `chatbridge start` processes in Telegram webhook mode on one
 * Redis, behind a round-robin load balancer, so that one user's bubbles reach different processes.
 * The conversation's queue in Redis decides what the burst holds, not a timer in the process that
 * took the first bubble: the three are answered once, as one question.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import { DEFAULT_GATEWAY_POLICY } from '../../../src/gateway/index.js';
import { startScriptedService, type ScriptedService } from '../../support/delivery-gateway.js';
import { replicaSet, type ReplicaSet } from '../../support/replicas.js';

/** The messages a process accepted, from its /metrics. */
async function acceptedBy(port: number): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return [...metrics.matchAll(/^chatbridge_messages_accepted_total\{[^}]*\} (\d+)/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

describe('a burst split across two replicas (chatbridge start, as processes)', () => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  let proxy: RoundRobinProxy;
  let replicas: ReplicaSet;

  afterEach(async () => {
    await replicas?.cleanup();
    await proxy?.close();
    await service?.close();
    await fake?.close();
  });

  it('answers three bubbles that reached different processes once, with all three in the one question', async () => {
    fake = await startFakeTelegram({ rateLimit: false, webhookConnections: 4, webhookRetryDelayMs: 50 });
    service = await startScriptedService((text) => ({ fragments: [`Answer to: ${text}`] }));
    proxy = await startRoundRobinProxy();
    // The default burst window (the replica builder turns bursts off unless told).
    replicas = replicaSet({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      webhookUrl: proxy.url,
      upstreamUrl: service.url,
      gateway: { burstMs: DEFAULT_GATEWAY_POLICY.burstMs },
    });
    const [first, second] = [await replicas.start(), await replicas.start()];
    proxy.setBackends([first.port, second.port]);

    const chats = [820_001, 820_002, 820_003];
    const bubbles = (chat: number) => [`hi from ${chat}`, "I'm looking for", 'a 3 bedroom in Austin'];
    for (const chat of chats)
      for (const text of bubbles(chat)) fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text });

    await fake.waitFor(() => chats.every((chat) => fake.visibleMessages(chat).length > 0), {
      timeoutMs: 45_000,
      what: 'an answer in every chat',
    });
    for (const chat of chats) {
      const question = bubbles(chat).join('\n');
      expect(service.questions.filter((asked) => asked.includes(`hi from ${chat}`))).toEqual([question]);
      expect(fake.visibleMessages(chat).map((message) => message.text)).toEqual([`Answer to: ${question}`]);
    }
    // Both processes took some of the bubbles (the load balancer alternates), and one answered each chat.
    const accepted = await Promise.all([first, second].map((replica) => acceptedBy(replica.port)));
    expect(accepted.every((count) => count > 0)).toBe(true);
    expect(accepted[0]! + accepted[1]!).toBe(chats.length * 3);
  }, 90_000);
});
