/**
 * WhatsApp Cloud through the whole gateway: the fake Cloud API posts signed webhooks to the
 * real adapter and core on real Redis (two replicas behind a round-robin load balancer where a
 * test says so), answered by the scripted Chatbot Service through the real client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listingItem, type ScriptedChatbotService } from '../../../fakes/chatbot-service/index.js';
import type { VisibleCloudMessage } from '../../../fakes/whatsapp-cloud/index.js';
import { echoAnswer, startScriptedService } from '../../support/scripted-service.js';
import { startCloudGateways, type CloudGatewayStack } from './gateway-stack.js';

const USER = '4915112345678';
const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
/** SETTINGS' WelcomeMessage as WhatsApp shows it. */
const WELCOME = 'Welcome to *Oakridge Homes*!';

let stack: CloudGatewayStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(options: { replicas?: number; clock?: () => number; service?: ScriptedChatbotService } = {}) {
  const service = options.service ?? (await startScriptedService({ answer: echoAnswer }));
  stack = await startCloudGateways(service, {
    ...(options.replicas ? { replicas: options.replicas } : {}),
    fake: options.clock ? { clock: options.clock } : {},
  });
  return { ...stack, service };
}

const texts = (seen: VisibleCloudMessage[]) => seen.map((m) => m.text);
const until = (fake: CloudGatewayStack['fake'], condition: () => boolean, what: string) =>
  fake.waitFor(condition, { what, timeoutMs: 20_000 });

describe('WhatsApp Cloud through the gateway', () => {
  it('greets a new user with the WelcomeMessage and its suggestions as buttons, shows typing on the message, then answers it', async () => {
    const { fake, service } = await start();
    const release = service.hold();
    const wamid = await fake.userSends({ from: USER, text: 'Homes in Austin?' });
    await until(
      fake,
      () => fake.readMarks().some((mark) => mark.messageId === wamid && mark.typing),
      'typing on the question',
    );
    release();
    await until(fake, () => fake.visibleMessages(USER).length === 2, 'the welcome and the answer');
    const [welcome, answer] = fake.visibleMessages(USER);
    expect(welcome!.interactive).toMatchObject({
      type: 'button',
      body: WELCOME,
      buttons: [
        { id: 's:Homes with a garden', title: 'Homes with a garden' },
        { id: 's:Pets allowed?', title: 'Pets allowed?' },
      ],
    });
    expect(answer!.text).toBe('You said: Homes in Austin?');
    // A suggestion pressed is asked as the question.
    await fake.userSends({
      from: USER,
      buttonReply: { id: 's:Pets allowed?', title: 'Pets allowed?', contextId: welcome!.id },
    });
    await until(fake, () => fake.visibleMessages(USER).length === 3, 'the suggestion answered');
    expect(fake.visibleMessages(USER)[2]!.text).toBe('You said: Pets allowed?');
  });

  it('answers a duplicated delivery once, and a reordered one in the order it arrived', async () => {
    const { fake, service } = await start();
    await fake.userSends({ from: USER, text: 'once' }, { duplicate: true });
    let late!: () => void;
    const held = new Promise<void>((resolve) => {
      late = resolve;
    });
    const first = fake.userSends({ from: USER, text: 'written first' }, { holdUntil: held });
    await fake.userSends({ from: USER, text: 'written second' });
    late();
    await first;
    await until(fake, () => fake.visibleMessages(USER).length === 4, 'three answers after the welcome');
    expect(texts(fake.visibleMessages(USER)).slice(1)).toEqual([
      'You said: once',
      'You said: written second',
      'You said: written first',
    ]);
    expect(service.asks.map((ask) => ask.content)).toEqual(['once', 'written second', 'written first']);
  });

  it('sends a long answer whole at its end, split at paragraph ends within 4,096 characters, never edited', async () => {
    const paragraphs = Array.from(
      { length: 18 },
      (_, i) =>
        `**Home ${i + 1}.** ${'A bright house with a garden, close to the river and the schools. '.repeat(7).trim()}`,
    );
    const service = await startScriptedService({
      answer: () => ({ fragments: paragraphs.join('\n\n').split(/(?<= )/) }),
    });
    const { fake } = await start({ service });
    await fake.userSends({ from: USER, text: 'Tell me about every home' });
    const shown = paragraphs.map((p) => p.replace(/\*\*/g, '*'));
    await until(
      fake,
      () => fake.visibleMessages(USER).at(-1)?.text?.endsWith(shown.at(-1)!) === true,
      'the end of the answer',
    );
    const parts = fake.visibleMessages(USER).slice(1);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.type).toBe('text');
      expect([...(part.text ?? '')].length).toBeLessThanOrEqual(4096);
      expect(part.text).toMatch(/^\*Home \d+\.\*/);
    }
    expect(parts.map((part) => part.text).join('\n\n')).toBe(shown.join('\n\n'));
    // One message per part, in order: no progressive edit (the Cloud API has none), nothing sent twice.
    const sends = fake
      .calls()
      .filter(
        (call) =>
          call.path.endsWith('/messages') &&
          call.status === 200 &&
          (call.body as { status?: string }).status !== 'read',
      );
    expect(sends).toHaveLength(1 + parts.length);
  });

  it('answers a voice note and a photo, and refuses a video too large by the size Meta announces, without downloading it', async () => {
    const { fake, service } = await start();
    await fake.userSends({
      from: USER,
      audio: { bytes: fixture('voice-440hz-2s.ogg'), mimeType: 'audio/ogg; codecs=opus', voice: true },
    });
    await fake.userSends({
      from: USER,
      image: { bytes: fixture('tiny.jpg'), mimeType: 'image/jpeg', caption: 'Is this one for sale?' },
    });
    await fake.userSends({
      from: USER,
      video: { bytes: fixture('tiny.mp4'), mimeType: 'video/mp4', declaredSize: 300 * 1024 * 1024 },
    });
    await until(fake, () => fake.visibleMessages(USER).length === 4, 'two answers and a refusal after the welcome');
    const [, voice, photo, video] = texts(fake.visibleMessages(USER));
    expect(voice).toMatch(/^You said: .*\(with 1 Audio file\)$/);
    expect(photo).toBe('You said: Is this one for sale? (with 1 Image file)');
    expect(video).toMatch(/^This video is 300 MB/);
    expect(service.asks.map((ask) => ask.chatAskType)).toEqual(['Audio', 'Image']);
    expect(fake.mediaDownloads().map((d) => [d.authorized, d.bytes > 0])).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it('pages listings with reply buttons; "Next »" shows the next page', async () => {
    const service = await startScriptedService({
      answer: echoAnswer,
      listings: Array.from({ length: 12 }, (_, i) => listingItem(i + 1, 'Austin')),
    });
    const { fake } = await start({ service });
    await fake.userSends({ from: USER, text: 'listings Austin' });
    const withNext = () =>
      fake.visibleMessages(USER).find((m) => m.interactive?.buttons?.some((b) => b.title === 'Next »'));
    await until(fake, () => withNext() !== undefined, 'a page with Next');
    const page1 = texts(fake.visibleMessages(USER)).join('\n');
    expect(page1).toContain('page 1 of 3');
    const next = withNext()!.interactive!.buttons!.find((b) => b.title === 'Next »')!;
    await fake.userSends({ from: USER, buttonReply: { id: next.id, title: next.title, contextId: withNext()!.id } });
    await until(fake, () => texts(fake.visibleMessages(USER)).some((text) => text?.includes('page 2 of 3')), 'page 2');
    for (const message of fake.visibleMessages(USER)) {
      for (const button of message.interactive?.buttons ?? []) expect([...button.title].length).toBeLessThanOrEqual(20);
    }
  });

  it("delivers the final answer through a storm of 131056, each try answered by Meta's code", async () => {
    const { fake } = await start();
    await fake.userSends({ from: USER, text: 'hi' });
    await until(fake, () => fake.visibleMessages(USER).length === 2, 'the first answer');
    fake.failNext({ code: 131056, times: 5, to: USER });
    await fake.userSends({ from: USER, text: 'during the storm' });
    await until(fake, () => fake.visibleMessages(USER).length === 3, 'the answer after the storm');
    expect(fake.visibleMessages(USER)[2]!.text).toBe('You said: during the storm');
    expect(fake.calls().filter((call) => call.errorCode === 131056)).toHaveLength(5);
  });

  it("records 131047 without retrying: the turn ends, counted, and the user's next message is answered", async () => {
    let offsetMs = 0;
    const { fake, service, windowsClosed } = await start({ clock: () => Date.now() + offsetMs });
    await fake.userSends({ from: USER, text: 'hi' });
    await until(fake, () => fake.visibleMessages(USER).length === 2, 'the first answer');
    const release = service.hold();
    await fake.userSends({ from: USER, text: 'answered a day later' });
    await until(fake, () => service.asks.length === 2, 'the question asked');
    offsetMs = 25 * 60 * 60_000;
    release();
    await until(fake, () => fake.calls().some((call) => call.errorCode === 131047), 'the refusal');
    await fake.userSends({ from: USER, text: 'back again' });
    await until(fake, () => fake.visibleMessages(USER).length === 3, 'the next answer');
    expect(fake.visibleMessages(USER)[2]!.text).toBe('You said: back again');
    expect(fake.calls().filter((call) => call.errorCode === 131047)).toHaveLength(1);
    expect(windowsClosed).toEqual([USER]);
  });

  it("answers behind a load balancer with two replicas: every message once, each user's in order", async () => {
    const { fake } = await start({ replicas: 2 });
    const users = ['4915100000001', '4915100000002', '4915100000003'];
    for (let round = 1; round <= 3; round++) {
      await Promise.all(users.map((user) => fake.userSends({ from: user, text: `question ${round}` })));
    }
    await until(fake, () => users.every((user) => fake.visibleMessages(user).length === 4), 'every question answered');
    for (const user of users) {
      expect(texts(fake.visibleMessages(user))).toEqual([
        WELCOME,
        'You said: question 1',
        'You said: question 2',
        'You said: question 3',
      ]);
    }
  });
});
