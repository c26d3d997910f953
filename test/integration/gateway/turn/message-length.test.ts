/**
 * Issue #17, item 4: a message longer than the Chatbot Service takes in one ClientAsk
 * gets a reply naming the limit, and the service is not asked. Against the real
 * embedded service, so that the gateway's count is held to the service's own: a
 * message the gateway lets through is one the service takes, and one it refuses is one
 * the service would refuse. Emoji are where two ways of counting part (one code point,
 * two UTF-16 units).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replies } from '../../../../src/gateway/index.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS, UpstreamError } from '../../../../src/upstream/index.js';
import { eventually, pngAttachment } from '../../../unit/gateway/support/recording-adapter.js';
import {
  DEMO_SERIAL_NUMBER,
  HeldLink,
  startGatewayProcess,
  startServiceStack,
  type GatewayProcess,
  type ServiceStack,
} from '../stack.js';

const LIMIT = CLIENT_ASK_CONTENT_MAX_CHARS;
const QUESTION = 'Homes for sale in Austin? ';
/** Emoji up to `characters` in all after QUESTION: each one character to the service, two UTF-16 units. */
const emojiMessage = (characters: number) => QUESTION + '🏡'.repeat(characters - QUESTION.length);

describe('a message longer than the Chatbot Service takes (real embedded service)', () => {
  let stack: ServiceStack;
  let process: GatewayProcess | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('gw-message-length');
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });
  const start = async (options: Partial<Parameters<typeof startGatewayProcess>[0]> = {}) =>
    (process = await startGatewayProcess({ state: stack.store, upstream: stack.client, ...options }));

  it(`is measured as the service measures it: ${LIMIT.toLocaleString('en-US')} characters of emoji are taken, one more is refused`, async () => {
    const { sessionId } = await stack.client.getSession(DEMO_SERIAL_NUMBER);
    expect(emojiMessage(LIMIT).length).toBeGreaterThan(LIMIT * 1.9);
    const answer = await stack.client.ask({ sessionId, content: emojiMessage(LIMIT) });
    expect(answer.content).toContain('Austin');
    const refusal = await stack.client
      .ask({ sessionId, content: emojiMessage(LIMIT + 1) })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UpstreamError);
    expect((refusal as UpstreamError).message).toContain(`content must be at most ${LIMIT} characters`);
  });

  it(`answers a message of exactly ${LIMIT.toLocaleString('en-US')} characters of emoji (twice as many UTF-16 units)`, async () => {
    const link = new HeldLink(stack.client);
    const { adapter } = await start({ upstream: link });
    await adapter.say('c1', emojiMessage(LIMIT));
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1), 30_000);
    expect(link.questions).toEqual([emojiMessage(LIMIT)]);
    expect(adapter.textsIn('c1')[0]).toContain('Austin');
  });

  it('tells the user the limit for a message one character over, asks the service nothing, records it, and answers the next message', async () => {
    const link = new HeldLink(stack.client);
    const { adapter, gateway } = await start({ upstream: link });
    const tooLong = emojiMessage(LIMIT + 1);
    await adapter.say('c1', tooLong);
    await adapter.say('c1', 'Homes in Austin?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2), 30_000);
    expect(adapter.textsIn('c1')[0]).toBe(replies.messageTooLong(LIMIT, LIMIT + 1));
    expect(adapter.textsIn('c1')[0]).toContain('up to 20,000 characters');
    expect(adapter.textsIn('c1')[1]).toContain('Austin');
    expect(link.questions).toEqual(['Homes in Austin?']);
    const transcript = await gateway.transcript.read(adapter.conversation('c1'));
    expect(transcript.map(({ role, text }) => `${role}: ${text}`).slice(0, 2)).toEqual([
      `user: ${tooLong}`,
      `bot: ${replies.messageTooLong(LIMIT, LIMIT + 1)}`,
    ]);
  });

  it('uses up none of the rate allowance, as at the service, which checks the content before its counters', async () => {
    const link = new HeldLink(stack.client);
    const { adapter } = await start({
      upstream: link,
      settings: { RateLimitCount: 1, RateLimitTime: 3600, RateLimitMessage: 'One at a time, please.' },
    });
    await adapter.say('c1', 'x'.repeat(LIMIT * 2));
    await adapter.say('c1', 'Homes in Austin?');
    await adapter.say('c1', 'And in Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3), 30_000);
    const [refusal, answer, rateLimited] = adapter.textsIn('c1');
    expect(refusal).toBe(replies.messageTooLong(LIMIT, LIMIT * 2));
    expect(answer).toContain('Austin');
    expect(rateLimited).toBe('One at a time, please.');
    expect(link.questions).toEqual(['Homes in Austin?']);
  });

  it('refuses a photo whose caption is over the limit the same way, before the photo is fetched or uploaded', async () => {
    const link = new HeldLink(stack.client);
    const uploaded: string[] = [];
    const upload = link.uploadFile;
    link.uploadFile = (file, options) => {
      uploaded.push(file.fileName);
      return upload(file, options);
    };
    let fetched = 0;
    const photo = pngAttachment();
    const { adapter } = await start({ upstream: link, settings: { EnableUploadImage: true } });
    const caption = emojiMessage(LIMIT + 1);
    await adapter.say('c1', caption, {
      attachments: [
        {
          ...photo,
          fetch: (options) => {
            fetched++;
            return photo.fetch(options);
          },
        },
      ],
    });
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.messageTooLong(LIMIT, LIMIT + 1)]), 30_000);
    expect({ fetched, uploaded, questions: link.questions }).toEqual({ fetched: 0, uploaded: [], questions: [] });
  });
});
