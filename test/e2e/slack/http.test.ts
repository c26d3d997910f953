/**
 * `chatbridge start` as a process with only the Slack variables (HTTP Events mode: bot
 * token, signing secret, and SLACK_API_URL pointing at the fake Slack), on the default
 * set-up (the embedded demo chatbot): Slack POSTs signed events to /slack/events and the
 * answers arrive through the fake Web API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../../../fakes/slack/index.js';
import { startSlackHttpGateway, type SlackHttpGateway } from '../../support/slack-process.js';

const QUESTION = 'Homes for sale in Austin?';
/** In the demo's listings: an answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
const ANSWER = { timeoutMs: 45_000 };

describe('chatbridge start with Slack in HTTP Events mode', () => {
  let slack: FakeSlack;
  let stack: SlackHttpGateway;
  const post: SlackHttpGateway['post'] = (body, options) => stack.post(body, options);
  const answers = (channel: string, threadTs?: string) =>
    slack
      .visibleMessages(channel, threadTs)
      .filter((message) => message.text.includes(AUSTIN_LISTING) && message.state === 'done');

  beforeAll(async () => {
    // Each message answered on its own: a test here sends a redelivery and a later message back to back to see that the
    // redelivery was never queued, which a burst (answered as one) would hide; bursts are specified in messages-as-written.
    stack = await startSlackHttpGateway({ env: { CHATBRIDGE_BURST_MS: '0' } });
    ({ slack } = stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('answers a direct message', async () => {
    const dm = 'D0E2EDM0001';
    expect((await post(slack.build.messageIm({ channel: dm, text: QUESTION }))).status).toBe(200);
    await slack.waitFor(() => answers(dm).length === 1, { ...ANSWER, what: 'the answer in the DM' });
  }, 60_000);

  it('answers a mention once, in a thread under it, though Slack delivers it as both message and app_mention', async () => {
    const channel = 'C0E2ECHAN01';
    const mention = slack.build.appMention({ channel, text: QUESTION });
    const mentionTs = String(mention.event.ts);
    await post(slack.build.channelMessage({ channel, text: String(mention.event.text), ts: mentionTs }));
    await post(mention);
    await slack.waitFor(() => answers(channel, mentionTs).length === 1, {
      ...ANSWER,
      what: 'the answer in the thread',
    });
    // Nothing at the channel's top level, and one answer only.
    expect(slack.visibleMessages(channel).filter((message) => message.thread_ts === undefined)).toEqual([]);
    expect(slack.visibleMessages(channel)).toHaveLength(1);
  }, 60_000);

  it('answers an event Slack sends again (X-Slack-Retry-Num, same event_id) once', async () => {
    const dm = 'D0E2EDM0002';
    const event = slack.build.messageIm({ channel: dm, text: QUESTION });
    expect((await post(event)).status).toBe(200);
    expect((await post(event, { retryNum: 1 })).status).toBe(200);
    // A later message is answered after everything queued before it: a queued redelivery would be answered first.
    await post(slack.build.messageIm({ channel: dm, text: 'Anything in Paris?' }));
    await slack.waitFor(() => slack.visibleMessages(dm).some((message) => /Paris/.test(message.text)), {
      ...ANSWER,
      what: 'the answer to the later message',
    });
    expect(answers(dm)).toHaveLength(1);
    expect(slack.visibleMessages(dm)).toHaveLength(2);
  }, 90_000);
});
