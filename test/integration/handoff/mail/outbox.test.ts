import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handoffKeys, mailTag } from '../../../../src/handoff/index.js';
import type { StateStore } from '../../../../src/state/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { MemoryPlatform } from '../../../../fakes/memory/index.js';
import {
  HANDOFF_REPLY,
  OPERATOR_EMAIL,
  sameRedis,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';
import { testTopologies } from '../../gateway/stack.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };

describe.each(testTopologies())('the handoff e-mail outbox on Redis (%s)', (topology) => {
  let stack: HandoffStack;
  const processes: HandoffProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-outbox', { topology });
  });
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    for (const close of closers.splice(0)) await close();
    await stack.close();
  });
  const start = async (smtpUrl: string | undefined, state: StateStore = stack.store, screen?: MemoryPlatform) => {
    const process = await startHandoffProcess({
      state,
      upstream: stack.client,
      ...(screen ? { screen } : {}),
      config: { smtp: { ...(smtpUrl ? { url: smtpUrl } : {}), from: 'chatbridge <bot@oakridge.example>' } },
    });
    processes.push(process);
    return process;
  };
  const secondRedis = () => {
    const store = sameRedis(stack.store);
    closers.push(() => store.close());
    return store;
  };

  it('keeps the e-mail while the SMTP server is down, retries, and delivers it once when it is back', async () => {
    await stack.smtp.stop();
    const { adapter, handoff } = await start(stack.smtp.url);
    await adapter.say('c1', '/human', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    // Two failed attempts: the retry is rescheduled, not dropped.
    await eventually(async () => expect((await handoff.outbox.pending())[0]?.failures).toBeGreaterThanOrEqual(2));

    await stack.smtp.listen();
    await eventually(async () => expect(await handoff.outbox.pending()).toEqual([]));
    expect(stack.smtp.mails.map((mail) => mail.envelopeTo)).toEqual([[OPERATOR_EMAIL]]);
  });

  it('survives a restart: a gateway without SMTP_URL leaves the e-mail in Redis, the next one sends it', async () => {
    const first = await start(undefined);
    await first.adapter.say('c1', '/human', ana);
    await eventually(() => expect(first.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await eventually(async () => expect(await first.handoff.outbox.pending()).toHaveLength(1));
    await first.stop();
    processes.splice(processes.indexOf(first), 1);
    expect(stack.smtp.mails).toEqual([]);

    const second = await start(stack.smtp.url, secondRedis());
    await eventually(() => expect(stack.smtp.mails).toHaveLength(1));
    await eventually(async () => expect(await second.handoff.outbox.pending()).toEqual([]));
    expect(stack.smtp.mails[0]!.text).toContain('Why: the user sent the /human command');
  });

  it('sends exactly one e-mail when two gateway processes share the outbox and both keep retrying', async () => {
    await stack.smtp.stop();
    const screen = new MemoryPlatform({ name: 'fakechat' });
    const one = await start(stack.smtp.url, stack.store, screen);
    const two = await start(stack.smtp.url, secondRedis(), screen);
    await one.adapter.say('c1', '/human', ana);
    await eventually(() => expect(one.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await eventually(async () => expect((await two.handoff.outbox.pending())[0]?.failures).toBeGreaterThanOrEqual(4));

    await stack.smtp.listen();
    await eventually(async () => expect(await one.handoff.outbox.pending()).toEqual([]));
    // Both processes stay up and polling: a second copy would come from a claim that should not exist.
    await two.handoff.outbox.stop();
    await one.handoff.outbox.stop();
    expect(stack.smtp.mails).toHaveLength(1);
  });

  it('sends one e-mail per handoff across two processes even when each send is slow enough for both to see it due', async () => {
    stack.smtp.slowDataMs = 300;
    const screen = new MemoryPlatform({ name: 'fakechat' });
    const one = await start(stack.smtp.url, stack.store, screen);
    const two = await start(stack.smtp.url, secondRedis(), screen);
    const conversations = ['c1', 'c2', 'c3', 'c4'];
    for (const [index, id] of conversations.entries()) await (index % 2 ? two : one).adapter.say(id, '/human', ana);
    await eventually(() => expect(stack.smtp.mails).toHaveLength(conversations.length));
    await eventually(async () => expect(await one.handoff.outbox.pending()).toEqual([]));
    await one.handoff.outbox.stop();
    await two.handoff.outbox.stop();
    const sent = stack.smtp.mails.map((mail) => /Conversation: (\S+)/.exec(mail.text)?.[1]).sort();
    expect(sent).toEqual(conversations.map((id) => `main:fakechat:${id}`));
  });

  it('sends an e-mail whose sender died mid-send once its claim lapses', async () => {
    const first = await start(undefined);
    await first.adapter.say('c1', '/human', ana);
    const [mail] = await eventually(async () => {
      const pending = await first.handoff.outbox.pending();
      expect(pending).toHaveLength(1);
      return pending;
    });
    // A process claimed the mail and died: its lease is still there, short-lived.
    expect(await stack.store.acquireLock(handoffKeys.mailLease(mailTag(mail!.id)!, mail!.id), 300)).toBeTypeOf(
      'string',
    );

    const second = await start(stack.smtp.url, secondRedis());
    await eventually(() => expect(stack.smtp.mails).toHaveLength(1));
    await eventually(async () => expect(await second.handoff.outbox.pending()).toEqual([]));
  });
});
