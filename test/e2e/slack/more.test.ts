/**
 * `chatbridge start` as a process with only the Slack variables, on the default set-up
 * (the embedded demo chatbot), beyond slack-http.test.ts: Socket Mode (no public URL: the
 * events come over the fake's WebSocket), a photo shared in a DM, Slack's assistant pane,
 * and a storm of 429s that must still end on the whole answer, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_RULES, startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startSlackHttpGateway, type SlackHttpGateway } from '../../support/slack-process.js';

const QUESTION = 'Homes for sale in Austin?';
/** In the demo's listings: an answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
/** The demo chatbot's welcome and suggestions (config/demo/chatbot.yaml). */
const DEMO_WELCOME = "Hi! I'm the Oakridge Homes assistant.";
const DEMO_SUGGESTIONS = [
  '3 bedroom homes for sale in Austin',
  'Apartments for rent in Denver under $3,000',
  'Tell me about MLS OR-22031',
];
const PHOTO = readFileSync(join(import.meta.dirname, '../../fixtures/media/tiny.jpg'));
/** Generous: two cores shared with other test runs. */
const ANSWER = { timeoutMs: 45_000 };
/** How many 429s in a row chat.postMessage answers in the storm: several Retry-After waits for one message. */
const STORM_429S = 3;
/**
 * 429s in a row for appendStream and stopStream: fewer than the relay's final attempts
 * (DEFAULT_FINAL_ATTEMPTS, 3), so the stream itself must end with the whole answer.
 */
const STREAM_429S = 2;

/** The demo's answer to QUESTION ends on its second Austin listing's link (`<url|url>` in mrkdwn, the bare URL in Markdown). */
const isWholeAnswer = (text: string): boolean =>
  text.includes(AUSTIN_LISTING) && text.includes('MLS TX-10977') && /300-bowie-1204>?$/.test(text.trimEnd());

const finished = (slack: FakeSlack, channel: string, threadTs?: string) =>
  slack.visibleMessages(channel, threadTs).filter((message) => message.state === 'done' && message.text.trim() !== '');

describe('chatbridge start with Slack in Socket Mode', () => {
  let slack: FakeSlack;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    slack = await startFakeSlack({ rateLimits: false });
    gateway = await startChatbridge({
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await slack?.close();
  });

  it('acknowledges a direct message pushed over the socket and answers it', async () => {
    await slack.waitFor(() => slack.socket.openConnections() > 0, { ...ANSWER, what: 'the Socket Mode connection' });
    const dm = 'D0E2ESOCK01';
    const envelopeId = slack.socket.pushEvent(slack.build.messageIm({ channel: dm, text: QUESTION }));
    await slack.socket.waitForAck(envelopeId, ANSWER);
    await slack.waitFor(() => finished(slack, dm).some((message) => message.text.includes(AUSTIN_LISTING)), {
      ...ANSWER,
      what: 'the answer in the DM',
    });
    expect(slack.visibleMessages(dm)).toHaveLength(1);
  }, 90_000);
});

describe('chatbridge start with Slack in HTTP Events mode: files, the assistant pane, rate limits', () => {
  let slack: FakeSlack;
  let stack: SlackHttpGateway;
  const post: SlackHttpGateway['post'] = (body, options) => stack.post(body, options);

  beforeAll(async () => {
    stack = await startSlackHttpGateway();
    ({ slack } = stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('answers a photo shared in a DM, downloaded once with the bot token', async () => {
    const dm = 'D0E2EFILE01';
    const photo = slack.addFile(PHOTO, { name: 'house.jpg', mimetype: 'image/jpeg' });
    expect((await post(slack.build.fileShare({ channel: dm, files: [photo] }))).status).toBe(200);
    await slack.waitFor(() => finished(slack, dm).length > 0, { ...ANSWER, what: 'the answer to the photo' });
    expect(
      finished(slack, dm)
        .map((message) => message.text)
        .join('\n'),
    ).toMatch(/received your photo/i);
    expect(slack.downloads()).toEqual([{ fileId: photo.id, authorized: true }]);
  }, 60_000);

  it('greets a new assistant thread with the welcome message and offers the suggestions as prompts', async () => {
    const dm = 'D0E2EASST01';
    const started = slack.build.assistantThreadStarted({ channel: dm });
    const threadTs = started.event.assistant_thread.thread_ts;
    expect((await post(started)).status).toBe(200);
    const prompts = () =>
      slack.assistantCalls(dm).filter((call) => call.method === 'assistant.threads.setSuggestedPrompts');
    await slack.waitFor(() => finished(slack, dm, threadTs).length > 0 && prompts().length > 0, {
      ...ANSWER,
      what: 'the welcome and the prompts',
    });
    expect(
      finished(slack, dm, threadTs)
        .map((message) => message.text)
        .join('\n'),
    ).toContain(DEMO_WELCOME);
    expect(prompts()[0]?.thread_ts).toBe(threadTs);
    expect(prompts()[0]?.prompts?.map((prompt) => prompt.message)).toEqual(DEMO_SUGGESTIONS);
    // Nothing outside the assistant thread.
    expect(slack.visibleMessages(dm).filter((message) => message.thread_ts !== threadTs)).toEqual([]);
  }, 60_000);

  /** Asks QUESTION and resolves with the texts of the bot's messages there once the whole answer shows. */
  const ask = async (channel: string, threadTs?: string): Promise<string[]> => {
    await post(slack.build.messageIm({ channel, text: QUESTION, ...(threadTs ? { thread_ts: threadTs } : {}) }));
    await slack.waitFor(() => finished(slack, channel, threadTs).some((message) => isWholeAnswer(message.text)), {
      ...ANSWER,
      what: `the whole answer in ${channel}`,
    });
    return slack.visibleMessages(channel, threadTs).map((message) => message.text);
  };

  it("ends on the complete answer, once, through a storm of 429s on chat.postMessage under Slack's own limits", async () => {
    // The same question in a calm DM first: the answer the storm must not cut short.
    const expected = await ask('D0E2ECALM01');
    const channel = 'D0E2ESTORM1';
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, STORM_429S);
    slack.setRateLimits(DEFAULT_RATE_RULES);
    expect(await ask(channel)).toEqual(expected);
    expect(slack.channelCalls(channel).filter((call) => call.status === 429).length).toBeGreaterThanOrEqual(STORM_429S);
  }, 90_000);

  it('ends on the complete answer in one closed stream, once, through 429s on the native stream (a DM thread)', async () => {
    const channel = 'D0E2ESTORM2';
    const threadTs = '1700000000.000200';
    for (const method of ['chat.appendStream', 'chat.stopStream'])
      slack.failNext(method, { status: 429, retryAfter: 1 }, STREAM_429S);
    const texts = await ask(channel, threadTs);
    expect(texts).toHaveLength(1);
    expect(isWholeAnswer(texts[0] ?? '')).toBe(true);
    expect(slack.visibleMessages(channel, threadTs).map((message) => [message.sentWith, message.state])).toEqual([
      ['chat.startStream', 'done'],
    ]);
    // The storm was met: the stream's end was refused before it was accepted.
    expect(
      slack.channelCalls(channel).filter((call) => call.method === 'chat.stopStream' && call.status === 429),
    ).toHaveLength(STREAM_429S);
  }, 90_000);
});
