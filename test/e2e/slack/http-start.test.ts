/**
 * The first seconds of `chatbridge start` in Slack's HTTP Events mode (issue 17.1). The
 * port opens before the gateway knows who its bot is (auth.test) and before the adapter
 * takes messages; Slack delivers what it holds as soon as it can connect. An event that
 * arrives then is a valid event: it is never refused as if its signature were wrong (401).
 * It waits for the start and is answered; or, when Slack's Web API cannot be reached,
 * refused with a status Slack retries (503), and answered when it comes again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { startSlackHttpGateway, type SlackHttpGateway } from '../../support/slack-process.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const QUESTION = 'Homes for sale in Austin?';
/** In the demo's listings: an answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
/** Generous: two cores shared with other test runs. */
const ANSWERS = { timeoutMs: 90_000 };
/** As many as were refused together in the report. */
const EVENTS_AT_START = 11;

const answers = (slack: FakeSlack, channel: string) =>
  slack.visibleMessages(channel).filter((message) => message.text.includes(AUSTIN_LISTING) && message.state === 'done');

let stack: SlackHttpGateway | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await stack?.close();
  await proxy?.close();
  stack = undefined;
  proxy = undefined;
});

/** Polls the gateway's /readyz until it answers 200 (every platform connected). */
async function untilReady(gateway: SlackHttpGateway['gateway'], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await fetch(`http://127.0.0.1:${gateway.port}/readyz`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`/readyz never answered 200; the gateway's log:\n${gateway.log()}`);
    await sleep(200);
  }
}

describe('Slack HTTP Events mode in the first seconds of a start', () => {
  it('answers 200 to every signed event posted as soon as the port opens, and answers each once', async () => {
    stack = await startSlackHttpGateway({ early: true });
    const { slack } = stack;
    // Different users, so that the demo's per-user rate limit does not answer for the chatbot.
    const dms = Array.from({ length: EVENTS_AT_START }, (_, n) => ({
      channel: `D0START${String(n).padStart(4, '0')}`,
      user: `U0START${String(n).padStart(4, '0')}`,
    }));
    const statuses = await Promise.all(
      dms.map(
        async ({ channel, user }) =>
          (await stack!.post(slack.build.messageIm({ channel, user, text: QUESTION }))).status,
      ),
    );
    expect(statuses).toEqual(dms.map(() => 200));
    await slack.waitFor(() => dms.every(({ channel }) => answers(slack, channel).length === 1), {
      ...ANSWERS,
      what: 'an answer in every DM',
    });
    for (const { channel } of dms) expect(slack.visibleMessages(channel)).toHaveLength(1);
  }, 150_000);

  it("answers 503 while Slack's Web API cannot be reached (never 401), and the redelivery once it is back", async () => {
    const slack = await startFakeSlack({ rateLimits: false });
    proxy = await startTcpProxy({ port: Number(new URL(slack.baseUrl).port) });
    await proxy.cut();
    stack = await startSlackHttpGateway({ slack, apiUrl: `${proxy.url}/api/` });
    const dm = 'D0OUTAGE001';
    const event = slack.build.messageIm({ channel: dm, text: QUESTION });

    const refused = await stack.post(event);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    await proxy.restore();
    await untilReady(stack.gateway);
    expect((await stack.post(event, { retryNum: 1, retryReason: 'http_error' })).status).toBe(200);
    await slack.waitFor(() => answers(slack, dm).length === 1, {
      ...ANSWERS,
      what: 'the answer to the redelivered event',
    });
    expect(slack.visibleMessages(dm)).toHaveLength(1);
  }, 150_000);
});
