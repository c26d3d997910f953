import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HandoffAdminClient } from '../../../../src/handoff/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { testTopologies } from '../../gateway/stack.js';
import {
  ADMIN_TOKEN,
  HANDOFF_REPLY,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
  type ProcessOptions,
} from '../stack.js';
import { userTexts } from '../../../../src/gateway/index.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const C1 = encodeURIComponent('main:fakechat:c1');

describe.each(testTopologies())('a conversation with a person, on Redis (%s)', (topology) => {
  let stack: HandoffStack;
  let gateway: HandoffProcess | undefined;
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-pause', { topology });
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await stack.close();
  });
  const start = async (handoff: Record<string, unknown> = {}, options: Partial<ProcessOptions> = {}) =>
    (gateway = await startHandoffProcess({
      state: stack.store,
      upstream: stack.client,
      config: {
        smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' },
        handoff: { ...defaults, ...handoff },
      },
      ...options,
    }));
  const mail = () =>
    eventually(() => {
      expect(stack.smtp.mails).toHaveLength(1);
      return stack.smtp.mails[0]!;
    });
  /** The transcript once the turn of `text` has ended (turns write their entries when they end). */
  const recorded = async (process: HandoffProcess, text: string) =>
    eventually(async () => {
      const transcript = await process.gateway.transcript.read(process.adapter.conversation('c1'));
      expect(transcript.map((entry) => entry.text)).toContain(text);
      return transcript;
    });

  it('keeps the bot silent while paused: no ClientAsk, no commands, everything in the transcript; /human again sends no second e-mail', async () => {
    const process = await start();
    const { adapter } = process;
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await mail();
    const asksBefore = stack.clientAsks();

    await adapter.say('c1', 'Homes in Austin?', ana);
    await adapter.say('c1', '/start', ana);
    await adapter.say('c1', '/human', ana);
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY, userTexts.handoff.alreadyWithAPerson]),
    );
    const transcript = await recorded(process, '/human');
    expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual([
      '/human',
      'Homes in Austin?',
      '/start',
      '/human',
    ]);
    expect(stack.clientAsks()).toBe(asksBefore);
    expect(stack.smtp.mails).toHaveLength(1);
    expect(await process.handoff.outbox.pending()).toEqual([]);
  });

  it('lets an operator read the conversation, answer the user, and hand it back through the admin API', async () => {
    const process = await start();
    const { adapter } = process;
    await adapter.say('c1', 'I want to talk to a person', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await adapter.say('c1', 'Are you there?', ana);
    await recorded(process, 'Are you there?');

    const list = await process.admin('GET', '/admin/handoffs');
    expect(list).toMatchObject({
      status: 200,
      body: {
        handoffs: [
          {
            conversation: 'main:fakechat:c1',
            reason: 'the user wrote the handoff phrase "talk to a person"',
            user: ana.user,
          },
        ],
      },
    });
    const shown = await process.admin('GET', `/admin/conversations/${C1}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      conversation: 'main:fakechat:c1',
      handoff: { conversation: 'main:fakechat:c1' },
    });
    // The handoff is an entry of its own (role system, event handed-over), between the message that asked and the reply.
    expect((shown.body as { transcript: { text: string }[] }).transcript.map((entry) => entry.text)).toEqual([
      'I want to talk to a person',
      'Handed over to a person: the user wrote the handoff phrase "talk to a person".',
      HANDOFF_REPLY,
      'Are you there?',
    ]);
    expect((shown.body as { transcript: { event?: string }[] }).transcript[1]).toMatchObject({
      role: 'system',
      event: 'handed-over',
    });

    const said = await process.admin('POST', `/admin/conversations/${C1}/messages`, {
      text: 'Hi Ana, this is **Bruno** from Oakridge.',
    });
    expect(said).toEqual({ status: 200, body: { conversation: 'main:fakechat:c1', sent: true } });
    await eventually(() => expect(adapter.textsIn('c1')[1]).toBe('Hi Ana, this is Bruno from Oakridge.'));
    const afterSay = await process.gateway.transcript.read(adapter.conversation('c1'));
    expect(afterSay.at(-1)).toMatchObject({ role: 'operator', text: 'Hi Ana, this is **Bruno** from Oakridge.' });

    expect(await process.admin('POST', `/admin/conversations/${C1}/resume`)).toEqual({
      status: 200,
      body: { conversation: 'main:fakechat:c1', resumed: true },
    });
    expect(adapter.textsIn('c1')[2]).toBe(userTexts.handoff.botIsBack);
    expect(await process.admin('POST', `/admin/conversations/${C1}/resume`)).toEqual({
      status: 200,
      body: { conversation: 'main:fakechat:c1', resumed: false },
    });
    expect((await process.admin('GET', '/admin/handoffs')).body).toEqual({ handoffs: [] });

    const asksBefore = stack.clientAsks();
    await adapter.say('c1', 'Homes in Austin?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(4));
    expect(stack.clientAsks()).toBe(asksBefore + 1);
    expect(adapter.textsIn('c1')).toHaveLength(4);
  });

  it('refuses admin calls without the token and names the conversation format when it is wrong', async () => {
    const process = await start();
    const anonymous = await fetch(`${process.url}/admin/handoffs`);
    expect(anonymous.status).toBe(401);
    const bad = await process.admin('POST', `/admin/conversations/${encodeURIComponent('just-an-id')}/resume`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('<bot>:<platform>:<conversation id>');
    const empty = await process.admin('POST', `/admin/conversations/${C1}/messages`, { text: ' ' });
    expect(empty.status).toBe(400);
  });

  it("tells the operator at once, with the platform's words, when the user's reply window has closed (422, not tried again)", async () => {
    const process = await start();
    const { adapter } = process;
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    adapter.world.failNext('send', 'window-closed');
    const refused = await process.admin('POST', `/admin/conversations/${C1}/messages`, {
      text: 'Hi Ana, still looking?',
    });
    expect(refused).toEqual({ status: 422, body: { error: 'refused: window-closed' } });
    expect(adapter.world.calls.filter((call) => call.result === 'window-closed')).toHaveLength(1);
    expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]);
  });

  it('serves the CLI: handoff say and resume through the admin client', async () => {
    const process = await start();
    const { adapter } = process;
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    const cli = new HandoffAdminClient(process.url, ADMIN_TOKEN);
    await cli.say('main:fakechat:c1', 'Bruno here.');
    expect(await cli.resume('main:fakechat:c1')).toMatchObject({ resumed: true });
    expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY, 'Bruno here.', userTexts.handoff.botIsBack]);
    await expect(cli.resume('nonsense')).rejects.toThrow(/<bot>:<platform>:<conversation id>/);
    await expect(new HandoffAdminClient(process.url, 'wrong-token-wrong-token').list()).rejects.toThrow(
      /HTTP 401.*ADMIN_TOKEN/,
    );
  });

  it('returns the conversation to the bot when the pause runs out, and says so to the user first', async () => {
    // A pause of 3.6 ms: over by the time the next message is handled.
    const process = await start({ pauseHours: 0.000001 });
    const { adapter } = process;
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await adapter.say('c1', 'Homes in Austin?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3));
    expect(adapter.textsIn('c1')[1]).toBe(userTexts.handoff.botIsBack);
    expect(adapter.textsIn('c1')[2]).toMatch(/Austin/);
  });
});

const defaults = {
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
};
