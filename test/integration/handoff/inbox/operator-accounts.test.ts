/**
 * What an operator signed in with their account does in the inbox is recorded with that account: the reply, the claim
 * and the hand-back keep its id beside the name it had then, and the pages show the name the account has now. Two
 * operators of one display name stay two people. Records of the admin token's sessions keep no account (nor any field
 * for one). Real HTTP server, real Redis, the in-memory platform.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InboxSessions } from '../../../../src/handoff/inbox/index.js';
import { OperatorAccounts, type OperatorAccount } from '../../../../src/handoff/operators/index.js';
import { handoffKeys } from '../../../../src/handoff/keys.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HANDOFF_REPLY, startHandoffStack, type HandoffStack } from '../stack.js';
import { conversationPage, startInboxProcess, type Browser, type InboxProcess } from './inbox-support.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const C1 = conversationPage('main', 'c1');

describe('an operator signed in with their account', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-operator-accounts');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  /** A gateway with `c1` handed to a person by Ana. */
  const start = async () => {
    const state = isolatedRedisStore('inbox-operator-accounts', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client });
    running.push(process);
    await process.platform.userSends('main', 'c1', '/human', ana);
    await eventually(() => expect(process.platform.textsIn('c1')).toContain(HANDOFF_REPLY));
    return process;
  };
  const addAccount = async (process: InboxProcess, email: string, name: string): Promise<OperatorAccount> => {
    const added = await process.handoff.operators.add({ email, name }, { name: 'the admin token' });
    if (!added.ok) throw new Error(added.message);
    return added.account;
  };
  /** A browser holding a session of `account`, as its e-mail link would have made. */
  const signedInAs = async (process: InboxProcess, account: OperatorAccount): Promise<Browser> => {
    const sessions = new InboxSessions(process.state, 8, new OperatorAccounts(process.state));
    const session = await sessions.create({ by: 'account', account }, { userAgent: 'test', address: '127.0.0.1' });
    const browser = process.browser();
    browser.session = session.id;
    return browser;
  };
  const post = async (browser: Browser, path: string, form: Record<string, string> = {}) =>
    browser.post(path, { _csrf: await browser.csrf(C1), ...form });
  const transcriptOf = (process: InboxProcess) =>
    process.gateway.transcript.read(process.platform.conversation('main', 'c1'));

  it('records the claim, the reply and the hand-back with the account, and shows the name the account has now', async () => {
    const process = await start();
    const sam = await addAccount(process, 'sam@oakridge.example', 'Sam Reis');
    const browser = await signedInAs(process, sam);

    expect((await post(browser, `${C1}/claim`)).status).toBe(303);
    const conversation = process.platform.conversation('main', 'c1');
    expect((await process.handoff.controller.activePause(conversation))?.claim).toMatchObject({
      by: 'Sam Reis',
      account: sam.id,
    });
    expect((await post(browser, `${C1}/messages`, { text: 'Hello Ana, Sam here.' })).status).toBe(303);
    expect((await transcriptOf(process)).slice(-2)).toEqual([
      expect.objectContaining({ event: 'claimed', operator: 'Sam Reis', account: sam.id }),
      expect.objectContaining({
        role: 'operator',
        operator: 'Sam Reis',
        account: sam.id,
        text: 'Hello Ana, Sam here.',
      }),
    ]);

    const renamed = await process.handoff.operators.change(sam.email, { name: 'Samuel Reis' }, { name: 'an admin' });
    expect(renamed.ok).toBe(true);
    const page = (await browser.get(C1)).html;
    expect(page).toContain('<span class="speaker">Samuel Reis (operator)</span>');
    expect(page).toMatch(/Samuel Reis claimed the conversation\./);
    expect(page).toMatch(/<dt>Claimed by<\/dt><dd>Samuel Reis \(/);
    expect(page).not.toContain('Sam Reis');
    // Who holds it is the one looking: no Claim button for them.
    expect(page).not.toContain('<button type="submit">Claim</button>');
    expect((await browser.get('/inbox')).html).toContain('<dt>Claimed by</dt><dd>Samuel Reis</dd>');

    expect((await post(browser, `${C1}/hand-back`)).status).toBe(303);
    expect((await transcriptOf(process)).find((entry) => entry.event === 'handed-back')).toMatchObject({
      text: 'Handed back to the assistant by Samuel Reis.',
      operator: 'Samuel Reis',
      account: sam.id,
    });
    const [handedBack] = await process.handoff.controller.history.list();
    expect(handedBack).toMatchObject({
      by: 'Samuel Reis',
      account: sam.id,
      claimedBy: 'Sam Reis',
      claimedByAccount: sam.id,
    });
    await process.handoff.operators.change(sam.email, { name: 'Sam R.' }, { name: 'an admin' });
    const history = (await browser.get('/inbox/history')).html;
    expect(history).toMatch(/by Sam R\., after/);
    expect(history).toContain('<dt>Claimed by</dt><dd>Sam R.</dd>');
  });

  it('tells two operators of one display name apart: the one without the account takes the claim over', async () => {
    const process = await start();
    const account = await addAccount(process, 'bruno@oakridge.example', 'Bruno');
    const withAccount = await signedInAs(process, account);
    const withToken = process.browser();
    expect((await withToken.signIn('Bruno')).status).toBe(303);

    expect((await post(withAccount, `${C1}/claim`)).status).toBe(303);
    // A double submit claims once.
    expect((await post(withAccount, `${C1}/claim`)).status).toBe(303);
    expect((await withToken.get(C1)).html).toContain('<button type="submit">Claim</button>');
    expect((await post(withToken, `${C1}/claim`)).status).toBe(303);

    const claims = (await transcriptOf(process)).filter((entry) => entry.event === 'claimed');
    expect(claims.map((entry) => entry.text)).toEqual([
      'Bruno claimed the conversation.',
      'Bruno took the conversation over from Bruno.',
    ]);
    // The admin token's session has no account: none is kept, not even an empty field.
    expect(claims[1]).not.toHaveProperty('account');
    const hash = await process.state.hashGetAll(handoffKeys.pause(process.platform.conversation('main', 'c1')));
    expect(hash).toMatchObject({ claimedBy: 'Bruno' });
    expect(hash).not.toHaveProperty('claimedByAccount');
  });

  it('refuses a claim made meanwhile by another operator of the name the page showed', async () => {
    const process = await start();
    const first = await addAccount(process, 'bruno@oakridge.example', 'Bruno');
    const second = await addAccount(process, 'bruno.costa@oakridge.example', 'Bruno');
    const firstBrowser = await signedInAs(process, first);
    const secondBrowser = await signedInAs(process, second);
    const watcher = process.browser();
    expect((await watcher.signIn('Carla')).status).toBe(303);

    expect((await post(firstBrowser, `${C1}/claim`)).status).toBe(303);
    // Carla's page shows the first Bruno holding it; the second Bruno takes it over before she presses.
    const csrf = await watcher.csrf(C1);
    const seen = /name="holderAccount" value="([^"]*)"/.exec((await watcher.get(C1)).html)?.[1];
    expect(seen).toBe(first.id);
    expect((await post(secondBrowser, `${C1}/claim`)).status).toBe(303);
    const pressed = await watcher.post(`${C1}/claim`, {
      _csrf: csrf,
      holder: 'Bruno',
      holderAccount: seen!,
      holderVia: '',
    });
    expect(pressed.status).toBe(409);
    expect(pressed.html).toContain('Bruno claimed this conversation while you were looking at it');
    const pause = await process.handoff.controller.activePause(process.platform.conversation('main', 'c1'));
    expect(pause?.claim).toMatchObject({ by: 'Bruno', account: second.id });
  });
});
