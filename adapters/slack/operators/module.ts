/**
 * The Slack operator door as the Slack module declares it (`operatorDoor`): its section
 * `bots[].handoff.slack`, its HANDOFF_SLACK_* variables, the door it builds, doctor's check.
 *
 * The operators' app is the door's own when the section has a bot token (events over HTTP
 * with its signing secret, or Socket Mode with its app token); otherwise the bot's own Slack
 * app, whose adapter hands the channel's events to the door. Neither: the door cannot work,
 * and create() says which variable to set.
 */
import { z } from 'zod';
import type { OperatorDoorContext, OperatorDoorModule } from '../../../src/contract.js';
import { createWebClient } from '../client.js';
import { isSlackAdapter } from '../index.js';
import type { SlackSection } from '../section.js';
import { checkOperatorDoor } from './doctor.js';
import { SlackOperatorDoor } from './door.js';
import { httpReceiver, sharedReceiver, socketReceiver } from './receivers.js';

const doorSection = z
  .object({
    channel: z.string().regex(/^[CG][A-Z0-9]{2,23}$/, 'a Slack channel id (C… public, G… private), e.g. C0123ABCD'),
    botToken: z.string().startsWith('xoxb-', 'a bot token starting with xoxb-').optional(),
    signingSecret: z.string().min(1).optional(),
    appToken: z.string().startsWith('xapp-', 'an app-level token starting with xapp-').optional(),
    apiUrl: z.string().url().optional(),
    mode: z.enum(['threads', 'alerts']).default('threads'),
  })
  .strict();

export type SlackDoorSection = z.infer<typeof doorSection>;

/** Thrown when neither the door nor the bot has a Slack app. */
export const NO_OPERATORS_APP =
  "The Slack operators' channel needs a Slack app: set HANDOFF_SLACK_BOT_TOKEN (bots[].handoff.slack.botToken) " +
  "with HANDOFF_SLACK_SIGNING_SECRET or HANDOFF_SLACK_APP_TOKEN for the operators' own app, " +
  'or give the bot a Slack app of its own (SLACK_BOT_TOKEN) to share.';

function create(door: SlackDoorSection, context: OperatorDoorContext<SlackSection>): SlackOperatorDoor {
  const { bot, logger } = context;
  const common = { bot, channel: door.channel, mode: door.mode, logger };
  if (door.botToken) {
    const files = { botToken: door.botToken, ...(door.apiUrl ? { apiUrl: door.apiUrl } : {}) };
    const receiver = door.appToken
      ? socketReceiver({
          bot,
          botToken: door.botToken,
          appToken: door.appToken,
          ...(door.apiUrl ? { apiUrl: door.apiUrl } : {}),
          logger,
        })
      : door.signingSecret
        ? httpReceiver({ bot, signingSecret: door.signingSecret, logger })
        : undefined;
    if (!receiver)
      throw new Error(
        `bot "${bot}": HANDOFF_SLACK_BOT_TOKEN is set, but Slack cannot send the operators' app its events: ` +
          'set HANDOFF_SLACK_SIGNING_SECRET (events at POST /slack/operators/events) or HANDOFF_SLACK_APP_TOKEN (Socket Mode)',
      );
    return new SlackOperatorDoor({
      ...common,
      client: createWebClient(door.botToken, door.apiUrl, logger),
      files,
      tokenVariable: 'HANDOFF_SLACK_BOT_TOKEN',
      receiver,
    });
  }
  const shared = context.own?.adapter;
  if (!isSlackAdapter(shared)) throw new Error(`bot "${bot}": ${NO_OPERATORS_APP}`);
  return new SlackOperatorDoor({
    ...common,
    client: shared.client,
    files: shared.fileSource,
    tokenVariable: 'SLACK_BOT_TOKEN',
    receiver: sharedReceiver(shared, door.channel),
  });
}

export const slackOperatorDoor: OperatorDoorModule<SlackSection, SlackDoorSection> = {
  configSection: doorSection,
  env: [
    { env: 'HANDOFF_SLACK_CHANNEL', key: 'channel', type: 'string' },
    { env: 'HANDOFF_SLACK_BOT_TOKEN', key: 'botToken', type: 'string' },
    { env: 'HANDOFF_SLACK_SIGNING_SECRET', key: 'signingSecret', type: 'string' },
    { env: 'HANDOFF_SLACK_APP_TOKEN', key: 'appToken', type: 'string' },
    { env: 'HANDOFF_SLACK_API_URL', key: 'apiUrl', type: 'string' },
    { env: 'HANDOFF_SLACK_MODE', key: 'mode', type: 'string' },
  ],
  create,
  async doctor(door, own, bot) {
    const token = door.botToken ?? own?.botToken;
    if (!token) throw new Error(`bot "${bot}": ${NO_OPERATORS_APP}`);
    if (door.botToken && !door.signingSecret && !door.appToken)
      throw new Error(
        `bot "${bot}": the operators' app cannot receive events: set HANDOFF_SLACK_SIGNING_SECRET or HANDOFF_SLACK_APP_TOKEN`,
      );
    const apiUrl = door.botToken ? door.apiUrl : own?.apiUrl;
    const found = await checkOperatorDoor(
      {
        channel: door.channel,
        token,
        tokenVariable: door.botToken ? 'HANDOFF_SLACK_BOT_TOKEN' : 'SLACK_BOT_TOKEN',
        ...(apiUrl ? { apiUrl } : {}),
      },
      bot,
    );
    return `${found}, ${door.mode} mode, ${door.botToken ? "the operators' own app" : "the bot's own app"}`;
  },
  secrets: (door) => ({ values: [door.botToken, door.signingSecret, door.appToken], urls: [door.apiUrl] }),
};
