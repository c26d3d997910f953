import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replies, userTexts } from '../../../../src/gateway/index.js';

import { ChatbotServiceClient } from '../../../../src/upstream/index.js';
import { eventually, pngAttachment } from '../../../unit/gateway/support/recording-adapter.js';
import {
  CHATBOT_NAME,
  closedPort,
  HANDOFF_REPLY,
  OPERATOR_EMAIL,
  recordingLogger,
  SECRET,
  SESSION_KEY,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
  type ProcessOptions,
} from '../stack.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };

describe('handoff triggers', () => {
  let stack: HandoffStack;
  let gateway: HandoffProcess | undefined;
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-triggers');
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await stack.close();
  });
  const onlyMail = () =>
    eventually(() => {
      expect(stack.smtp.mails).toHaveLength(1);
      return stack.smtp.mails[0]!;
    });
  const start = async (options: Partial<ProcessOptions> = {}) =>
    (gateway = await startHandoffProcess({
      state: stack.store,
      upstream: stack.client,
      ...options,
      config: { smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' }, ...options.config },
    }));

  it('/human replies the TalkToHumanResponseMessage and e-mails TalkToHumanEmail once, with who, where, why and the transcript', async () => {
    const { adapter, url } = await start();
    await adapter.say('c1', 'Homes in Austin?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    await adapter.say('c1', 'Look at <b>this kitchen</b>', { ...ana, attachments: [pngAttachment()] });
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    await adapter.say('c1', '/human', ana);

    await eventually(() => expect(adapter.textsIn('c1')[2]).toBe(HANDOFF_REPLY));
    const mail = await onlyMail();
    expect(mail.envelopeTo).toEqual([OPERATOR_EMAIL]);
    expect(mail.envelopeFrom).toBe('bot@oakridge.example');
    expect(mail.subject).toBe(`Handoff: Ana Lima (@analima) on fakechat wants a person (${CHATBOT_NAME})`);
    for (const line of [
      `Chatbot: ${CHATBOT_NAME}`,
      'Bot: main',
      'Platform: fakechat',
      'Conversation: main:fakechat:c1',
      'User: Ana Lima (@analima) [id u-ana]',
      'Why: the user sent the /human command',
    ])
      expect(mail.text).toContain(line);
    expect(mail.text).toMatch(/User \(Ana Lima\): Homes in Austin\?\n.*Bot: /);
    expect(mail.text).toContain(
      'User (Ana Lima): Look at <b>this kitchen</b>\n    [attachment: image (dot.png, image/png, ',
    );
    expect(mail.text).toMatch(/User \(Ana Lima\): \/human$/m);
    expect(mail.text).toContain(`${url}/handoff/resume?token=`);
    // In the HTML, what the user wrote is text, never markup.
    expect(mail.html).toContain('Look at &lt;b&gt;this kitchen&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>this kitchen</b>');
    expect(mail.html).toContain(`href="${url}/handoff/resume?token=`);
  });

  it('hands off on a configured phrase whatever its case and accents, but not on a word that merely contains it', async () => {
    const { adapter } = await start({ config: { handoff: handoffConfig({ phrases: ['talk to a person', 'agent'] }) } });
    await adapter.say('c1', "What are the agents' fees in Austin?", ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    expect(adapter.textsIn('c1')[0]).not.toBe(HANDOFF_REPLY);
    expect(stack.clientAsks()).toBe(1);

    await adapter.say('c1', 'Can I TÁLK to a Pérson, please?', ana);
    await eventually(() => expect(adapter.textsIn('c1')[1]).toBe(HANDOFF_REPLY));
    const mail = await onlyMail();
    expect(mail.text).toContain('Why: the user wrote the handoff phrase "talk to a person"');
    expect(stack.clientAsks()).toBe(1);
  });

  it("uses the bot's own handoffPhrases instead of the defaults", async () => {
    const { adapter } = await start({
      config: { bots: [{ id: 'main', serialNumber: '', settings: {}, handoffPhrases: ["parler à quelqu'un"] }] },
    });
    await adapter.say('c1', 'Homes in Austin? Or can I talk to a person', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    expect(adapter.textsIn('c1')[0]).not.toBe(HANDOFF_REPLY);
    await adapter.say('c1', 'Je veux PARLER A QUELQU’UN', ana);
    await eventually(() => expect(adapter.textsIn('c1')[1]).toBe(HANDOFF_REPLY));
    await eventually(() => expect(stack.smtp.mails).toHaveLength(1));
  });

  it('offers a "Talk to a person" button after an answer with nothing to say, and pressing it hands off', async () => {
    const { adapter } = await start();
    await adapter.say('c1', 'xyzzy plugh', ana);
    const offer = await eventually(() => {
      const message = adapter.messagesIn('c1')[1];
      expect(message?.text).toBe(userTexts.handoff.offer);
      return message!;
    });
    expect(offer.buttons).toEqual([{ label: userTexts.handoff.offerButton, value: 'human:offer' }]);
    expect(stack.smtp.mails).toEqual([]);

    await adapter.say('c1', '', { ...ana, action: { id: 'tap', value: offer.buttons![0]!.value } });
    await eventually(() => expect(adapter.textsIn('c1')[2]).toBe(HANDOFF_REPLY));
    const mail = await onlyMail();
    expect(mail.text).toContain('Why: the user pressed "Talk to a person" after the assistant had no answer');
  });

  it('tells users of a platform without buttons to type /human instead', async () => {
    const { adapter } = await start({ capabilities: { buttons: false } });
    await adapter.say('c1', 'xyzzy plugh', ana);
    await eventually(() => expect(adapter.textsIn('c1')[1]).toBe(userTexts.handoff.offerWithoutButtons));
  });

  it('hands off at once after an answer with nothing to say when onNoAnswer is "handoff"', async () => {
    const { adapter } = await start({ config: { handoff: handoffConfig({ onNoAnswer: 'handoff' }) } });
    await adapter.say('c1', 'xyzzy plugh', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    const [answer, reply] = adapter.textsIn('c1');
    expect(reply).toBe(HANDOFF_REPLY);
    const mail = await onlyMail();
    expect(mail.text).toContain('Why: the assistant had no answer');
    expect(mail.text).toContain(`Bot: ${answer!.split('\n')[0]}`);
  });

  it('hands off after failureThreshold upstream failures in a row, then stays silent', async () => {
    const down = new ChatbotServiceClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      retries: 0,
    });
    // Each message is given up at once (no waiting for the service): a failure per message.
    const { adapter, gateway: core } = await start({
      upstream: down,
      config: { handoff: handoffConfig({ failureThreshold: 2 }) },
      policy: { upstreamOutageHorizonMs: 0 },
    });
    await adapter.say('c1', 'Homes in Austin?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown]));
    await adapter.say('c1', 'Hello?', ana);
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown, replies.upstreamDown, HANDOFF_REPLY]),
    );
    const mail = await onlyMail();
    expect(mail.text).toContain('Why: 2 upstream failures in a row');

    await adapter.say('c1', 'Anyone there?', ana);
    await eventually(async () =>
      expect((await core.transcript.read(adapter.conversation('c1'))).at(-1)?.text).toBe('Anyone there?'),
    );
    expect(adapter.textsIn('c1')).toHaveLength(3);
  });

  it('without TalkToHumanEmail: logs an operator error naming the setting, still replies, and sends nothing', async () => {
    const { logger, lines } = recordingLogger();
    const { adapter, handoff } = await start({ logger, settings: { Name: CHATBOT_NAME } });
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([userTexts.handoff.defaultReply]));
    const error = lines.find((line) => line.level === 50 && line.msg.includes('TalkToHumanEmail'));
    expect(error?.msg).toMatch(/TalkToHumanEmail setting is empty/);
    expect(await handoff.outbox.pending()).toEqual([]);
    expect(stack.smtp.mails).toEqual([]);
  });
});

function handoffConfig(overrides: Record<string, unknown>) {
  return {
    onNoAnswer: 'offer' as const,
    failureThreshold: 3,
    pauseHours: 24,
    linkHours: 72,
    followUpMinutes: 0,
    phrases: [
      'talk to a human',
      'talk to a person',
      'real person',
      'human agent',
      'agent',
      'operator',
      'speak to someone',
    ],
    ...overrides,
  };
}
