/**
 * Two operators pressing Claim at the same moment, over real HTTP against real Redis: a claim is one compare and set
 * on the pause, so each round has one winner, recorded once, the other told who won; the page and the transcript
 * agree; a take-over names whom it took from; a double submit is one claim.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRef } from '../../../../src/contract.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { ADMIN_TOKEN, HANDOFF_REPLY, startHandoffStack, type HandoffStack } from '../stack.js';
import { conversationPage, csrfIn, startInboxProcess, type Browser, type InboxProcess } from './inbox-support.js';

const ROUNDS = 10;

describe('operators claiming at once', () => {
  let stack: HandoffStack;
  let process: InboxProcess;
  const store = isolatedRedisStore('concurrent-claims', { checkSlots: true });
  let bruno: Browser;
  let carla: Browser;

  beforeAll(async () => {
    stack = await startHandoffStack('concurrent-claims');
    process = await startInboxProcess({ state: store, upstream: stack.client });
    bruno = process.browser();
    carla = process.browser();
    expect((await bruno.signIn('Bruno')).status).toBe(303);
    expect((await carla.signIn('Carla')).status).toBe(303);
  });
  afterAll(async () => {
    await process.stop();
    await store.cleanup();
    await stack.close();
  });

  /** A conversation handed to a person, its page's path and its ref. */
  const handedOver = async (id: string): Promise<{ path: string; conversation: ConversationRef }> => {
    await process.platform.userSends('main', id, '/human', { user: { id: `u-${id}`, name: `User ${id}` } });
    await eventually(() => expect(process.platform.textsIn(id)).toContain(HANDOFF_REPLY));
    return { path: conversationPage('main', id), conversation: process.platform.conversation('main', id) };
  };
  /** The Claim form of `browser`'s page as it shows now: its CSRF token and the holder it shows. */
  const claimForm = async (browser: Browser, path: string): Promise<Record<string, string>> => {
    const html = (await browser.get(path)).html;
    const holder = /<input type="hidden" name="holder" value="([^"]*)">/.exec(html);
    return { _csrf: csrfIn(html), ...(holder ? { holder: holder[1]! } : {}) };
  };
  const claims = async (conversation: ConversationRef) =>
    (await process.gateway.transcript.read(conversation))
      .filter((entry) => entry.event === 'claimed')
      .map((entry) => entry.text);
  const shownHolder = async (browser: Browser, path: string) =>
    /<dt>Claimed by<\/dt><dd>([^<(]*?)\s*(\(|<\/dd>)/.exec((await browser.get(path)).html)?.[1];
  const adminClaim = (id: string, name: string) =>
    fetch(`${process.url}/admin/conversations/${encodeURIComponent(`main:fakechat:${id}`)}/claim`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });

  it('ten rounds of two presses at once: one winner each, recorded once, the loser told who won', async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const { path, conversation } = await handedOver(`round-${round}`);
      const [brunoForm, carlaForm] = await Promise.all([claimForm(bruno, path), claimForm(carla, path)]);
      const [byBruno, byCarla] = await Promise.all([
        bruno.post(`${path}/claim`, brunoForm),
        carla.post(`${path}/claim`, carlaForm),
      ]);
      expect([byBruno.status, byCarla.status].sort(), `round ${round}`).toEqual([303, 409]);
      const [winner, loser] = byBruno.status === 303 ? ['Bruno', byCarla] : ['Carla', byBruno];
      expect(loser.html).toContain(`${winner} claimed this conversation while you were looking at it`);
      expect(await claims(conversation), `round ${round}`).toEqual([`${winner} claimed the conversation.`]);
      expect(await shownHolder(bruno, path)).toBe(winner);
      expect((await process.handoff.controller.activePause(conversation))?.claim?.by).toBe(winner);
    }
  });

  it('at both doors at once (the inbox and the admin API): one winner, recorded once', async () => {
    for (let round = 1; round <= 3; round++) {
      const id = `doors-${round}`;
      const { path, conversation } = await handedOver(id);
      const form = await claimForm(bruno, path);
      const [inbox, admin] = await Promise.all([bruno.post(`${path}/claim`, form), adminClaim(id, 'Dana')]);
      expect([inbox.status, admin.status].sort(), `round ${round}`).toEqual(
        inbox.status === 303 ? [303, 409] : [200, 409],
      );
      const winner = inbox.status === 303 ? 'Bruno' : 'Dana';
      if (admin.status === 409) expect(await admin.json()).toMatchObject({ claimedBy: 'Bruno' });
      expect(await claims(conversation)).toEqual([`${winner} claimed the conversation.`]);
      expect(await shownHolder(carla, path)).toBe(winner);
    }
  });

  it("a double submit is one claim; a take-over names whom it took from, once; a stale page's press is refused", async () => {
    const { path, conversation } = await handedOver('double');
    const brunoForm = await claimForm(bruno, path);
    const twice = await Promise.all([bruno.post(`${path}/claim`, brunoForm), bruno.post(`${path}/claim`, brunoForm)]);
    expect(twice.map((page) => page.status)).toEqual([303, 303]);
    expect(await claims(conversation)).toEqual(['Bruno claimed the conversation.']);

    // Dana's page still shows Bruno when Carla takes it over (twice, at once).
    const dana = process.browser();
    expect((await dana.signIn('Dana')).status).toBe(303);
    const danaForm = await claimForm(dana, path);
    const carlaForm = await claimForm(carla, path);
    expect(carlaForm.holder).toBe('Bruno');
    await Promise.all([carla.post(`${path}/claim`, carlaForm), carla.post(`${path}/claim`, carlaForm)]);
    expect(await claims(conversation)).toEqual([
      'Bruno claimed the conversation.',
      'Carla took the conversation over from Bruno.',
    ]);
    const stale = await dana.post(`${path}/claim`, danaForm);
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Carla claimed this conversation while you were looking at it');
    expect(await claims(conversation)).toHaveLength(2);
    expect(await shownHolder(bruno, path)).toBe('Carla');
  });
});
