/**
 * The whole path on Slack: the real Bolt adapter (HTTP Events mode, its routes mounted
 * on an HTTP server as the runtime does) receiving signed events from the fake Slack,
 * answering through the fake Web API, the gateway core on real Redis, the real client
 * and the embedded service.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { interactivityForm, slashCommandForm, type FakeSlack } from '../../../fakes/slack/index.js';
import { startSlackStack, type SlackStack, type SlackStackOptions } from './slack-stack.js';

const DM = 'D0DM000001';
const CHANNEL = 'C0CHAN0001';
const QUESTION = 'Homes for sale in Austin?';
/** In the demo's listings: the answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
const ANSWER_TIMEOUT = { timeoutMs: 20_000 };

let stack: SlackStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(options: SlackStackOptions = {}): Promise<SlackStack> {
  stack = await startSlackStack(options);
  return stack;
}

const answered = (fake: FakeSlack, channel: string, threadTs?: string) =>
  fake.visibleMessages(channel, threadTs).filter((m) => m.text.includes(AUSTIN_LISTING) && m.state === 'done');

describe('Slack end to end through the gateway (HTTP Events mode)', () => {
  it('streams the answer to a DM thread natively (startStream, then stopStream with the complete answer)', async () => {
    const { fake, post } = await start();
    const threadTs = '1700000000.000100';
    const response = await post(fake.build.messageIm({ channel: DM, text: QUESTION, thread_ts: threadTs }));
    expect(response.status).toBe(200);
    await fake.waitFor(() => answered(fake, DM, threadTs).length === 1, {
      ...ANSWER_TIMEOUT,
      what: 'the streamed answer',
    });
    const [message] = fake.visibleMessages(DM, threadTs);
    expect(message?.sentWith).toBe('chat.startStream');
    expect(fake.calls('chat.startStream')).toHaveLength(1);
    expect(fake.calls('chat.stopStream')).toHaveLength(1);
    expect(fake.calls('chat.postMessage')).toHaveLength(0);
  }, 60_000);

  it('falls back to a message and edits when the workspace refuses native streaming (not_allowed)', async () => {
    const { fake, post } = await start({ fake: { streaming: 'not_allowed' } });
    const threadTs = '1700000000.000200';
    await post(fake.build.messageIm({ channel: DM, text: QUESTION, thread_ts: threadTs }));
    await fake.waitFor(() => answered(fake, DM, threadTs).length === 1, {
      ...ANSWER_TIMEOUT,
      what: 'the answer by edits',
    });
    expect(fake.visibleMessages(DM, threadTs).map((m) => m.sentWith)).toEqual(['chat.postMessage']);
    expect(fake.calls('chat.startStream').length).toBeGreaterThan(0);
  }, 60_000);

  it('answers a DM at its top level by a message that is edited as the answer grows', async () => {
    const { fake, post } = await start();
    await post(fake.build.messageIm({ channel: DM, text: QUESTION }));
    await fake.waitFor(() => answered(fake, DM).length === 1, { ...ANSWER_TIMEOUT, what: 'the answer' });
    const [message] = fake.visibleMessages(DM);
    expect(message?.sentWith).toBe('chat.postMessage');
    expect(message?.thread_ts).toBeUndefined();
  }, 60_000);

  it('answers a mention once in its thread (Slack sends it as message and app_mention), then the thread without one; not a plain channel message', async () => {
    const { fake, post } = await start();
    const plain = fake.build.channelMessage({ channel: CHANNEL, text: 'Lunch anyone?' });
    expect((await post(plain)).status).toBe(200);
    const mention = fake.build.appMention({ channel: CHANNEL, text: QUESTION });
    const mentionTs = String(mention.event.ts);
    // Slack's double delivery: the same message as a `message` event carrying the mention.
    await post(fake.build.channelMessage({ channel: CHANNEL, text: String(mention.event.text), ts: mentionTs }));
    await post(mention);
    await fake.waitFor(() => answered(fake, CHANNEL, mentionTs).length === 1, {
      ...ANSWER_TIMEOUT,
      what: 'the answer in the thread',
    });

    await post(fake.build.threadMessage({ channel: CHANNEL, thread_ts: mentionTs, text: 'And in Paris?' }));
    await fake.waitFor(() => fake.visibleMessages(CHANNEL, mentionTs).filter((m) => m.state === 'done').length === 2, {
      ...ANSWER_TIMEOUT,
      what: 'the answer to the thread reply',
    });
    const replies = fake.visibleMessages(CHANNEL, mentionTs);
    expect(replies).toHaveLength(2);
    expect(replies[1]?.text).toMatch(/Paris/i);
    // The bot never wrote at the channel's top level: the plain message went unanswered.
    expect(fake.visibleMessages(CHANNEL).filter((m) => m.thread_ts === undefined)).toHaveLength(0);
  }, 60_000);

  it('answers a redelivered event (X-Slack-Retry-Num, same event) once', async () => {
    const { fake, post } = await start();
    const event = fake.build.messageIm({ channel: DM, text: QUESTION });
    await post(event);
    await post(event, { retryNum: 1, retryReason: 'http_timeout' });
    await fake.waitFor(() => answered(fake, DM).length === 1, { ...ANSWER_TIMEOUT, what: 'the answer' });
    // A later message is answered after anything queued before it: had the redelivery been queued, its answer would come first.
    await post(fake.build.messageIm({ channel: DM, text: 'help' }));
    await fake.waitFor(() => fake.visibleMessages(DM).some((m) => /\/listings/.test(m.text)), {
      ...ANSWER_TIMEOUT,
      what: 'the help text',
    });
    expect(answered(fake, DM)).toHaveLength(1);
    expect(fake.visibleMessages(DM)).toHaveLength(2);
  }, 60_000);

  it('shows listings with Block Kit buttons, and a button press shows the next page', async () => {
    const { fake, post } = await start();
    await post(slashCommandForm(fake.build.slashCommand({ command: '/chatbot', text: 'listings', channel: DM })));
    const withButtons = () =>
      fake.visibleMessages(DM).find((m) => JSON.stringify(m.blocks ?? []).includes('"actions"'));
    await fake.waitFor(() => withButtons() !== undefined, { ...ANSWER_TIMEOUT, what: 'the listings with buttons' });
    const message = withButtons()!;
    const actions = (
      message.blocks as { type: string; elements?: { action_id: string; value: string; text: { text: string } }[] }[]
    ).find((b) => b.type === 'actions')!;
    const next = actions.elements!.find((e) => /next/i.test(e.text.text))!;
    expect(next).toBeDefined();
    const before = fake.visibleMessages(DM).length;
    const press = fake.build.blockActions({
      channel: DM,
      messageTs: message.ts,
      actionId: next.action_id,
      value: next.value,
      text: next.text.text,
    });
    expect((await post(interactivityForm(press))).status).toBe(200);
    await fake.waitFor(
      () => fake.visibleMessages(DM).length > before && fake.visibleMessages(DM).at(-1)!.text !== message.text,
      { ...ANSWER_TIMEOUT, what: 'the next page' },
    );
  }, 60_000);

  it("greets a new assistant thread with the welcome message (the core's /start), in that thread", async () => {
    const { fake, post } = await start();
    const started = fake.build.assistantThreadStarted({ channel: DM });
    const threadTs = String(
      (started.event as unknown as { assistant_thread: { thread_ts: string } }).assistant_thread.thread_ts,
    );
    expect((await post(started)).status).toBe(200);
    await fake.waitFor(
      () => fake.visibleMessages(DM, threadTs).some((m) => m.state === 'done' && m.text.trim() !== ''),
      { ...ANSWER_TIMEOUT, what: 'the welcome message' },
    );
    expect(fake.visibleMessages(DM, threadTs)).toHaveLength(1);
  }, 60_000);

  it('refuses a request signed more than 5 minutes ago (401) and answers url_verification', async () => {
    const { fake, post } = await start();
    const old = await post(fake.build.messageIm({ channel: DM, text: QUESTION }), {
      timestampSeconds: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(old.status).toBe(401);
    const forged = await post(fake.build.messageIm({ channel: DM, text: QUESTION }), { signWith: 'not-the-secret' });
    expect(forged.status).toBe(401);
    const challenge = await post(fake.build.urlVerification('the-challenge'));
    expect(await challenge.json()).toEqual({ challenge: 'the-challenge' });
  }, 60_000);
});
