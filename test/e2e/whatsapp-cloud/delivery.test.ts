/**
 * How answers reach a WhatsApp Cloud user, as a process: `chatbridge start` with the
 * WHATSAPP_CLOUD_* variables at the fake Cloud API and a scripted Chatbot Service whose answers
 * the test writes. A long answer written slowly: "typing…" on the question's own wamid while
 * nothing is visible, then the answer whole at its end in as few messages as 4,096 characters
 * allow, cut at paragraph ends (the Cloud API cannot edit). And a storm of Meta's 131056 (the
 * pair rate limit, on in this fake only): every final answer delivered once, after waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedService, type ScriptedService } from '../../support/delivery-gateway.js';
import { startCloudDeliveryGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';

const WAIT = { timeoutMs: 45_000 };
/** Ten paragraphs of about 640 characters: 6,500 in all, more than one message of 4,096 holds. */
const PARAGRAPHS = Array.from(
  { length: 10 },
  (_, i) => `Paragraph ${i + 1}. ${'This home has a garden and a quiet street. '.repeat(15).trim()}`,
);
const LONG_ANSWER = PARAGRAPHS.join('\n\n');

describe('chatbridge start with WhatsApp Cloud: a long answer', () => {
  let service: ScriptedService;
  let cloud: CloudProcess;

  beforeAll(async () => {
    // Written in twenty pieces 150 ms apart: three seconds in which nothing is visible yet.
    service = await startScriptedService((question) =>
      question === 'Tell me everything'
        ? { fragments: LONG_ANSWER.match(/[\s\S]{1,330}/g)!, gapMs: 150 }
        : { fragments: [`You said: ${question}`] },
    );
    cloud = await startCloudDeliveryGateway({ upstreamUrl: service.url, fake: { pairRateLimit: false } });
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
    await service?.close();
  });

  it('shows "typing…" on the question while it is written, then sends it whole in two messages cut at a paragraph end, nothing twice', async () => {
    const user = '4915100004001';
    const question = await cloud.fake.userSends({ from: user, text: 'Tell me everything' });
    await cloud.fake.waitFor(() => cloud.texts(user).join('').includes('Paragraph 10.'), {
      ...WAIT,
      what: 'the end of the long answer',
    });
    // A first message is greeted first (the service has no WelcomeMessage: the gateway's own greeting).
    const answer = cloud.fake.visibleMessages(user).filter((message) => message.text?.startsWith('Paragraph'));
    const sent = answer.map((message) => message.text!);
    expect(cloud.texts(user)).toHaveLength(3);
    expect(sent).toHaveLength(2);
    for (const text of sent) expect(text.length).toBeLessThanOrEqual(4_096);
    // Cut between paragraphs: each message is whole paragraphs, and together they are the answer, in order.
    expect(sent.flatMap((text) => text.split('\n\n'))).toEqual(PARAGRAPHS);
    // "typing…" was on the user's own message, and before any of the answer was visible.
    const typing = cloud.fake.readMarks().filter((mark) => mark.typing && mark.messageId === question);
    expect(typing.length).toBeGreaterThan(0);
    expect(typing[0]!.at).toBeLessThan(answer[0]!.at);
    expect(service.questions).toEqual(['Tell me everything']);
  }, 60_000);
});

describe('chatbridge start with WhatsApp Cloud: a storm of 131056', () => {
  let service: ScriptedService;
  let cloud: CloudProcess;

  beforeAll(async () => {
    service = await startScriptedService((question) => ({ fragments: [`You said: ${question}`] }));
    // Meta's sustained pair pace (one message per 6 s from the number to a user) with no burst to
    // borrow from: every second message to a user within 6 s is refused with 131056.
    cloud = await startCloudDeliveryGateway({
      upstreamUrl: service.url,
      fake: { pairRateLimit: { burst: 1, perSeconds: 6 } },
    });
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
    await service?.close();
  });

  it("delivers every final answer once, waiting out Meta's 131056 for four users at once", async () => {
    const users = ['4915100004101', '4915100004102', '4915100004103', '4915100004104'];
    const answers = (user: string) => cloud.texts(user).filter((text) => text.startsWith('You said:'));
    // Each user is greeted first (the service has no WelcomeMessage: the gateway's own greeting), and
    // the answer follows at once, within the 6 s the greeting owes: Meta refuses it, the adapter waits.
    await Promise.all(users.map((user) => cloud.fake.userSends({ from: user, text: `question from ${user}` })));
    await cloud.fake.waitFor(() => users.every((user) => answers(user).length === 1), {
      ...WAIT,
      what: 'the answers, after the storm',
    });
    const refused = cloud.fake.calls().filter((call) => call.errorCode === 131056);
    expect(refused.length).toBeGreaterThanOrEqual(users.length);
    // Nothing went twice: per user the greeting and the answer, and no other message.
    expect(service.questions.toSorted()).toEqual(users.map((user) => `question from ${user}`).toSorted());
    for (const user of users) {
      expect(cloud.texts(user)).toHaveLength(2);
      expect(answers(user)).toEqual([`You said: question from ${user}`]);
      expect(refused.some((call) => (call.body as { to?: string }).to === user)).toBe(true);
    }
    expect(cloud.gateway.log()).toMatch(/Meta rate-limited a message; waiting, then trying again/);
  }, 90_000);
});
