import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  formTokenIn,
  HANDOFF_REPLY,
  postResume,
  resumeLinkIn,
  startHandoffProcess,
  startHandoffStack,
  TEST_HANDOFF,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';
import { userTexts } from '../../../../src/gateway/index.js';

const ana = { user: { id: 'u-ana', name: 'Ana <b>Lima</b>', handle: 'analima' } };

describe('the signed hand-back link', () => {
  let stack: HandoffStack;
  let gateway: HandoffProcess | undefined;
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-link');
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await stack.close();
  });
  const start = async (handoff: Partial<typeof TEST_HANDOFF> = {}) =>
    (gateway = await startHandoffProcess({
      state: stack.store,
      upstream: stack.client,
      config: {
        smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' },
        handoff: { ...TEST_HANDOFF, ...handoff },
      },
    }));
  const handOver = async (process: HandoffProcess) => {
    await process.adapter.say('c1', '/human', ana);
    const mail = await eventually(() => {
      expect(stack.smtp.mails).toHaveLength(1);
      return stack.smtp.mails[0]!;
    });
    return resumeLinkIn(mail.text);
  };
  const stillPaused = async (process: HandoffProcess) =>
    expect((await process.admin('GET', '/admin/handoffs')).body).toMatchObject({
      handoffs: [{ conversation: 'main:fakechat:c1' }],
    });

  it('only asks on GET (a mail scanner opening it changes nothing); the button POSTs and hands back once', async () => {
    const process = await start();
    const link = await handOver(process);

    for (let scan = 0; scan < 2; scan++) {
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await page.text();
      expect(html).toContain('Hand this conversation back to the bot?');
      expect(html).toContain('<form method="post" action="resume">');
      expect(html).toContain('Hand back to the bot</button>');
      expect(html).toContain('main:fakechat:c1');
      expect(html).toContain('Ana &lt;b&gt;Lima&lt;/b&gt; (@analima)');
      expect(html).not.toContain('<b>Lima');
      expect(html).toMatch(/With a person since<\/th><td>\d{4}-\d\d-\d\dT/);
      expect(formTokenIn(html)).toBe(new URL(link).searchParams.get('token'));
    }
    await stillPaused(process);
    expect(process.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]);

    const token = new URL(link).searchParams.get('token')!;
    const accepted = await postResume(process.url, token);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain('The conversation is back with the bot');
    expect(process.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY, userTexts.handoff.botIsBack]);

    for (const again of [await postResume(process.url, token), await fetch(link)]) {
      expect(again.status).toBe(200);
      const html = await again.text();
      expect(html).toContain('already back with the bot');
      expect(html).not.toContain('<form');
    }
    expect(process.adapter.textsIn('c1')).toEqual([HANDOFF_REPLY, userTexts.handoff.botIsBack]);
  });

  it('refuses a tampered or missing token with 400 on GET and POST', async () => {
    const process = await start();
    const link = await handOver(process);
    const token = new URL(link).searchParams.get('token')!;
    const tampered = `${token.startsWith('e') ? 'f' : 'e'}${token.slice(1)}`;

    const got = await fetch(`${process.url}/handoff/resume?token=${encodeURIComponent(tampered)}`);
    expect(got.status).toBe(400);
    expect(await got.text()).toContain('This link is not valid');
    const posted = await postResume(process.url, tampered);
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain('This link is not valid');
    expect((await postResume(process.url, '')).status).toBe(400);
    expect((await fetch(`${process.url}/handoff/resume`)).status).toBe(400);
    await stillPaused(process);
  });

  it('refuses an expired link with 410 on GET and POST', async () => {
    // Links valid for 0.36 ms: expired by the time the e-mail arrives.
    const process = await start({ linkHours: 0.0000001 });
    const link = await handOver(process);
    const got = await fetch(link);
    expect(got.status).toBe(410);
    expect(await got.text()).toContain('This link has expired');
    const posted = await postResume(process.url, new URL(link).searchParams.get('token')!);
    expect(posted.status).toBe(410);
    await stillPaused(process);
  });
});
