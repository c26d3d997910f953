/**
 * Slack as a platform module: its `bots[].slack` section, its SLACK_* variables, its
 * adapter (index.ts: HTTP Events mode with the signing secret, Socket Mode with the
 * app token), the shape of its conversation ids, and its operator door (`bots[].handoff.slack`).
 */
import type { PlatformModule } from '../../src/contract.js';
import { CONVERSATION_ID_EXPECTED, CONVERSATION_ID_PATTERN } from './conversation.js';
import { createSlackAdapter } from './index.js';
import { checkSlackCredentials } from './doctor.js';
import { slackOperatorDoor } from './operators/module.js';
import { slackSection, type SlackSection } from './section.js';

export type { SlackSection } from './section.js';

/** Logged for a bot with a Slack token but no way to receive events. */
export const MISSING_RECEIVER_WARNING =
  'bots[].slack has a bot token but neither a signing secret (SLACK_SIGNING_SECRET, HTTP Events mode) ' +
  'nor an app token (SLACK_APP_TOKEN, Socket Mode); Slack stays offline for this bot.';

export const slackModule: PlatformModule<SlackSection> = {
  name: 'slack',
  displayName: 'Slack',
  configSection: slackSection,
  env: [
    { env: 'SLACK_BOT_TOKEN', key: 'botToken', type: 'string' },
    { env: 'SLACK_APP_TOKEN', key: 'appToken', type: 'string' },
    { env: 'SLACK_SIGNING_SECRET', key: 'signingSecret', type: 'string' },
    { env: 'SLACK_API_URL', key: 'apiUrl', type: 'string' },
  ],
  conversationId: { pattern: CONVERSATION_ID_PATTERN, expected: CONVERSATION_ID_EXPECTED },
  isConfigured: () => true,
  create(section, { bot, logger }) {
    if (!section.appToken && !section.signingSecret) {
      // Without either Slack cannot reach the bot: say which to set rather than fail the whole gateway.
      logger.warn({ bot }, MISSING_RECEIVER_WARNING);
      return undefined;
    }
    return createSlackAdapter({
      bot,
      botToken: section.botToken,
      logger,
      ...(section.appToken ? { appToken: section.appToken } : {}),
      ...(section.signingSecret ? { signingSecret: section.signingSecret } : {}),
      ...(section.apiUrl ? { apiUrl: section.apiUrl } : {}),
    });
  },
  doctor: checkSlackCredentials,
  secrets: (section) => ({
    values: [section.botToken, section.appToken, section.signingSecret],
    urls: [section.apiUrl],
  }),
  // Operators answer in a Slack channel, one thread per handoff (operators/).
  operatorDoor: slackOperatorDoor,
};
