/**
 * Ending a native stream from another process (issue #17, item 2): the Slack adapter's
 * stream carries its ts as its id, and `stopStream` ends an open stream by that ts alone,
 * as a process taking a conversation over does with one a crashed process left
 * "writing…". The fake Slack holds Slack's rule: a stream no longer open takes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { PlatformError } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';

const THREAD = { channel: 'D0DM000002', ts: '1700000000.000400' };
const thread = { bot: 'main', platform: 'slack', id: `${THREAD.channel}:${THREAD.ts}` };
const asker = { id: 'U0USER0001' };

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** One gateway process's outbound in the thread (each process has its own adapter on the same Slack). */
function outboundOfAProcess(slack: FakeSlack) {
  const adapter = createSlackAdapter({
    bot: 'main',
    botToken: slack.botToken,
    signingSecret: slack.signingSecret,
    apiUrl: slack.apiUrl,
    logger: silentLogger(),
  });
  return adapter.outboundFor!(thread, false);
}

async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

describe('a Slack native stream ended by another process', () => {
  it('is ended by its ts with the last Markdown, and then shows as done', async () => {
    fake = await startFakeSlack({ rateLimits: false });
    const stream = await outboundOfAProcess(fake).startStream!(thread, asker, 'Here are the homes in Austin. ');
    expect(stream.id).toBe(fake.visibleMessages(THREAD.channel, THREAD.ts)[0]?.ts);

    await outboundOfAProcess(fake).stopStream!(thread, stream.id, '\n\n(This answer was interrupted.)');

    expect(fake.visibleMessages(THREAD.channel, THREAD.ts).map((message) => [message.state, message.text])).toEqual([
      ['done', 'Here are the homes in Austin. \n\n(This answer was interrupted.)'],
    ]);
  });

  it('is refused as not-editable once it is no longer open, and keeps what it showed', async () => {
    fake = await startFakeSlack({ rateLimits: false });
    const stream = await outboundOfAProcess(fake).startStream!(thread, asker, 'Here are the homes in Austin.');
    await stream.stop('');

    expect((await refusal(outboundOfAProcess(fake).stopStream!(thread, stream.id, 'late note'))).kind).toBe(
      'not-editable',
    );
    expect((await refusal(stream.append(' more'))).kind).toBe('not-editable');
    expect(fake.visibleMessages(THREAD.channel, THREAD.ts).map((message) => message.text)).toEqual([
      'Here are the homes in Austin.',
    ]);
  });
});
