/**
 * Who the bot is (auth.test), asked at start and again in the background while Slack
 * cannot be reached; a refused token fails start() with what to fix. Feeds status().
 */
import type { WebClient } from '@slack/web-api';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AdapterStatus, Logger } from '../../src/contract.js';
import { toPlatformError } from './errors.js';
import type { SlackIdentity } from './inbound.js';

/** First wait after an unreachable Web API, doubled up to the ceiling. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export interface SlackConnectionOptions {
  client: WebClient;
  logger: Logger;
  bot: string;
  onIdentity(identity: SlackIdentity): void;
}

export class SlackConnection {
  private connected = false;
  private reason: string | undefined = 'not started';
  private stopped = new AbortController();

  constructor(private readonly options: SlackConnectionOptions) {}

  /**
   * Resolves once auth.test answered (then `ready` ran) or, when Slack is unreachable, at once,
   * trying again in the background; rejects when Slack refuses the token.
   */
  async start(ready: () => Promise<void>): Promise<void> {
    this.stopped = new AbortController();
    const first = await this.attempt();
    if (first === 'ok') return ready();
    void this.retry(ready);
  }

  stop(): void {
    this.stopped.abort();
    this.connected = false;
    this.reason = 'stopped';
  }

  status(): AdapterStatus {
    return this.connected ? { connected: true } : { connected: false, ...(this.reason ? { reason: this.reason } : {}) };
  }

  private async retry(ready: () => Promise<void>): Promise<void> {
    let wait = RETRY_FIRST_MS;
    const { signal } = this.stopped;
    while (!signal.aborted) {
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        return;
      }
      const outcome = await this.attempt().catch((error: unknown) => {
        this.options.logger.error({ err: error }, 'slack: the token was refused; this bot stays offline');
        return 'refused' as const;
      });
      if (outcome === 'refused') return;
      if (outcome === 'ok') {
        await ready().catch((error: unknown) => this.options.logger.error({ err: error }, 'slack: could not start after connecting'));
        return;
      }
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    }
  }

  private async attempt(): Promise<'ok' | 'unreachable'> {
    const { client, logger, bot } = this.options;
    try {
      const result = await client.auth.test();
      if (!result.user_id || !result.bot_id) {
        throw new Error(`Slack auth.test for bot "${bot}" did not name a bot user: SLACK_BOT_TOKEN must be a bot token (xoxb-)`);
      }
      this.options.onIdentity({ botUserId: result.user_id, botId: result.bot_id, ...(result.team_id ? { teamId: result.team_id } : {}) });
      this.connected = true;
      this.reason = undefined;
      return 'ok';
    } catch (error) {
      const mapped = toPlatformError(error, 'auth.test');
      if (mapped.kind === 'unreachable' || mapped.kind === 'rate-limited') {
        this.reason = mapped.message;
        logger.warn({ err: mapped }, 'slack: the Web API did not answer auth.test; trying again');
        return 'unreachable';
      }
      throw new Error(`Slack refused the token of bot "${bot}" (${mapped.message}): check SLACK_BOT_TOKEN / bots[].slack.botToken (the app's Bot User OAuth Token, xoxb-).`, { cause: error });
    }
  }
}
