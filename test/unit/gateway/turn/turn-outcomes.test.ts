import { afterEach, describe, expect, it } from 'vitest';
import { gatewayKeys, replies, type UpstreamFailure } from '../../../../src/gateway/index.js';
import { UpstreamError } from '../../../../src/upstream/errors.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import { startHarness, SERIAL, type Harness } from '../support/harness.js';
import { echoAnswer, startEchoService } from '../../../support/scripted-service.js';
import { eventually, pngAttachment } from '../support/recording-adapter.js';

describe('limits, media and failures', () => {
  let harness: Harness;
  afterEach(() => harness.stop());

  it('replies the RateLimitMessage once a user exceeds RateLimitCount in RateLimitTime, and records the message', async () => {
    harness = await startHarness({
      settings: { RateLimitCount: 2, RateLimitTime: 3600, RateLimitMessage: 'Easy there! One moment please.' },
    });
    const { adapter, gateway, service } = harness;
    for (const text of ['one', 'two', 'three']) await adapter.say('c1', text);
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual(['You said: one', 'You said: two', 'Easy there! One moment please.']),
    );
    expect(service.asks).toHaveLength(2);
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.slice(-2).map(({ role, text }) => `${role}: ${text}`)).toEqual([
        'user: three',
        'bot: Easy there! One moment please.',
      ]);
    });
  });

  it('counts the rate limit per user, with a default message when the chatbot has none', async () => {
    harness = await startHarness({ settings: { RateLimitCount: 1, RateLimitTime: 3600 } });
    const { adapter } = harness;
    await adapter.say('alice', 'hi');
    await adapter.say('alice', 'hi again');
    await adapter.say('bob', 'hello');
    await eventually(() => expect(adapter.textsIn('alice')).toEqual(['You said: hi', replies.rateLimitedDefault]));
    await eventually(() => expect(adapter.textsIn('bob')).toEqual(['You said: hello']));
  });

  it('reserves MessageLimit per answer across conversations, and gives back what was not answered', async () => {
    // No waiting for the service here (horizon 0): the message is given up at once.
    harness = await startHarness({ settings: { MessageLimit: 2 }, policy: { upstreamOutageHorizonMs: 0 } });
    const { adapter, service } = harness;
    service.down = true;
    await adapter.say('c1', 'lost to an outage');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown]));
    service.down = false;
    const release = service.hold();
    for (const id of ['c2', 'c3', 'c4']) await adapter.say(id, 'at the same time');
    const refusals = () =>
      ['c2', 'c3', 'c4'].flatMap((id) => adapter.textsIn(id)).filter((text) => text === replies.monthlyLimit);
    await eventually(() => expect(refusals().length + service.asks.length).toBe(3));
    release();
    await eventually(() => expect(['c2', 'c3', 'c4'].flatMap((id) => adapter.textsIn(id))).toHaveLength(3));
    expect(refusals()).toHaveLength(1);
    expect(service.asks).toHaveLength(2);
  });

  it('gives back the MessageLimit reservation of an answer cut off by a stop (it is answered again in full)', async () => {
    harness = await startHarness({ settings: { MessageLimit: 1 }, policy: { stopGraceMs: 20 } });
    const { adapter, service, gateway } = harness;
    const release = service.hold();
    await adapter.say('c1', 'interrupted');
    await eventually(() => expect(service.asks).toHaveLength(1));
    await gateway.stop();
    release();
    await gateway.start();
    await eventually(() => expect(adapter.textsIn('c1').at(-1)).toBe('You said: interrupted'));
    expect(adapter.textsIn('c1')).not.toContain(replies.monthlyLimit);
  });

  it('stops answering once the chatbot used its MessageLimit this month', async () => {
    harness = await startHarness({ settings: { MessageLimit: 2 } });
    const { adapter } = harness;
    for (const text of ['a', 'b', 'c']) await adapter.say('c1', text);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: a', 'You said: b', replies.monthlyLimit]));
    await adapter.say('c2', 'd');
    await eventually(() => expect(adapter.textsIn('c2')).toEqual([replies.monthlyLimit]));
  });

  it('follows a settings change merged into the mirror (by whoever called Edit)', async () => {
    harness = await startHarness({ policy: { settingsCacheMs: 0 } });
    const { adapter, gateway } = harness;
    await gateway.settings.merge(SERIAL, { WelcomeMessage: 'Edited welcome' });
    await adapter.say('c1', '/start');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['Edited welcome']));
    expect(await gateway.settings.get(SERIAL)).toEqual({ WelcomeMessage: 'Edited welcome' });
  });

  it('forwards an image when uploads are enabled', async () => {
    harness = await startHarness({ settings: { EnableUploadImage: true } });
    const { adapter, service } = harness;
    await adapter.say('c1', 'what is this?', { attachments: [pngAttachment()] });
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: what is this? (with 1 Image file)']));
    // The question names the file the upload put on the service.
    expect(service.uploads.map((upload) => upload.contentType)).toEqual(['image/png']);
    expect(service.asks[0]).toMatchObject({ chatAskType: 'Image', fileIds: [service.uploads[0]!.fileId] });
  });

  it('replies the media refusal when the chatbot does not accept images, and asks nothing', async () => {
    harness = await startHarness({ settings: { EnableUploadImage: false } });
    const { adapter, service, gateway } = harness;
    await adapter.say('c1', 'look', { attachments: [pngAttachment()] });
    const [refusal] = await eventually(() => {
      const texts = adapter.textsIn('c1');
      expect(texts).toHaveLength(1);
      return texts;
    });
    expect(refusal).toMatch(/photo|image/i);
    expect(service.asks).toEqual([]);
    expect(service.uploads).toEqual([]);
    await eventually(async () => {
      const [user] = await gateway.transcript.read(adapter.conversation('c1'));
      expect(user).toMatchObject({ role: 'user', text: 'look', attachments: ['image (dot.png, image/png, 70 bytes)'] });
    });
  });

  it('apologises when the service is down past the horizon, and tells upstreamFailure listeners of each failed message', async () => {
    harness = await startHarness({ policy: { upstreamOutageHorizonMs: 0 } });
    const { adapter, service, gateway } = harness;
    const failures: UpstreamFailure[] = [];
    gateway.events.on('upstreamFailure', (failure) => {
      failures.push(failure);
    });
    service.down = true;
    await adapter.say('c1', 'anyone there?');
    await adapter.say('c1', 'hello?');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown, replies.upstreamDown]));
    // The failure, once per message; the core counts nothing (the handoff counts failures in a row itself).
    expect(failures.map((failure) => Object.keys(failure))).toEqual([['error'], ['error']]);
    expect(failures.every((failure) => failure.error instanceof UpstreamError)).toBe(true);
    service.down = false;
    await adapter.say('c1', 'back?');
    await eventually(() => expect(adapter.textsIn('c1').at(-1)).toBe('You said: back?'));
    expect(failures).toHaveLength(2);
    const transcript = await gateway.transcript.read(adapter.conversation('c1'));
    expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual([
      'anyone there?',
      'hello?',
      'back?',
    ]);
  });

  it('keeps a message while the service is down, tells the user once, and answers it when the service is back', async () => {
    harness = await startHarness();
    const { adapter, service, gateway, state } = harness;
    const failures: UpstreamFailure[] = [];
    gateway.events.on('upstreamFailure', (failure) => {
      failures.push(failure);
    });
    service.down = true;
    const waited = await adapter.say('c1', 'anyone there?');
    await adapter.say('c1', 'hello?');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamWaiting]));
    // Asked again and again meanwhile, without telling the user again.
    await eventually(() => expect(service.failedCalls).toBeGreaterThanOrEqual(3), 15_000);
    expect(adapter.textsIn('c1')).toEqual([replies.upstreamWaiting]);
    service.down = false;
    await eventually(
      () =>
        expect(adapter.textsIn('c1')).toEqual([replies.upstreamWaiting, 'You said: anyone there?', 'You said: hello?']),
      40_000,
    );
    expect(failures).toEqual([]);
    const conversation = adapter.conversation('c1');
    const transcript = await gateway.transcript.read(conversation);
    expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual([
      'anyone there?',
      'hello?',
    ]);
    // What the wait wrote (its record, the count of attempts set to 0) left with the message, deleted by the turn that waited.
    expect(await state.get(gatewayKeys.upstreamWait(conversation))).toBeNull();
    expect(await state.get(gatewayKeys.attempts(conversation, waited.platformMessageId))).toBeNull();
  }, 60_000);

  it('tells the user the assistant could not answer a question the service refuses, and goes on with the next', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    service.answer = (ask) =>
      ask.content === 'a question it refuses'
        ? { refusal: { code: 400, message: 'This question cannot be answered.' } }
        : echoAnswer(ask);
    await adapter.say('c1', 'a question it refuses');
    await adapter.say('c1', 'next question');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamRefused, 'You said: next question']));
    // Refused is an answer, not an outage: it is not asked again.
    expect(service.questions).toEqual(['a question it refuses', 'next question']);
  });

  it('sends an answer refused for a closed reply window never again: the turn ends, counted, and the next message is answered', async () => {
    const closed: string[] = [];
    harness = await startHarness({ observer: { windowClosed: (conversation) => closed.push(conversation.id) } });
    const { adapter, gateway } = harness;
    adapter.world.failNext('final', 'window-closed');
    await adapter.say('c1', 'a question after a day away');
    await adapter.say('c1', 'next question');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: next question']));
    // One try of the refused answer, no retry and no apology (which the window would refuse as well).
    expect(adapter.world.calls.filter((call) => call.result === 'window-closed')).toHaveLength(1);
    expect(adapter.world.calls.filter((call) => call.kind === 'send').map((call) => call.text)).toEqual([
      'You said: a question after a day away',
      'You said: next question',
    ]);
    expect(closed).toEqual(['c1']);
    const transcript = await gateway.transcript.read(adapter.conversation('c1'));
    expect(transcript.filter((entry) => entry.role === 'system').map((entry) => entry.text)).toEqual([
      expect.stringContaining('Could not deliver the reply'),
    ]);
  });

  it('ends an answer the service breaks off mid-stream with the reply that it stopped, and goes on with the next', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    service.answer = (ask) =>
      ask.content === 'homes on Oak Street?'
        ? {
            fragments: ['The homes on Oak Street ', 'are '],
            breakOff: { code: 502, message: 'The model endpoint broke off.' },
          }
        : echoAnswer(ask);
    await adapter.say('c1', 'homes on Oak Street?');
    await adapter.say('c1', 'next question');
    // A platform without edits shows nothing of an answer before its end: the user reads that it stopped.
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.answerCutOff, 'You said: next question']));
    expect(service.questions).toEqual(['homes on Oak Street?', 'next question']);
  });

  it('starts a new session when the service has forgotten the old one, without bothering the user', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    await adapter.say('c1', 'first');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    service.forgetSessions();
    await adapter.say('c1', 'second');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: first', 'You said: second']));
    expect(service.asks[1]!.sessionId).not.toBe(service.asks[0]!.sessionId);
  });

  it('keeps the session across a restart on the same store', async () => {
    const state = new MemoryStateStore({ prefix: 'restart:', checkSlots: true });
    const service = await startEchoService();
    harness = await startHarness({ state, service });
    await harness.adapter.say('c1', 'before restart');
    await eventually(() => expect(harness.adapter.textsIn('c1')).toHaveLength(1));
    await harness.stop();
    harness = await startHarness({ state, service });
    await harness.adapter.say('c1', 'after restart', { platformMessageId: 'another-id' });
    await eventually(() => expect(harness.adapter.textsIn('c1')).toHaveLength(1));
    expect(service.asks[1]!.sessionId).toBe(service.asks[0]!.sessionId);
  });

  it('lets a step at beforeAsk keep the bot quiet (a person has taken over) while the message is still recorded', async () => {
    harness = await startHarness();
    const { adapter, gateway, service } = harness;
    const paused = new Set(['c1']);
    gateway.pipeline.use('beforeAsk', async (ctx, next) => {
      if (!paused.has(ctx.conversation.id)) await next();
    });
    await adapter.say('c1', 'is a person there?');
    await adapter.say('c2', 'normal question');
    await eventually(() => expect(adapter.textsIn('c2')).toEqual(['You said: normal question']));
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.map(({ role, text }) => `${role}: ${text}`)).toEqual(['user: is a person there?']);
    });
    expect(adapter.textsIn('c1')).toEqual([]);
    expect(service.asks.map((ask) => ask.content)).toEqual(['normal question']);
  });

  it('tells the afterAnswer listeners every answer', async () => {
    harness = await startHarness();
    const { adapter, gateway } = harness;
    const seen: string[] = [];
    gateway.events.on('afterAnswer', (final, ctx) => {
      seen.push(`${ctx.conversation.id}: ${final.answer}`);
    });
    await adapter.say('c1', 'hi');
    await eventually(() => expect(seen).toEqual(['c1: You said: hi']));
  });

  it('tells the user it cannot read a message with nothing in it', async () => {
    harness = await startHarness();
    await harness.adapter.say('c1', '   ');
    await eventually(() => expect(harness.adapter.textsIn('c1')).toEqual([replies.nothingToAnswer]));
  });
});
