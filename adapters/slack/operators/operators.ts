/**
 * Who an operator is, from users.info: the display name, else the real name, else the id;
 * the profile e-mail where the app may read it (users:read.email). Kept a few minutes, so a
 * conversation answered message by message asks Slack once, and a renamed operator shows
 * their new name soon. When Slack cannot say (no users:read, unreachable), the id stands in:
 * a message is never held back for a name.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger, OperatorIdentity } from '../../../src/contract.js';

/** How long a name is kept. */
export const OPERATOR_CACHE_TTL_MS = 5 * 60_000;
/** Operators remembered at most (the oldest go first). */
const OPERATORS_KEPT = 1000;

export class OperatorDirectory {
  private readonly known = new Map<string, { identity: OperatorIdentity; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async lookup(userId: string): Promise<OperatorIdentity> {
    const cached = this.known.get(userId);
    if (cached && cached.until > this.now()) return cached.identity;
    const identity = await this.ask(userId);
    if (!identity) return { id: userId, name: userId };
    this.known.delete(userId);
    this.known.set(userId, { identity, until: this.now() + OPERATOR_CACHE_TTL_MS });
    if (this.known.size > OPERATORS_KEPT) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    return identity;
  }

  private async ask(userId: string): Promise<OperatorIdentity | undefined> {
    try {
      const { user } = await this.client.users.info({ user: userId });
      const profile = user?.profile;
      const name = profile?.display_name || profile?.real_name || user?.real_name || userId;
      return { id: userId, name, ...(profile?.email ? { email: profile.email } : {}) };
    } catch (error) {
      this.logger.warn(
        { err: error, user: userId },
        "slack operators: users.info failed (the app needs users:read); the operator's id stands for their name",
      );
      return undefined;
    }
  }
}
