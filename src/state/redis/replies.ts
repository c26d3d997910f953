/** Redis replies in the shapes the StateStore promises (the memory store gives the same ones). */
import type { ClaimReply } from './scripts.js';
import type { AtomicCommand, HeadClaim } from '../types.js';

/** Gives `atomic()` results the same shapes as the single-command methods (and the memory store). */
export function normalize(c: AtomicCommand, reply: unknown): unknown {
  switch (c.op) {
    case 'set':
    case 'hashSet':
    case 'sortedAdd':
      return undefined;
    case 'setIfAbsent':
      return reply === 'OK';
    case 'expire':
      return reply === 1;
    case 'listPush':
      return c.maxLength === undefined ? reply : Math.min(Number(reply), c.maxLength);
    // Inside MULTI ioredis returns HGETALL's flat reply, not the object its hgetall() builds.
    case 'hashGetAll':
      return Array.isArray(reply) ? pairsToObject(reply as string[]) : reply;
    case 'claimHead':
      return headClaim(reply as ClaimReply);
    case 'sortedRangeByScore':
      return scoredMembers(reply as string[]);
    default:
      return reply;
  }
}

export function headClaim([found, head]: ClaimReply): HeadClaim {
  switch (found) {
    case 1:
      return { outcome: 'claimed' };
    case 2:
      return { outcome: 'other-head', head: head! };
    case 3:
      return { outcome: 'empty' };
    default:
      return { outcome: 'taken' };
  }
}

/** ZRANGEBYSCORE … WITHSCORES's flat reply as members with their scores. */
export function scoredMembers(flat: readonly string[]): { member: string; score: number }[] {
  const out: { member: string; score: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ member: flat[i]!, score: Number(flat[i + 1]) });
  return out;
}

export function pairsToObject(flat: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
  return fields;
}
