import { signedEventRequest, startFakeSlack, type FakeSlack, type SlackRequestBody } from '../../fakes/slack/index.js';
import { startChatbridge, type ChatbridgeProcess } from './chatbridge-process.js';

export interface SlackHttpGateway {
  slack: FakeSlack;
  gateway: ChatbridgeProcess;
  /** POSTs a signed event to the gateway's shared /slack/events, as Slack does. */
  post(body: SlackRequestBody, options?: { retryNum?: number }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * `chatbridge start` with only the Slack variables (HTTP Events mode: bot token, signing secret,
 * SLACK_API_URL at a fake Slack without rate limits), on the embedded demo chatbot.
 */
export async function startSlackHttpGateway(): Promise<SlackHttpGateway> {
  const slack = await startFakeSlack({ rateLimits: false });
  const gateway = await startChatbridge({ SLACK_BOT_TOKEN: slack.botToken, SLACK_SIGNING_SECRET: slack.signingSecret, SLACK_API_URL: slack.apiUrl });
  return {
    slack,
    gateway,
    post: (body, options) => signedEventRequest(`http://127.0.0.1:${gateway.port}/slack/events`, slack.signingSecret, body, options),
    close: async () => {
      await gateway.cleanup();
      await slack.close();
    },
  };
}
