/**
 * Who the bot is (auth.test), asked at start and again in the background while Slack
 * cannot be reached (the contract kit's StayConnected, with its reconnect backoff); a
 * refused token fails start() with what to fix. Feeds status().
 */
import type { WebClient } from '@slack/web-api';
import { ConnectRefusedError, StayConnected, type AdapterStatus, type Logger } from '../../src/contract.js';
import { toPlatformError } from './errors.js';
import type { SlackIdentity } from './inbound.js';

export interface SlackConnectionOptions {
  client: WebClient;
  logger: Logger;
  bot: string;
  onIdentity(identity: SlackIdentity): void;
}

export class SlackConnection {
  private readonly link: StayConnected;

  constructor(private readonly options: SlackConnectionOptions) {
    const { logger } = options;
    this.link = new StayConnected({
      attempt: () => this.authTest(),
      onRetry: (error) => logger.warn({ err: error }, 'slack: the Web API did not answer auth.test; trying again'),
      onRefusedLater: (error) => logger.error({ err: error }, 'slack: the token was refused; this bot stays offline'),
    });
  }

  /**
   * Resolves once auth.test answered (then `ready` ran) or, when Slack is unreachable, at once,
   * trying again in the background (`ready` runs when it answers); rejects when Slack refuses the token.
   */
  async start(ready: () => Promise<void>): Promise<void> {
    const connected = await this.link.start(() => {
      void ready().catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'slack: could not start after connecting'),
      );
    });
    if (connected) await ready();
  }

  stop(): void {
    this.link.stop();
  }

  status(): AdapterStatus {
    return this.link.status();
  }

  /** One auth.test: names the bot, fails with what StayConnected retries (unreachable, 429), or refuses. */
  private async authTest(): Promise<void> {
    const { client, bot } = this.options;
    let result: Awaited<ReturnType<WebClient['auth']['test']>>;
    try {
      result = await client.auth.test();
    } catch (error) {
      const mapped = toPlatformError(error, 'auth.test');
      if (mapped.kind === 'unreachable' || mapped.kind === 'rate-limited') throw mapped;
      throw new ConnectRefusedError(
        `Slack refused the token of bot "${bot}" (${mapped.message}): check SLACK_BOT_TOKEN / bots[].slack.botToken (the app's Bot User OAuth Token, xoxb-).`,
        { cause: error },
      );
    }
    if (!result.user_id || !result.bot_id) {
      throw new ConnectRefusedError(
        `Slack auth.test for bot "${bot}" did not name a bot user: SLACK_BOT_TOKEN must be a bot token (xoxb-)`,
      );
    }
    this.options.onIdentity({
      botUserId: result.user_id,
      botId: result.bot_id,
      ...(result.team_id ? { teamId: result.team_id } : {}),
    });
  }
}
