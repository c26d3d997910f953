/**
 * Redis memory one idle conversation keeps: MEMORY USAGE (SAMPLES 0: every element)
 * of every key that belongs to it, found by SCAN under the gateway's prefix. Measured
 * after it was answered a few times and went quiet: the dedupe markers still live then
 * (policy.dedupeTtlMs, 20 min), and are counted apart so both figures are known.
 * The WhatsApp adapter's `greeted:` marker (no expiry) is written here as the adapter
 * writes it, since the bench platform is not WhatsApp.
 */
import type { Redis } from 'ioredis';

export interface IdleBytes {
  /** Every key of the conversation, the dedupe markers included. */
  total: number;
  /** Once the dedupe markers expired. */
  afterDedupe: number;
  /** Per key kind (the part of the key before its first ':'), bytes. */
  byKind: Map<string, number>;
  /** Keys counted once the dedupe markers expired (each carries the prefix in its name). */
  keys: number;
}

/** `prefix` is the gateway store's; `conversationId` must not occur in other conversations' keys. */
export async function measureIdleConversationBytes(
  redis: Redis,
  prefix: string,
  conversationId: string,
): Promise<IdleBytes> {
  const greeted = `${prefix}platform:whatsapp:main:greeted:${conversationId}@c.us`;
  // As src/contract/kit/whatsapp/first-contact-greeting.ts writes it: one byte, no expiry.
  await redis.set(greeted, Buffer.from([49]));
  try {
    const byKind = new Map<string, number>();
    let total = 0;
    let dedupe = 0;
    let keys = 0;
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of found) {
        const logical = key.slice(prefix.length);
        if (!belongsTo(logical, conversationId)) continue;
        const bytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
        const kind = logical.split(':')[0] === 'platform' ? 'whatsapp-greeted' : logical.split(':')[0]!;
        byKind.set(kind, (byKind.get(kind) ?? 0) + bytes);
        total += bytes;
        if (kind === 'dedupe') dedupe += bytes;
        else keys++;
      }
    } while (cursor !== '0');
    return { total, afterDedupe: total - dedupe, byKind, keys };
  } finally {
    await redis.del(greeted);
  }
}

/** The conversation id as a whole segment of the key (`…:42` or `…:42:…`, or `…:42@c.us`), not a prefix of another id. */
function belongsTo(logical: string, id: string): boolean {
  // `u<id>`: the bench platform's user of chat <id> (the rate window's key names the user).
  return logical.split(':').some((segment) => segment === id || segment === `${id}@c.us` || segment === `u${id}`);
}
