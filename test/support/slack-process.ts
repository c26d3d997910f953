import { setTimeout as sleep } from 'node:timers/promises';
import {
  signedEventRequest,
  signedRawRequest,
  startFakeSlack,
  type FakeSlack,
  type SignedRequestOptions,
  type SlackRequestBody,
} from '../../fakes/slack/index.js';
import { startChatbridge, type ChatbridgeProcess } from './chatbridge-process.js';
import { freePort } from './net.js';

export interface SlackHttpGateway {
  slack: FakeSlack;
  gateway: ChatbridgeProcess;
  /** POSTs a signed event to the gateway's shared /slack/events, as Slack does. */
  post(body: SlackRequestBody, options?: SignedRequestOptions): Promise<Response>;
  /** POSTs signed bytes as given (a body of any shape) to /slack/events. */
  postRaw(body: { raw: string; contentType: string }, options?: SignedRequestOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface SlackHttpGatewayOptions {
  /**
   * Return as soon as the events route answers Slack's url_verification (the port is open),
   * not once the gateway says it runs: what Slack meets right after a deploy or restart.
   */
  early?: boolean;
  /** The fake Slack to use (closed with the gateway); default a new one without rate limits. */
  slack?: FakeSlack;
  /** The Web API base the gateway is given (SLACK_API_URL); default the fake's, e.g. a TCP proxy in front of it instead. */
  apiUrl?: string;
  /** More variables for the process (a REDIS_URL of the test's own). */
  env?: Record<string, string>;
}

/** Generous: two cores shared with other test runs, and a start takes ~2 s on an idle machine. */
const ROUTE_OPEN_TIMEOUT_MS = 45_000;

/**
 * `chatbridge start` with only the Slack variables (HTTP Events mode: bot token, signing secret,
 * SLACK_API_URL at a fake Slack without rate limits), on the embedded demo chatbot.
 */
export async function startSlackHttpGateway(options: SlackHttpGatewayOptions = {}): Promise<SlackHttpGateway> {
  const slack = options.slack ?? (await startFakeSlack({ rateLimits: false }));
  const env = {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: options.apiUrl ?? slack.apiUrl,
    ...options.env,
  };
  const gateway = options.early
    ? await startChatbridge(env, { port: await freePort(), early: true })
    : await startChatbridge(env);
  const url = `http://127.0.0.1:${gateway.port}/slack/events`;
  if (options.early) await untilTheRouteAnswers(url, slack, gateway);
  return {
    slack,
    gateway,
    post: (body, opts) => signedEventRequest(url, slack.signingSecret, body, opts),
    postRaw: (body, opts) => signedRawRequest(url, slack.signingSecret, body, opts),
    close: async () => {
      await gateway.cleanup();
      await slack.close();
    },
  };
}

async function untilTheRouteAnswers(url: string, slack: FakeSlack, gateway: ChatbridgeProcess): Promise<void> {
  const deadline = Date.now() + ROUTE_OPEN_TIMEOUT_MS;
  for (;;) {
    const answer = await signedEventRequest(url, slack.signingSecret, slack.build.urlVerification()).catch(
      () => undefined,
    );
    if (answer?.status === 200) return;
    if (gateway.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the Slack events route never answered url_verification:\n${gateway.log()}`);
    await sleep(10);
  }
}
