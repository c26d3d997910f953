/**
 * Correctly signed requests of the wrong shape (issue 17.3). Slack sends a request again
 * whenever it gets anything but a 2xx within 3 s, so a body that cannot be understood is
 * acknowledged at once (200) and logged once with the reason, never answered and never
 * turned into a 500 or a timeout that makes Slack send it again. Good events after them
 * are still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactivityForm, type FakeSlack, type SlackEvent } from '../../../fakes/slack/index.js';
import { startSlackHttpGateway, type SlackHttpGateway } from '../../support/slack-process.js';

const QUESTION = 'Homes for sale in Austin?';
/** In the demo's listings: an answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
const ANSWER = { timeoutMs: 45_000 };
/** The gateway's log line for a signed body it cannot understand. */
const NOT_UNDERSTOOD = 'acknowledged a signed request it cannot understand';
const DM = 'D0MALFORM01';
const GOOD_DM = 'D0GOODDM001';
const NESTING = 100_000;

interface LogLine {
  msg?: string;
  reason?: string;
}

describe('Slack HTTP Events mode with signed bodies of the wrong shape', () => {
  let slack: FakeSlack;
  let stack: SlackHttpGateway;
  const notUnderstood = (): LogLine[] =>
    stack.gateway
      .log()
      .split('\n')
      .filter((line) => line.includes(NOT_UNDERSTOOD))
      .map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    stack = await startSlackHttpGateway();
    ({ slack } = stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('acknowledges each with 200, logs it once with the reason, answers none, and still answers a good event', async () => {
    const good = () => slack.build.messageIm({ channel: DM, text: QUESTION });
    const { event: _event, ...withoutEvent } = good();
    const bodies: { what: string; send: () => Promise<Response>; reasonNames: string }[] = [
      { what: 'event: null', send: () => stack.post({ ...good(), event: null }), reasonNames: 'event' },
      { what: 'event is a string', send: () => stack.post({ ...good(), event: 'message' }), reasonNames: 'event' },
      {
        what: 'a message without channel or ts',
        send: () =>
          stack.post(
            slack.build.envelope({
              type: 'message',
              channel_type: 'im',
              event_ts: '1700000000.000100',
              user: 'U0USER0001',
              text: QUESTION,
            } as SlackEvent),
          ),
        reasonNames: 'event.channel',
      },
      {
        what: 'an interactivity payload whose actions is "nope"',
        send: () =>
          stack.post(
            interactivityForm({
              ...slack.build.blockActions({
                channel: DM,
                messageTs: '1700000000.000200',
                actionId: 'chatbridge_button_0',
                value: 'x',
              }),
              actions: 'nope',
            }),
          ),
        reasonNames: 'actions',
      },
      { what: 'an event_callback without event', send: () => stack.post(withoutEvent), reasonNames: 'event' },
      { what: 'a JSON array', send: () => stack.post([good()]), reasonNames: 'body' },
      {
        what: 'a deeply nested array',
        send: () =>
          stack.postRaw({ raw: `${'['.repeat(NESTING)}${']'.repeat(NESTING)}`, contentType: 'application/json' }),
        reasonNames: 'body',
      },
    ];

    for (const body of bodies) {
      expect({ what: body.what, status: (await body.send()).status }).toEqual({ what: body.what, status: 200 });
    }
    await slack.waitFor(() => notUnderstood().length >= bodies.length, { ...ANSWER, what: 'a log line for each body' });
    expect(notUnderstood().map((line) => line.reason?.split(':')[0])).toEqual(bodies.map((body) => body.reasonNames));

    expect((await stack.post(slack.build.messageIm({ channel: GOOD_DM, text: QUESTION }))).status).toBe(200);
    await slack.waitFor(
      () =>
        slack
          .visibleMessages(GOOD_DM)
          .some((message) => message.text.includes(AUSTIN_LISTING) && message.state === 'done'),
      { ...ANSWER, what: 'the answer to the good event' },
    );
    // Logged once each (Slack did not send them again), and nothing was posted anywhere but the good DM.
    expect(notUnderstood()).toHaveLength(bodies.length);
    expect(slack.calls().filter((call) => call.channel !== undefined && call.channel !== GOOD_DM)).toEqual([]);
    expect(slack.visibleMessages(GOOD_DM)).toHaveLength(1);
  }, 90_000);
});
