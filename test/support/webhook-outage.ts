/**
 * What the webhook outage tests share (one file per platform): `chatbridge start` on a private
 * Redis that the test freezes (SIGSTOP) or stops, and a platform delivering one user's message
 * as platforms do: posted, and posted again after any answer that is not 2xx or that does not
 * come within a few seconds, until one is a 200. The spec: every try during the outage is
 * answered 503 within those seconds, the outage is logged once, and once Redis is back the
 * message is answered exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';

/** In the demo chatbot's answer to QUESTION. */
export const QUESTION = 'Do you have homes for sale in Austin?';
export const ANSWER_MARK = 'MLS TX-10452';

/**
 * How long a try may wait for its answer before the platform counts it as unanswered: "a few
 * seconds", under Slack's 3 s plus a margin for two busy cores; Meta and Telegram wait longer.
 */
export const ANSWER_DEADLINE_MS = 5_000;
/** Between two tries of a platform: Meta's and Telegram's pauses are longer, a test needs seconds. */
const PAUSE_BETWEEN_TRIES_MS = 500;
/** Tries during the outage before Redis comes back: the first and some redeliveries. */
const TRIES_DURING_OUTAGE = 3;
/** After the answer, how long the test watches for a second one (the redelivery answered again). */
const WATCH_FOR_A_SECOND_ANSWER_MS = 4_000;
/** The line the gateway logs once per outage (src/gateway/intake/webhook-accept.ts). */
const OUTAGE_LINE = /webhooks are answered 503 until Redis takes them again/g;

/** One try of the platform: the gateway's status, or 'no answer' within ANSWER_DEADLINE_MS (or a refused connection). */
export interface Try {
  status: number | 'no answer';
}

/** One platform in front of a gateway started on `redisUrl`. */
export interface WebhookRoute {
  /** The platform delivers the user's message until a try is answered 200. */
  deliver(): Promise<void>;
  /** The tries so far, oldest first. */
  tries(): readonly Try[];
  /** The answers to QUESTION the user sees. */
  answers(): number;
  log(): string;
  close(): Promise<void>;
}

/** A platform's delivery by `post` (one try, within `signal`): again after each try that is not a 200. */
export function redeliveringPoster(
  post: (signal: AbortSignal) => Promise<number>,
): Pick<WebhookRoute, 'deliver' | 'tries'> {
  const tries: Try[] = [];
  return {
    tries: () => tries,
    async deliver() {
      for (let attempt = 0; attempt < 200; attempt++) {
        const status = await post(AbortSignal.timeout(ANSWER_DEADLINE_MS)).catch(() => 'no answer' as const);
        tries.push({ status });
        if (status === 200) return;
        await sleep(PAUSE_BETWEEN_TRIES_MS);
      }
      throw new Error(`never answered 200 in 200 tries: ${JSON.stringify(tries.slice(-5))}`);
    },
  };
}

interface Outage {
  name: string;
  begin(redis: PrivateRedis): Promise<void>;
  end(redis: PrivateRedis): Promise<void>;
}

const OUTAGES: Outage[] = [
  { name: 'frozen (SIGSTOP)', begin: async (redis) => redis.freeze(), end: async (redis) => redis.thaw() },
  // Restarted without its keys: the gateway seeds the demo chatbot again when it notices.
  { name: 'stopped', begin: (redis) => redis.stop(), end: (redis) => redis.start() },
];

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function webhookOutageSpec(platform: string, start: (redisUrl: string) => Promise<WebhookRoute>): void {
  for (const outage of OUTAGES) {
    describe(`${platform} webhooks while Redis is ${outage.name}`, () => {
      let redis: PrivateRedis;
      let route: WebhookRoute;

      beforeAll(async () => {
        redis = await startPrivateRedis();
        route = await start(redis.url);
      }, 60_000);

      afterAll(async () => {
        redis?.thaw();
        await route?.close();
        await redis?.close();
      });

      it('answers each try 503 within a few seconds, logs the outage once, and answers the message once when Redis is back', async () => {
        await outage.begin(redis);
        const delivered = route.deliver();
        await until(() => route.tries().length >= TRIES_DURING_OUTAGE, 60_000, 'tries during the outage');
        await outage.end(redis);
        await delivered;
        await until(() => route.answers() >= 1, 60_000, 'the answer after the outage');
        await sleep(WATCH_FOR_A_SECOND_ANSWER_MS);

        expect(route.answers()).toBe(1);
        const tries = route.tries();
        expect(tries.at(-1)).toEqual({ status: 200 });
        // Every try before it was answered, in time, with a status the platform retries.
        expect(tries.slice(0, TRIES_DURING_OUTAGE)).toEqual(Array(TRIES_DURING_OUTAGE).fill({ status: 503 }));
        for (const { status } of tries.slice(0, -1)) expect(status).toBe(503);
        expect(route.log().match(OUTAGE_LINE)).toHaveLength(1);
      }, 200_000);
    });
  }
}
