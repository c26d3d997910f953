/**
 * Slack's AI assistant pane through the gateway: the welcome's suggestions become the
 * thread's suggested prompts, the first question titles the thread, and a change of
 * context is acknowledged without an answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../../../fakes/slack/index.js';
import { startSlackStack, type SlackStack } from './slack-stack.js';

const DM = 'D0DM000001';
const ANSWER_TIMEOUT = { timeoutMs: 20_000 };
const SUGGESTIONS = [
  'Homes for sale in Austin?',
  'Rentals in Denver?',
  'Tell me about MLS OR-22031',
  'Talk to a person',
  'What do you do?',
];

let stack: SlackStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const done = (fake: FakeSlack, threadTs: string) =>
  fake.visibleMessages(DM, threadTs).filter((m) => m.state === 'done' && m.text.trim() !== '');
const assistantCalls = (fake: FakeSlack, method: string) => fake.assistantCalls(DM).filter((c) => c.method === method);

describe('Slack assistant pane through the gateway', () => {
  it("offers the chatbot's suggestions (the first 4) as the new thread's suggested prompts, with the welcome", async () => {
    stack = await startSlackStack({
      settings: { SuggestedMessage: SUGGESTIONS.join('\n'), WelcomeMessage: 'Welcome to the listings desk.' },
    });
    const { fake, post } = stack;
    const started = fake.build.assistantThreadStarted({ channel: DM });
    const threadTs = started.event.assistant_thread.thread_ts;
    expect((await post(started)).status).toBe(200);
    await fake.waitFor(() => assistantCalls(fake, 'assistant.threads.setSuggestedPrompts').length > 0, {
      ...ANSWER_TIMEOUT,
      what: 'the suggested prompts',
    });
    expect(
      done(fake, threadTs)
        .map((m) => m.text)
        .join('\n'),
    ).toContain('Welcome to the listings desk.');
    const [call] = assistantCalls(fake, 'assistant.threads.setSuggestedPrompts');
    expect(call?.thread_ts).toBe(threadTs);
    expect(call?.prompts).toEqual(SUGGESTIONS.slice(0, 4).map((s) => ({ title: s, message: s })));
  }, 60_000);

  it('titles the thread after its first question, once', async () => {
    stack = await startSlackStack();
    const { fake, post } = stack;
    const started = fake.build.assistantThreadStarted({ channel: DM });
    const threadTs = started.event.assistant_thread.thread_ts;
    await post(started);
    await fake.waitFor(() => done(fake, threadTs).length === 1, { ...ANSWER_TIMEOUT, what: 'the welcome' });
    await post(fake.build.messageIm({ channel: DM, thread_ts: threadTs, text: 'Homes for sale in Austin?' }));
    await fake.waitFor(() => done(fake, threadTs).length === 2, { ...ANSWER_TIMEOUT, what: 'the first answer' });
    await post(fake.build.messageIm({ channel: DM, thread_ts: threadTs, text: 'And in Denver?' }));
    await fake.waitFor(() => done(fake, threadTs).length === 3, { ...ANSWER_TIMEOUT, what: 'the second answer' });
    expect(assistantCalls(fake, 'assistant.threads.setTitle').map((c) => [c.thread_ts, c.title])).toEqual([
      [threadTs, 'Homes for sale in Austin?'],
    ]);
  }, 60_000);

  it('acknowledges a change of context (the user opened another channel) without answering', async () => {
    stack = await startSlackStack();
    const { fake, post } = stack;
    const started = fake.build.assistantThreadStarted({ channel: DM });
    const threadTs = started.event.assistant_thread.thread_ts;
    await post(started);
    await fake.waitFor(() => done(fake, threadTs).length === 1, { ...ANSWER_TIMEOUT, what: 'the welcome' });
    const changed = await post(
      fake.build.assistantThreadContextChanged({ channel: DM, thread_ts: threadTs, contextChannel: 'C0CHAN0001' }),
    );
    expect(changed.status).toBe(200);
    // A later message is answered after anything queued before it: an answer to the change would come first.
    await post(fake.build.messageIm({ channel: DM, thread_ts: threadTs, text: 'Homes for sale in Austin?' }));
    await fake.waitFor(() => done(fake, threadTs).length === 2, { ...ANSWER_TIMEOUT, what: 'the answer' });
    expect(fake.visibleMessages(DM, threadTs)).toHaveLength(2);
    expect(done(fake, threadTs)[1]?.text).toContain('MLS TX-10452');
    expect(fake.visibleMessages(DM).filter((m) => m.thread_ts === undefined)).toHaveLength(0);
  }, 60_000);
});
