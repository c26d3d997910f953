/**
 * Tells, sweep after sweep, which conversation locks their holders stopped renewing. An owner field has no lifetime
 * of its own (state/types.ts): a holder renews it by changing it (every heartbeat), so an owner seen unchanged for the
 * lock's lifetime, on this process's own monotonic clock, belongs to a holder that stopped (crashed, frozen, cut off
 * from Redis). No clock of another process is read: their clocks may disagree with this one.
 */

export class OwnerWatch {
  /** Each owned conversation's owner as last seen, and since when (monotonic ms) it has not changed. */
  private readonly seen = new Map<string, { owner: string; since: number }>();

  constructor(
    private readonly lockTtlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The conversations of this sweep's `owners` (queue-owners: member → owner, '' or null for nobody) that may be
   * claimed, each with the owner its claim may take over: '' for nobody, or an owner unchanged for the lock's lifetime.
   */
  claimable(owners: ReadonlyMap<string, string | null>): Map<string, string> {
    const now = this.now();
    for (const member of this.seen.keys()) if (!owners.has(member)) this.seen.delete(member);
    const claimable = new Map<string, string>();
    for (const [member, owner] of owners) {
      if (!owner) {
        this.seen.delete(member);
        claimable.set(member, '');
        continue;
      }
      const seen = this.seen.get(member);
      if (seen?.owner !== owner) this.seen.set(member, { owner, since: now });
      else if (now - seen.since >= this.lockTtlMs) claimable.set(member, owner);
    }
    return claimable;
  }
}
