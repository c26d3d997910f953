import { Redis } from 'ioredis';

/** Whether a Redis answers PING at `url` within `connectTimeoutMs` (no retries, no error events left behind). */
export async function redisAnswers(url: string, connectTimeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: connectTimeoutMs,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
