import type { Redis } from 'ioredis';
import { RedisStateStore } from '../state/index.js';
import type { StateStore } from '../state/types.js';
import { svcKeys } from './state-keys.js';

/**
 * Set once the service's keys are in the hash-tagged layout, so a start
 * after the first costs one GET instead of a SCAN. Deleting it makes the next start
 * look for keys of the old layout again (e.g. after an old version wrote some).
 */
export const KEY_LAYOUT_MARKER = 'svc:key-layout';
const KEY_LAYOUT = '2';

/** Keys looked at per SCAN step. */
const SCAN_COUNT = 1000;

/**
 * The key of the current layout for a key of the layout before hash tags (`svc:chatbot:<sn>`
 * → `svc:chatbot:{s:<sn>}`), or null when `key` is not one (already tagged, a sequence,
 * the generated keys, unknown).
 */
export function currentServiceKey(legacyKey: string): string | null {
  if (legacyKey.includes('{')) return null;
  const usage = /^svc:usage:(.+):(\d{4}-\d{2})$/.exec(legacyKey);
  if (usage) return svcKeys.monthlyUsage(usage[1]!, usage[2]!);
  const match = /^svc:([a-z-]+):(.+)$/.exec(legacyKey);
  if (!match) return null;
  const [, kind, id] = match as unknown as [string, string, string];
  const numeric = /^\d+$/.test(id) ? Number(id) : null;
  switch (kind) {
    case 'chatbot':
      return svcKeys.chatbot(id);
    case 'listings':
      return svcKeys.listings(id);
    case 'listings-version':
      return svcKeys.listingsVersion(id);
    case 'session':
      return numeric === null ? null : svcKeys.session(numeric);
    case 'history':
      return numeric === null ? null : svcKeys.history(numeric);
    case 'rate':
      return numeric === null ? null : svcKeys.rateWindow(numeric);
    case 'file':
      return numeric === null ? null : svcKeys.file(numeric);
    case 'filedata':
      return numeric === null ? null : svcKeys.fileData(numeric);
    case 'upload-claim':
      return numeric === null ? null : svcKeys.uploadClaim(numeric);
    default:
      return null;
  }
}

/**
 * Renames the service's keys of the layout before hash tags to the current one, on a
 * single Redis (or a Sentinel-managed one): the only topologies the old layout ran on.
 * RENAME keeps each key's TTL, and an old key replaces a current one of the same name:
 * at start-up the only such key is what the demo seed has just created, and the old
 * record (with the owner's edits and listing ids) is the one to keep. Idempotent; two
 * processes starting at once both rename, and the loser's RENAME finds no key.
 * Returns how many keys moved.
 */
export async function migrateLegacyServiceKeys(state: StateStore): Promise<number> {
  if (!(state instanceof RedisStateStore) || state.clusterClient) return 0;
  if ((await state.get(KEY_LAYOUT_MARKER)) === KEY_LAYOUT) return 0;
  const moved = await moveLegacyServiceKeys(state.client, state.prefix);
  await state.set(KEY_LAYOUT_MARKER, KEY_LAYOUT);
  return moved;
}

/** The renames of migrateLegacyServiceKeys on a connection of one's own (a migration command). */
export async function moveLegacyServiceKeys(redis: Redis, prefix: string): Promise<number> {
  let moved = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${escapeGlob(prefix)}svc:*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const fullKey of keys) {
      const target = currentServiceKey(fullKey.slice(prefix.length));
      if (target === null) continue;
      try {
        await redis.rename(fullKey, prefix + target);
        moved += 1;
      } catch (error) {
        // Another process starting at the same time renamed it first.
        if (!/no such key/i.test((error as Error).message)) throw error;
      }
    }
  } while (cursor !== '0');
  return moved;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
