/**
 * Bot-wide pacing: many chats answered at once through the Telegram adapter's
 * outbound and the relay, against the fake with its bot-wide limit (30/s) on.
 * Per-chat limits are loosened so that every 429 counted comes from the bot-wide one.
 */
import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../adapters/telegram/index.js';
import { TelegramOutbound } from '../../../adapters/telegram/outbound.js';
import { TokenBucket } from '../../../adapters/telegram/pacing.js';
import { InflightRecorder, relayAnswer, type RelayResult } from '../../../src/gateway/relay/index.js';
import { PlatformError, type Capabilities, type ConversationRef, type Outbound } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { MemoryStateStore } from '../../../src/state/index.js';
import type { AskStreamEvent } from '../../../src/upstream/api.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';

const CHATS = 60;
/** The fake's per-chat limits, loose enough never to bite: only the bot-wide limit is under test. */
const NO_PER_CHAT_FLOODING = { perChatPerSecond: 100, burst: 10, perBotPerSecond: 30 };
const ANSWER = [
  'Here are three homes that match what you asked for.',
  'The first is a two-bedroom condo downtown, close to the river and the market.',
  'The second is a three-bedroom house with a garden, ten minutes from the schools.',
  'The third is a loft above a bakery, bright and quiet, with parking for one car.',
].join(' ');
const BUTTONS = [{ label: 'Talk to a person', value: 'handoff' }];
/** Fragments and the pause between them: the answer streams for about 2.5 s, so there are intermediate edits. */
const FRAGMENT_CHARS = 12;
const FRAGMENT_PAUSE_MS = 100;

let fake: FakeTelegram;
afterEach(async () => {
  await fake?.close();
});

async function* streamed(text: string): AsyncGenerator<AskStreamEvent> {
  for (let i = 0; i < text.length; i += FRAGMENT_CHARS) {
    await new Promise((resolve) => setTimeout(resolve, FRAGMENT_PAUSE_MS));
    yield { type: 'fragment', content: text.slice(i, i + FRAGMENT_CHARS) };
  }
  yield { type: 'final', questionId: 1, answerId: 2, answer: text, totalToken: 10, noAnswer: false, incomplete: false };
}

/** Answers every chat at once by edits (a group's outbound: no drafts, so every update is a counted message); resolves with each relay's result. */
async function answerAllAtOnce(outbound: Outbound, capabilities: Capabilities): Promise<RelayResult[]> {
  const inflight = new InflightRecorder(new MemoryStateStore());
  return Promise.all(
    Array.from({ length: CHATS }, (_, n) => {
      const conversation: ConversationRef = { bot: 'main', platform: 'telegram', id: String(1000 + n) };
      return relayAnswer({
        outbound,
        capabilities,
        conversation,
        isGroup: false,
        recipient: { id: String(1000 + n) },
        answer: streamed(ANSWER),
        inflight,
        buttons: BUTTONS,
        logger: silentLogger(),
      });
    }),
  );
}

function finalsShown(): number {
  let shown = 0;
  for (let n = 0; n < CHATS; n++) {
    const last = fake.visibleMessages(1000 + n).at(-1);
    if (last?.text === ANSWER && last.reply_markup && 'inline_keyboard' in last.reply_markup) shown++;
  }
  return shown;
}

describe('Telegram adapter: bot-wide pacing', () => {
  it(`answers ${CHATS} chats at once with every final delivered and few 429s`, async () => {
    fake = await startFakeTelegram({ rateLimit: NO_PER_CHAT_FLOODING });
    const adapter = createTelegramAdapter({
      bot: 'main',
      token: fake.token,
      apiRoot: fake.apiRoot,
      mode: 'polling',
      logger: silentLogger(),
      botInfo: fake.botInfo,
    });
    const byEdits = adapter.outboundFor?.({ bot: 'main', platform: 'telegram', id: '-1' }, true) ?? adapter.outbound;
    const results = await answerAllAtOnce(byEdits, adapter.capabilities);

    expect(finalsShown()).toBe(CHATS);
    expect(results.every((result) => result.renderer === 'edit')).toBe(true);
    const skipped = results.reduce((sum, result) => sum + result.rateLimitedUpdates, 0);
    console.info(
      `pacing: ${CHATS} chats, fake 429s ${fake.tooManyRequestsCount()}, updates the relay skipped or retried ${skipped}`,
    );
    // The adapter keeps under the limit; the odd 429 can still come from timing at the edges.
    expect(fake.tooManyRequestsCount()).toBeLessThanOrEqual(CHATS / 10);
  }, 30_000);

  it('keeps the pace per adapter: two adapters of one bot token never share pacing state', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    // One message at once, then one a minute: a second intermediate update would be refused at once.
    const pacing = { perSecond: 1 / 60, burst: 1, maxWaitMs: 0 };
    const make = () =>
      createTelegramAdapter({
        bot: 'main',
        token: fake.token,
        apiRoot: fake.apiRoot,
        mode: 'polling',
        logger: silentLogger(),
        botInfo: fake.botInfo,
        pacing,
      });
    const first = make();
    const second = make();
    const chat: ConversationRef = { bot: 'main', platform: 'telegram', id: '42' };

    await first.outbound.send(chat, { text: 'from the first adapter', progress: true });
    const refused = await first.outbound.send(chat, { text: 'too soon for the first', progress: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ kind: 'rate-limited' });
    // The same token, another instance: its own bucket is still full.
    await second.outbound.send(chat, { text: 'from the second adapter', progress: true });
    expect(fake.visibleMessages(42).map((m) => m.text)).toEqual(['from the first adapter', 'from the second adapter']);
  });

  it('refuses an intermediate update whose slot is too far away, but lets a final answer wait its turn', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    const clock = 0;
    const bucket = new TokenBucket({ perSecond: 10, burst: 1, maxWaitMs: 150, now: () => clock });
    const outbound = new TelegramOutbound(new Api(fake.token, { apiRoot: fake.apiRoot }), silentLogger(), bucket);
    const chat: ConversationRef = { bot: 'main', platform: 'telegram', id: '42' };
    // The first goes at once; the second waits 100 ms for its slot; the third would wait 200 ms: past the bound.
    const first = outbound.send(chat, { text: 'one' });
    const second = outbound.send(chat, { text: 'two', progress: true });
    const refused = await outbound.send(chat, { text: 'three', progress: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused).toMatchObject({ kind: 'rate-limited', retryAfterMs: 200 });
    // A final answer is never refused by the pace: it books the slot 200 ms ahead and goes then.
    await Promise.all([first, second, outbound.send(chat, { text: 'the final answer' })]);
    expect(fake.visibleMessages(42).map((m) => m.text)).toEqual(['one', 'two', 'the final answer']);
  });
});
