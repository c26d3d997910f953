/**
 * The conversation queue's steps in memory (StateStore.queueOffer … queueRelease), as the Redis scripts do them
 * (redis/scripts.ts): each touches the entries synchronously (no await in between), so no other caller can interleave.
 * The legacy keys (types.ts LegacyQueueKeys) are not kept here: no process of another version shares a memory store.
 */
import { randomUUID } from 'node:crypto';
import { assertCommandsInOneSlot, queueKeys } from './command-keys.js';
import type {
  AtomicCommand,
  ConversationQueueKeys,
  HeadClaim,
  QueueAdvanceOptions,
  QueueAdvanceResult,
  QueueClaim,
  QueueOfferOptions,
  QueueOfferResult,
} from './types.js';

/** What the steps need of the memory store's entries. */
export interface MemoryQueueSite {
  readonly prefix: string;
  readonly checkSlots: boolean;
  /** The list at `key` (created empty when `create`), undefined when absent. */
  list(key: string, create: boolean): string[] | undefined;
  hash(key: string, create: boolean): Map<string, string> | undefined;
  exists(key: string): boolean;
  setString(key: string, value: string, ttlMs: number): void;
  /** Deletes a collection left empty, as Redis does. */
  dropIfEmpty(key: string): void;
  runAll(commands: readonly AtomicCommand[]): Promise<unknown[]>;
}

export class MemoryQueueSteps {
  /** Renewals: each gives the owner field a value it never had, which is what sweeps watch. */
  private renewals = 0;

  constructor(private readonly site: MemoryQueueSite) {}

  offer(keys: ConversationQueueKeys, entry: string, options: QueueOfferOptions): QueueOfferResult {
    const { site } = this;
    if (site.checkSlots) assertCommandsInOneSlot('queueOffer', site.prefix, [], queueKeys(keys, options.dedupeKey));
    if (site.exists(options.dedupeKey)) return { outcome: 'duplicate' };
    site.setString(options.dedupeKey, '1', options.dedupeTtlMs);
    const list = site.list(keys.queue, true)!;
    if (list.length >= options.maxLength) {
      site.dropIfEmpty(keys.queue);
      return { outcome: 'full', length: list.length };
    }
    list.push(entry);
    const owners = site.hash(keys.owners, true)!;
    const owner = owners.get(keys.member) ?? '';
    if (options.claim === false) {
      owners.set(keys.member, owner);
      return owner === ''
        ? { outcome: 'queued', length: list.length, claim: null, lockFree: true }
        : { outcome: 'queued', length: list.length, claim: null };
    }
    if (owner !== '') return { outcome: 'queued', length: list.length, claim: null };
    const token = randomUUID();
    owners.set(keys.member, token);
    return { outcome: 'queued', length: list.length, claim: { token, head: list[0]! } };
  }

  claim(keys: ConversationQueueKeys, expectedOwner = ''): QueueClaim | null {
    if (this.site.checkSlots) assertCommandsInOneSlot('queueClaim', this.site.prefix, [], queueKeys(keys));
    const token = randomUUID();
    const found = this.claimQueue(keys, token, expectedOwner);
    return typeof found === 'string' ? { token, head: found } : null;
  }

  claimHead(c: Extract<AtomicCommand, { op: 'claimHead' }>): HeadClaim {
    const found = this.claimQueue({ queue: c.queue, owners: c.key, member: c.member }, c.token, '');
    if (typeof found !== 'string') return found;
    return found === c.head ? { outcome: 'claimed' } : { outcome: 'other-head', head: found };
  }

  async advance(
    keys: ConversationQueueKeys,
    token: string,
    also: readonly AtomicCommand[],
    options: QueueAdvanceOptions,
  ): Promise<QueueAdvanceResult> {
    const { site } = this;
    if (site.checkSlots) assertCommandsInOneSlot('queueAdvance', site.prefix, also, queueKeys(keys));
    await site.runAll(also);
    const owners = site.hash(keys.owners, false);
    if (!owners || !ownedBy(owners.get(keys.member), token)) return { owned: false };
    const list = site.list(keys.queue, false);
    const answered = options.answered ?? [];
    const removed = list?.splice(0, Math.max(answered.length, 1)) ?? [];
    const changed = answered.filter((entry, i) => removed[i] !== undefined && removed[i] !== entry).length;
    const told = answered.length > 0 ? { changed } : {};
    const next = list?.[0];
    if (next !== undefined && options.letGo) {
      owners.set(keys.member, '');
      return { owned: true, next, letGo: true, ...told };
    }
    if (next !== undefined) return { owned: true, next, ...told };
    site.dropIfEmpty(keys.queue);
    this.unindex(keys);
    return { owned: true, next: null, ...told };
  }

  renew(keys: ConversationQueueKeys, token: string): boolean {
    const owners = this.site.hash(keys.owners, false);
    if (!owners || !ownedBy(owners.get(keys.member), token)) return false;
    owners.set(keys.member, `${token}#${(++this.renewals).toString(36)}`);
    return true;
  }

  release(keys: ConversationQueueKeys, token: string): boolean {
    const owners = this.site.hash(keys.owners, false);
    if (!owners || !ownedBy(owners.get(keys.member), token)) return false;
    owners.set(keys.member, '');
    return true;
  }

  /** The lock taken with `token` and the queue's head; `taken` when someone else owns it, `empty` when nothing is queued (then unindexed). */
  private claimQueue(
    keys: ConversationQueueKeys,
    token: string,
    expectedOwner: string,
  ): string | { outcome: 'taken' | 'empty' } {
    const owner = this.site.hash(keys.owners, false)?.get(keys.member);
    if (owner !== undefined && owner !== '' && owner !== expectedOwner) return { outcome: 'taken' };
    const head = this.site.list(keys.queue, false)?.[0];
    if (head === undefined) {
      this.unindex(keys);
      return { outcome: 'empty' };
    }
    this.site.hash(keys.owners, true)!.set(keys.member, token);
    return head;
  }

  private unindex(keys: ConversationQueueKeys): void {
    this.site.hash(keys.owners, false)?.delete(keys.member);
    this.site.dropIfEmpty(keys.owners);
  }
}

/** Whether the owner field's value is `token`'s (renewals append `#<n>`; redis/scripts.ts OWNS on Redis). */
function ownedBy(owner: string | undefined, token: string): boolean {
  return owner === token || (owner !== undefined && owner.startsWith(`${token}#`));
}
