/**
 * A thread per handoff on an operators' platform, whatever that platform is (here the in-memory
 * one; the Slack and Telegram doors have their own tests): what operators see there, what they
 * can do from it, who they are recorded as (their operator account, or their platform's name),
 * and that it holds across processes, redeliveries and outages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryOperatorsPlatform, MemoryPlatform } from '../../../../fakes/memory/index.js';
import { userTexts } from '../../../../src/gateway/index.js';
import type { OperatorInput } from '../../../../src/handoff/operators/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { Browser } from '../inbox/inbox-support.js';
import {
  DEMO_SERIAL_NUMBER,
  HANDOFF_REPLY,
  sameRedis,
  startHandoffProcess,
  startHandoffStack,
  TEST_HANDOFF,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const bruno = { id: 'U-BRUNO', name: 'Bruno Costa' };
const carla = { id: 'U-CARLA', name: 'Carla Dias' };

describe('operators answer in a thread of their own platform', () => {
  let stack: HandoffStack;
  let desk: MemoryOperatorsPlatform;
  const processes: HandoffProcess[] = [];
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-threads');
  });
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    await stack.close();
  });
  const start = async (
    options: { screen?: MemoryPlatform; state?: HandoffStack['store']; pauseHours?: number } = {},
  ) => {
    const process = await startHandoffProcess({
      state: options.state ?? stack.store,
      upstream: stack.client,
      config: {
        handoff: { ...TEST_HANDOFF, ...(options.pauseHours ? { pauseHours: options.pauseHours } : {}) },
        // A second chatbot, served elsewhere, that an operator account may be limited to.
        bots: [
          { id: 'main', serialNumber: DEMO_SERIAL_NUMBER, settings: {} },
          { id: 'other', serialNumber: DEMO_SERIAL_NUMBER, settings: {} },
        ],
      },
      doors: [desk.door()],
      ...(options.screen ? { screen: options.screen } : {}),
    });
    processes.push(process);
    return process;
  };
  const threadOfAna = () =>
    eventually(() => {
      const thread = desk.threadOf('Ana Lima');
      expect(thread).toBeDefined();
      return thread!;
    });
  /** Hands Ana's conversation over, and waits for the card to quote the message that did it. */
  const handOver = async (process: HandoffProcess) => {
    await process.adapter.say('c1', 'I want to talk to a human about the flat on Elm Street', ana);
    await eventually(() => expect(process.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    const thread = await threadOfAna();
    await eventually(() => expect(thread.card.markdown).toContain('flat on Elm Street'));
    return thread;
  };

  describe('on a platform with a thread per handoff', () => {
    beforeEach(() => {
      desk = new MemoryOperatorsPlatform();
    });

    it('opens one thread whose card says who, where, why, quotes the last messages and offers Claim and Hand back', async () => {
      const process = await start();
      const thread = await handOver(process);
      expect(thread.title).toBe('Ana Lima (@analima) · Fakechat');
      expect(thread.card.markdown).toContain('writing to **Oakridge Homes assistant**');
      expect(thread.card.markdown).toMatch(/Why: .*talk to a human/);
      expect(thread.card.markdown).toContain('**Waiting for a person.**');
      expect(thread.card.actions.map((action) => action.kind)).toEqual(['claim', 'hand-back']);
      expect(thread.card.markdown).toMatch(/\[Open in the inbox\]\(http:\/\/127\.0\.0\.1:\d+\/inbox\/link\?token=/);
      expect(desk.threads.size).toBe(1);
    });

    it("posts the user's messages while handed over, and sends an operator's reply to the user under their name", async () => {
      const process = await start();
      const thread = await handOver(process);
      const cards = thread.cards.length;
      await process.adapter.say('c1', 'Is it still for sale?', ana);
      await eventually(() => expect(thread.posts.map((post) => post.markdown)).toEqual(['Is it still for sale?']));
      // The card stays as it was: a message is a post, not a new card (its inbox link is signed once).
      expect(thread.cards).toHaveLength(cards);

      await desk.write(thread.id, bruno, 'Yes, and **visits** are on Saturdays.');
      expect(process.adapter.textsIn('c1').at(-1)).toBe('Yes, and visits are on Saturdays.');
      const transcript = await process.gateway.transcript.read(process.adapter.conversation('c1'));
      expect(transcript.filter((entry) => entry.role === 'operator')).toEqual([
        expect.objectContaining({
          operator: 'Bruno Costa',
          via: 'memory-desk',
          text: 'Yes, and **visits** are on Saturdays.',
        }),
      ]);
      // The thread does not get its own operator's words back.
      await process.adapter.say('c1', 'Great, thanks', ana);
      await eventually(() => expect(thread.posts.map((post) => post.markdown)).toContain('Great, thanks'));
      expect(thread.posts.map((post) => post.markdown).join('\n')).not.toContain('visits');
    });

    it('keeps a note: among operators: in the transcript as a note, never sent to the user', async () => {
      const process = await start();
      const thread = await handOver(process);
      const before = process.adapter.textsIn('c1').length;
      await desk.write(thread.id, bruno, 'NOTE: she called yesterday too');
      expect(process.adapter.textsIn('c1')).toHaveLength(before);
      const transcript = await process.gateway.transcript.read(process.adapter.conversation('c1'));
      expect(transcript.filter((entry) => entry.role === 'operator')).toEqual([
        expect.objectContaining({ note: true, text: 'she called yesterday too', operator: 'Bruno Costa' }),
      ]);
    });

    it('claims from the card, hands back from it: the user is told, the card says who and when, the thread closes', async () => {
      const process = await start();
      const thread = await handOver(process);
      await desk.press(thread.id, bruno, 'claim');
      await eventually(() => expect(thread.card.markdown).toContain('**Claimed by Bruno Costa**'));
      const pause = await process.handoff.controller.activePause(process.adapter.conversation('c1'));
      expect(pause?.claim?.by).toBe('Bruno Costa');

      await desk.press(thread.id, carla, 'hand-back');
      expect(process.adapter.textsIn('c1').at(-1)).toBe(userTexts.handoff.botIsBack);
      await eventually(() => expect(thread.open).toBe(false));
      await eventually(() => expect(thread.card.markdown).toContain('**Handed back to the assistant by Carla Dias**'));
      expect(thread.card.actions).toEqual([]);
    });

    it('updates the card and closes the thread when the conversation is handed back elsewhere (the admin API)', async () => {
      const process = await start();
      const thread = await handOver(process);
      const handBack = await process.admin(
        'POST',
        `/admin/conversations/${encodeURIComponent('main:fakechat:c1')}/resume`,
      );
      expect(handBack.status).toBe(200);
      await eventually(() => expect(thread.open).toBe(false));
      await eventually(() => expect(thread.card.markdown).toContain('Handed back to the assistant by the admin API'));
    });

    it('says on the card that the pause ran out, and closes the thread, when the user writes nothing more', async () => {
      // Two seconds of pause.
      const process = await start({ pauseHours: 2 / 3600 });
      const thread = await handOver(process);
      await eventually(() => expect(thread.open).toBe(false));
      expect(thread.card.markdown).toContain('**The pause ran out**');
      expect(thread.card.actions).toEqual([]);
    });

    it('takes a handed-back conversation over before a late message goes, and opens a new thread linking the old one', async () => {
      const process = await start();
      const first = await handOver(process);
      await desk.press(first.id, bruno, 'hand-back');
      await eventually(() => expect(first.open).toBe(false));

      await desk.write(first.id, bruno, 'One more thing: the owner lowered the price.');
      expect(process.adapter.textsIn('c1').at(-1)).toBe('One more thing: the owner lowered the price.');
      const pause = await process.handoff.controller.activePause(process.adapter.conversation('c1'));
      expect(pause).toMatchObject({ claim: { by: 'Bruno Costa' } });
      // The bot stays quiet: the user's next message is for the person.
      const asks = stack.clientAsks();
      await process.adapter.say('c1', 'How much now?', ana);
      const second = await eventually(() => {
        const thread = [...desk.threads.values()].find((each) => each.id !== first.id);
        expect(thread?.posts.map((post) => post.markdown)).toContain('How much now?');
        return thread!;
      });
      expect(stack.clientAsks()).toBe(asks);
      expect(second.card.markdown).toContain(`[The thread of the handoff before](memory://${first.id})`);
    });

    it('delivers a message redelivered by the platform once, and a press twice acts once', async () => {
      const process = await start();
      const thread = await handOver(process);
      const id = await desk.write(thread.id, bruno, 'Hello Ana, Bruno here.');
      await desk.write(thread.id, bruno, 'Hello Ana, Bruno here.', [], id);
      expect(process.adapter.textsIn('c1').filter((text) => text === 'Hello Ana, Bruno here.')).toHaveLength(1);
      const press = await desk.press(thread.id, bruno, 'hand-back');
      await desk.press(thread.id, bruno, 'hand-back', press);
      expect(process.adapter.textsIn('c1').filter((text) => text === userTexts.handoff.botIsBack)).toHaveLength(1);
    });

    it("answers in the thread with the reason when the user's platform refuses the message", async () => {
      const process = await start();
      const thread = await handOver(process);
      process.adapter.world.failNext('send', 'window-closed');
      await desk.write(thread.id, bruno, 'Are you there?');
      expect(thread.posts.at(-1)?.markdown).toMatch(/^Not delivered: /);
      const transcript = await process.gateway.transcript.read(process.adapter.conversation('c1'));
      expect(transcript.map((entry) => entry.text)).not.toContain('Are you there?');
    });

    it('opens one thread per handoff with two processes, and each operator message reaches the user once', async () => {
      const screen = new MemoryPlatform({ name: 'fakechat' });
      const first = await start({ screen });
      const second = await start({
        screen,
        state: Object.assign(sameRedis(stack.store), { cleanup: async () => undefined }),
      });
      const thread = await handOver(first);
      await second.adapter.say('c1', 'Anyone there?', ana);
      await eventually(() => expect(thread.posts.map((post) => post.markdown)).toContain('Anyone there?'));
      // Round robin: one message reaches each process's door.
      await desk.write(thread.id, bruno, 'Yes, Bruno here.');
      await desk.write(thread.id, bruno, 'How can I help?');
      expect(first.adapter.textsIn('c1').filter((text) => /Bruno here|How can I help/.test(text))).toEqual([
        'Yes, Bruno here.',
        'How can I help?',
      ]);
      expect(desk.threads.size).toBe(1);
    });

    it("waits out an outage of the operators' platform: the user is answered at once, the thread comes when it is back", async () => {
      const process = await start();
      desk.down = true;
      await process.adapter.say('c1', 'talk to a human please', ana);
      await eventually(() => expect(process.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
      await process.adapter.say('c1', 'hello?', ana);
      expect(desk.threads.size).toBe(0);
      desk.down = false;
      const thread = await threadOfAna();
      await eventually(() => expect(thread.posts.map((post) => post.markdown)).toEqual(['hello?']));
    });

    it('posts the files a user sends, and a file too large for the door as a link through the gateway', async () => {
      desk = new MemoryOperatorsPlatform({ maxFileBytes: 50 });
      const process = await start();
      const thread = await handOver(process);
      const small = process.adapter.world.addFile({
        bytes: new Uint8Array(20).fill(7),
        kind: 'document',
        fileName: 'small.pdf',
        mimeType: 'application/pdf',
      });
      const large = process.adapter.world.addFile({
        bytes: new Uint8Array(200).fill(9),
        kind: 'document',
        fileName: 'large.pdf',
        mimeType: 'application/pdf',
      });
      await process.adapter.say('c1', 'Here are the papers', { ...ana, attachments: [small, large] });
      const post = await eventually(() => {
        const found = thread.posts.find((each) => each.markdown.startsWith('Here are the papers'));
        expect(found).toBeDefined();
        return found!;
      });
      expect(post.files?.map((file) => [file.fileName, file.bytes.byteLength])).toEqual([['small.pdf', 20]]);
      expect(post.markdown).toMatch(
        new RegExp(
          String.raw`large\\\.pdf: too large to post here, \[open it through the gateway\]` +
            String.raw`\(http://127\.0\.0\.1:\d+/inbox/conversations/main%3Afakechat%3Ac1/files/\d+/1\)`,
        ),
      );
    });
  });

  describe('operators known by their operator account', () => {
    const addAccount = async (process: HandoffProcess, input: OperatorInput) => {
      const added = await process.handoff.operators.add(input, { name: 'the admin token' });
      if (!added.ok) throw new Error(added.message);
      return added.account;
    };
    const inboxPage = async (process: HandoffProcess) => {
      const browser = new Browser(process.url);
      expect((await browser.signIn('Olga')).status).toBe(303);
      return (await browser.get(`/inbox/conversations/${encodeURIComponent('main:fakechat:c1')}`)).html;
    };
    const operatorEntries = async (process: HandoffProcess) =>
      (await process.gateway.transcript.read(process.adapter.conversation('c1'))).filter(
        (entry) => entry.role === 'operator',
      );

    it("records a Slack operator whose profile e-mail is an account's with that account, shown under its name", async () => {
      desk = new MemoryOperatorsPlatform({ platform: 'slack' });
      const process = await start();
      const account = await addAccount(process, { email: 'bruno@oakridge.example', name: 'Bruno Costa' });
      const thread = await handOver(process);
      const inSlack = { id: 'U-BRUNO', name: 'bruno.c', email: 'Bruno@Oakridge.example' };
      await desk.write(thread.id, inSlack, 'Hello Ana, Bruno here.');
      await desk.press(thread.id, inSlack, 'claim');

      expect(process.adapter.textsIn('c1').at(-1)).toBe('Hello Ana, Bruno here.');
      expect(await operatorEntries(process)).toEqual([
        expect.objectContaining({ operator: 'Bruno Costa', account: account.id, via: 'slack' }),
      ]);
      const pause = await process.handoff.controller.activePause(process.adapter.conversation('c1'));
      expect(pause?.claim).toMatchObject({ by: 'Bruno Costa', account: account.id, via: 'slack' });

      await process.handoff.operators.change(account.email, { name: 'Bruno C. Costa' }, { name: 'an admin' });
      const page = await inboxPage(process);
      expect(page).toContain('<span class="speaker">Bruno C. Costa (operator, in Slack)</span>');
      expect(page).toMatch(/<dt>Claimed by<\/dt><dd>Bruno C\. Costa \(/);
      expect(page).toContain('Bruno C. Costa claimed the conversation.');
    });

    it('records a Telegram operator whose user id an account lists with that account', async () => {
      desk = new MemoryOperatorsPlatform({ platform: 'telegram' });
      const process = await start();
      const account = await addAccount(process, {
        email: 'carla@oakridge.example',
        name: 'Carla Dias',
        telegramIds: ['424242'],
      });
      const thread = await handOver(process);
      await desk.write(thread.id, { id: '424242', name: 'Carla D' }, 'note: she prefers mornings');
      await desk.press(thread.id, { id: '424242', name: 'Carla D' }, 'hand-back');

      expect(await operatorEntries(process)).toEqual([
        expect.objectContaining({ operator: 'Carla Dias', account: account.id, note: true, via: 'telegram' }),
      ]);
      const [handedBack] = await process.handoff.controller.history.list();
      expect(handedBack).toMatchObject({ by: 'Carla Dias', account: account.id, via: 'telegram' });
    });

    it('shows a person no account names under their platform name, as no operator account', async () => {
      desk = new MemoryOperatorsPlatform({ platform: 'slack' });
      const process = await start();
      await addAccount(process, { email: 'bruno@oakridge.example', name: 'Bruno Costa' });
      const thread = await handOver(process);
      const dana = { id: 'U-DANA', name: 'Dana', email: 'dana@elsewhere.example' };
      await desk.write(thread.id, dana, 'Hi Ana, Dana here.');
      await desk.press(thread.id, dana, 'claim');

      expect(process.adapter.textsIn('c1').at(-1)).toBe('Hi Ana, Dana here.');
      const [entry] = await operatorEntries(process);
      expect(entry).toMatchObject({ operator: 'Dana', via: 'slack' });
      expect(entry).not.toHaveProperty('account');
      const page = await inboxPage(process);
      expect(page).toContain('<span class="speaker">Dana (operator, in Slack, no operator account)</span>');
      expect(page).toMatch(/<dt>Claimed by<\/dt><dd>Dana \(Slack, no operator account\) \(/);
      expect(page).toContain('Dana (Slack, no operator account) claimed the conversation.');
    });

    it('refuses in the thread an operator whose account does not include the chatbot: nothing reaches the user', async () => {
      desk = new MemoryOperatorsPlatform({ platform: 'slack' });
      const process = await start();
      await addAccount(process, { email: 'eva@oakridge.example', name: 'Eva Lopes', bots: ['other'] });
      const thread = await handOver(process);
      const shown = process.adapter.textsIn('c1').length;
      const eva = { id: 'U-EVA', name: 'eva', email: 'eva@oakridge.example' };
      await desk.write(thread.id, eva, 'Hello Ana!');
      await desk.press(thread.id, eva, 'claim');

      expect(thread.posts.map((post) => post.markdown)).toEqual([
        expect.stringMatching(
          /^Eva Lopes: your operator account does not include this chatbot .*chatbridge operators change/,
        ),
        expect.stringMatching(/^Eva Lopes: your operator account does not include this chatbot/),
      ]);
      expect(process.adapter.textsIn('c1')).toHaveLength(shown);
      expect(await operatorEntries(process)).toEqual([]);
      const pause = await process.handoff.controller.activePause(process.adapter.conversation('c1'));
      expect(pause?.claim).toBeUndefined();
    });
  });

  describe('on a platform that keeps one topic per user', () => {
    beforeEach(() => {
      desk = new MemoryOperatorsPlatform({ reopens: true });
    });

    it("reopens the user's topic at their next handoff, and opens a new one when it was deleted", async () => {
      const process = await start();
      const thread = await handOver(process);
      await desk.press(thread.id, bruno, 'hand-back');
      await eventually(() => expect(thread.open).toBe(false));
      await process.adapter.say('c1', 'talk to a human again', ana);
      await eventually(() => expect(thread.open).toBe(true));
      expect(thread.opened).toBe(2);
      expect(desk.threads.size).toBe(1);

      await desk.press(thread.id, bruno, 'hand-back');
      await eventually(() => expect(thread.open).toBe(false));
      desk.deleteThread(thread.id);
      await process.adapter.say('c1', 'talk to a human once more', ana);
      await eventually(() => expect(desk.threads.size).toBe(2));
    });
  });

  describe('in alerts mode', () => {
    beforeEach(() => {
      desk = new MemoryOperatorsPlatform({ relays: false });
    });

    it('shows the card with the inbox link only, and relays nothing either way', async () => {
      const process = await start();
      const thread = await handOver(process);
      expect(thread.card.actions).toEqual([]);
      expect(thread.card.markdown).toContain('Answer from the inbox.');
      await process.adapter.say('c1', 'hello?', ana);
      await desk.write(thread.id, bruno, 'not relayed');
      await process.adapter.say('c1', 'still there?', ana);
      await eventually(async () => {
        const transcript = await process.gateway.transcript.read(process.adapter.conversation('c1'));
        expect(transcript.map((entry) => entry.text)).toContain('still there?');
      });
      expect(thread.posts).toEqual([]);
      expect(process.adapter.textsIn('c1')).not.toContain('not relayed');
    });
  });
});
