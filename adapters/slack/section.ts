/** `bots[].slack`: one bot's Slack app credentials (SLACK_* for the first bot). */
import { z } from 'zod';

export const slackSection = z
  .object({
    botToken: z.string().startsWith('xoxb-', 'a bot token starting with xoxb-'),
    appToken: z.string().startsWith('xapp-', 'an app-level token starting with xapp-').optional(),
    signingSecret: z.string().min(1).optional(),
    apiUrl: z.string().url().optional(),
  })
  .strict();

export type SlackSection = z.infer<typeof slackSection>;
