/**
 * Which channel threads the bot answers in, so that later messages there are answered
 * without a new mention. A thread is the bot's when it was mentioned in it here (this
 * process remembers it), or, for a thread this process has not seen (another replica
 * answered it, or the gateway restarted), when Slack's conversations.replies shows a
 * message of the bot or a mention of it. Nothing is kept outside Slack itself, so any
 * number of replicas agree.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../src/contract.js';
import type { SlackIdentity } from './inbound.js';

/** Threads remembered per process; the oldest are forgotten first (and asked of Slack again if they come back). */
const REMEMBERED_THREADS = 10_000;
/**
 * A thread found not to be ours is asked again after this long: another replica may have
 * been mentioned in it since. Short, because a mention elsewhere is the only way it changes.
 */
const NOT_OURS_TTL_MS = 30_000;
/** Messages of a thread read to find the bot (one conversations.replies page). */
const REPLIES_PAGE = 200;

export class ThreadMemory {
  /** thread key → true (ours) or the time until which "not ours" holds. */
  private readonly known = new Map<string, true | number>();

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
  ) {}

  remember(channel: string, threadTs: string): void {
    this.set(`${channel}:${threadTs}`, true);
  }

  async isOurs(channel: string, threadTs: string, identity: SlackIdentity): Promise<boolean> {
    const key = `${channel}:${threadTs}`;
    const known = this.known.get(key);
    if (known === true) return true;
    if (typeof known === 'number' && known > Date.now()) return false;
    const ours = await this.askSlack(channel, threadTs, identity);
    this.set(key, ours ? true : Date.now() + NOT_OURS_TTL_MS);
    return ours;
  }

  private async askSlack(channel: string, threadTs: string, identity: SlackIdentity): Promise<boolean> {
    try {
      const replies = await this.client.conversations.replies({ channel, ts: threadTs, limit: REPLIES_PAGE });
      const mention = `<@${identity.botUserId}>`;
      return (replies.messages ?? []).some(
        (m) => m.user === identity.botUserId || m.bot_id === identity.botId || (m.text ?? '').includes(mention),
      );
    } catch (error) {
      // Unknown is treated as not ours: a mention still reaches the bot.
      this.logger.warn(
        { err: error, channel, threadTs },
        'slack: could not read a thread to see whether the bot answers in it (needs channels:history); answering only mentions there',
      );
      return false;
    }
  }

  private set(key: string, value: true | number): void {
    this.known.delete(key);
    this.known.set(key, value);
    if (this.known.size > REMEMBERED_THREADS) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }
}
