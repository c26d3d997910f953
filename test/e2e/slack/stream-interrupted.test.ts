/**
 * Issue #17, item 2: a native stream left "writing…" by a crash. `chatbridge start`
 * (Slack, HTTP Events mode, against the fake Slack) is killed with SIGKILL while an
 * answer streams natively in a DM thread (chat.startStream done, never stopped). The
 * process that takes the conversation over closes that stream with the "interrupted"
 * note (chat.stopStream), rather than posting the note as a message of its own and
 * leaving the stream open, and then answers the question again, complete, once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signedEventRequest, startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { conversationTag, pendingMembers, userTexts } from '../../../src/gateway/index.js';
import { inflightIndexKey } from '../../../src/gateway/relay/index.js';
import {
  FAST_TAKEOVER,
  startDeliveryGateway,
  startScriptedService,
  until,
  type DeliveryGateway,
  type ScriptedService,
} from '../../support/delivery-gateway.js';

const DM = 'D0E2ECRASH1';
const THREAD_TS = '1700000000.000300';
const CONVERSATION = { bot: 'main', platform: 'slack', id: `${DM}:${THREAD_TS}` };
const QUESTION = 'Homes for sale in Austin?';
const FRAGMENTS = [
  'Here are the homes for sale in Austin that match what you asked for. ',
  'First, 1200 Barton Springs Rd: three bedrooms and a garden. ',
  'Second, 300 Bowie St: a flat with a view over the river. ',
  'That is all I have for now.',
];
const WHOLE_ANSWER = FRAGMENTS.join('').trim();
const NOTE = userTexts.interruptedNote;
const ANSWER = { timeoutMs: 45_000 };

describe('a native stream cut off by a crash (chatbridge start with Slack, as a process)', () => {
  let slack: FakeSlack;
  let service: ScriptedService;
  const gateways: DeliveryGateway[] = [];

  afterEach(async () => {
    for (const gateway of gateways.splice(0)) {
      // A killed process has nothing left to stop; its state is the survivor's, deleted by its cleanup.
      if (gateway.process.child.signalCode === 'SIGKILL') await gateway.state.close();
      else await gateway.cleanup();
    }
    await service?.close();
    await slack?.close();
  });

  it('is closed with the note by the process that takes over, and the answer then comes complete, once', async () => {
    slack = await startFakeSlack({ rateLimits: false });
    // The first ask stops after two fragments (the process is killed then); the second is answered in full.
    service = await startScriptedService((_question, askNumber) =>
      askNumber === 1 ? { fragments: FRAGMENTS, gapMs: 300, hangAfter: 2 } : { fragments: FRAGMENTS, gapMs: 100 },
    );
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: slack.apiUrl,
    };
    const options = { env, upstreamUrl: service.url, gateway: FAST_TAKEOVER };
    const first = await startDeliveryGateway(options);
    gateways.push(first);

    const event = slack.build.messageIm({ channel: DM, text: QUESTION, thread_ts: THREAD_TS });
    expect(
      (await signedEventRequest(`http://127.0.0.1:${first.process.port}/slack/events`, slack.signingSecret, event))
        .status,
    ).toBe(200);
    const thread = () => slack.visibleMessages(DM, THREAD_TS);
    await slack.waitFor(
      () =>
        thread().some((message) => message.state === 'streaming' && message.text.includes('homes for sale in Austin')),
      { ...ANSWER, what: 'the half answer, streaming' },
    );
    // What the answer left on screen is recorded for whoever takes over.
    await until(
      async () =>
        (
          await first.state.sortedRangeByScore(
            inflightIndexKey(conversationTag(CONVERSATION)),
            Number.NEGATIVE_INFINITY,
            Number.POSITIVE_INFINITY,
          )
        ).length > 0,
      'the in-flight record',
    );
    const [stream] = thread();
    first.process.child.kill('SIGKILL');
    await new Promise((resolve) => first.process.child.once('exit', resolve));

    // A restart on the same state: its message is still queued and is answered again.
    const second = await startDeliveryGateway({ ...options, prefix: first.prefix });
    gateways.push(second);
    await slack.waitFor(
      () => thread().some((message) => message.state === 'done' && message.text.trim().endsWith(WHOLE_ANSWER)),
      { ...ANSWER, what: 'the answer given again' },
    );
    await until(async () => (await pendingMembers(second.state)).length === 0, 'the message to leave the queue');

    const messages = thread();
    // The half-written stream is closed, carrying the note after what it showed.
    const closed = messages.find((message) => message.ts === stream!.ts);
    expect(closed?.state).toBe('done');
    expect(closed?.text).toContain('homes for sale in Austin');
    expect(closed?.text.trimEnd().endsWith(NOTE)).toBe(true);
    expect(slack.calls('chat.stopStream').filter((call) => call.ok && call.params.ts === stream!.ts)).toHaveLength(1);
    // No note of its own, no stream left open, and the answer once, after the note.
    expect(messages.filter((message) => message.text.includes(NOTE))).toHaveLength(1);
    expect(messages.filter((message) => message.state === 'streaming')).toEqual([]);
    const answers = messages.filter((message) => message.text.trim().endsWith(WHOLE_ANSWER));
    expect(answers).toHaveLength(1);
    expect(answers[0]!.ts > stream!.ts).toBe(true);
    expect(messages).toHaveLength(2);
    expect(service.questions).toEqual([QUESTION, QUESTION]);
  }, 120_000);
});
