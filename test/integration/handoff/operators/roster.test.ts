/**
 * The operator roster, what every door manages accounts through, over a real Redis store with the inbox's real
 * sessions and live feed: an account added with its address normalised, an admin seeing every chatbot, refusals
 * naming what to fix; a change that takes something away (a role, chatbots) ends the operator's sessions and tells
 * every process's streams, a new display name does not; a removal ends them all; and the audit log holds each step,
 * who took it and on whom.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountSessions } from '../../../../src/handoff/inbox/account-sessions.js';
import { startInboxFeed } from '../../../../src/handoff/inbox/index.js';
import { onSessionEnded } from '../../../../src/handoff/inbox/live/feed.js';
import { InboxSessions, sessionDigest, type InboxSession } from '../../../../src/handoff/inbox/sessions.js';
import {
  AuditLog,
  OperatorAccounts,
  OperatorRoster,
  type Actor,
  type OperatorAccount,
  type RosterOutcome,
} from '../../../../src/handoff/operators/index.js';
import type { InboxFeed } from '../../../../src/handoff/pause/index.js';
import { silentLogger } from '../../../../src/logger.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';

const ADMIN: Actor = { name: 'the admin token', address: '203.0.113.7' };
const BOTS = ['main', 'sales'];
const CHROME = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', address: '198.51.100.4' };

function accountOf(outcome: RosterOutcome): OperatorAccount {
  if (!outcome.ok) throw new Error(`expected the roster to agree, it said ${outcome.status}: ${outcome.message}`);
  return outcome.account;
}

describe('the operator roster', () => {
  let store: ReturnType<typeof isolatedRedisStore>;
  let feed: InboxFeed;
  let accounts: OperatorAccounts;
  let sessions: InboxSessions;
  let roster: OperatorRoster;
  /** The session digests whose end the feed told this process. */
  let endedStreams: string[];

  beforeEach(async () => {
    store = isolatedRedisStore('operator-roster', { checkSlots: true });
    feed = await startInboxFeed({ state: store, logger: silentLogger() });
    endedStreams = [];
    onSessionEnded(feed, (digest) => endedStreams.push(digest));
    accounts = new OperatorAccounts(store);
    sessions = new InboxSessions(store, 8, accounts);
    roster = new OperatorRoster({
      accounts,
      audit: new AuditLog(store),
      sessions: new AccountSessions(store, feed),
      bots: BOTS,
      logger: silentLogger(),
    });
  });
  afterEach(async () => {
    await feed.close();
    await store.cleanup();
  });

  /** An operator signed in twice (two browsers). */
  const signedInTwice = async (account: OperatorAccount): Promise<InboxSession[]> => [
    await sessions.create({ by: 'account', account }, CHROME),
    await sessions.create({ by: 'account', account }, { ...CHROME, address: '198.51.100.5' }),
  ];

  const expectEnded = async (ended: readonly InboxSession[]) => {
    for (const session of ended) expect(await sessions.read(session.id)).toBeNull();
    await eventually(() =>
      expect(endedStreams.sort()).toEqual(ended.map((session) => sessionDigest(session.id)).sort()),
    );
  };

  describe('add', () => {
    it('adds an operator by their address trimmed and in lower case, named by it until told otherwise', async () => {
      const account = accountOf(await roster.add({ email: '  Ana.Lima@Example.COM ', bots: ['main'] }, ADMIN));
      expect(account).toMatchObject({
        email: 'ana.lima@example.com',
        name: 'ana.lima',
        role: 'operator',
        bots: ['main'],
        telegramIds: [],
        epoch: 1,
      });
      expect(account.id).toMatch(/^op_[a-z2-7]{12}$/);
      expect(await roster.list()).toEqual([account]);
      expect(await accounts.byEmail('ANA.LIMA@example.com')).toEqual(account);
    });

    it('gives an admin every chatbot, whatever chatbots were named', async () => {
      const admin = accountOf(
        await roster.add({ email: 'boss@example.com', name: 'Bea', role: 'admin', bots: ['main'] }, ADMIN),
      );
      expect(admin).toMatchObject({ name: 'Bea', role: 'admin', bots: 'all' });
      const session = await sessions.create({ by: 'account', account: admin }, CHROME);
      expect((await sessions.read(session.id))?.viewer.bots).toBe('all');
    });

    it('refuses an address that is an operator already, in any case, and keeps the first account', async () => {
      const first = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      const again = await roster.add({ email: 'ANA@example.com', name: 'Someone else', role: 'admin' }, ADMIN);
      expect(again).toEqual({
        ok: false,
        status: 409,
        message: 'ana@example.com is an operator already: change them, or remove them first.',
      });
      expect(await roster.list()).toEqual([first]);
    });

    it('refuses a chatbot this gateway does not serve, naming it and the ones it does', async () => {
      const outcome = await roster.add({ email: 'ana@example.com', bots: ['main', 'support'] }, ADMIN);
      expect(outcome).toEqual({
        ok: false,
        status: 400,
        message: 'No bot "support" is configured; the bots are "main", "sales".',
      });
      expect(await roster.list()).toEqual([]);
    });

    it('refuses what is not an e-mail address, saying what it is for', async () => {
      const outcome = await roster.add({ email: 'ana at example' }, ADMIN);
      expect(outcome).toEqual({
        ok: false,
        status: 400,
        message: '"ana at example" is not an e-mail address (the operator\'s sign-in links go to it).',
      });
      expect(await roster.list()).toEqual([]);
    });
  });

  describe('change', () => {
    it("a new role ends the operator's sessions everywhere and refuses any made before it", async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana', bots: ['main'] }, ADMIN));
      const before = await signedInTwice(ana);

      const outcome = await roster.change('ana@example.com', { role: 'admin' }, ADMIN);
      expect(outcome).toMatchObject({ ok: true, endedSessions: 2 });
      expect(accountOf(outcome)).toMatchObject({ role: 'admin', bots: 'all', epoch: ana.epoch + 1 });
      await expectEnded(before);
      // Signed in again, they are an admin.
      const after = await sessions.create({ by: 'account', account: accountOf(outcome) }, CHROME);
      expect(await sessions.read(after.id)).toMatchObject({ role: 'admin', viewer: { bots: 'all' } });
    });

    it('fewer chatbots end the sessions too', async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      const before = await signedInTwice(ana);
      const outcome = await roster.change('ana@example.com', { bots: ['sales'] }, ADMIN);
      expect(outcome).toMatchObject({ ok: true, endedSessions: 2, account: { bots: ['sales'], epoch: 2 } });
      await expectEnded(before);
    });

    it('a new display name keeps the sessions, which show it at once', async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      const [session] = await signedInTwice(ana);

      const outcome = await roster.change('ana@example.com', { name: '  Ana Lima ', telegramIds: ['5551234'] }, ADMIN);
      expect(outcome).toMatchObject({ ok: true, endedSessions: 0 });
      expect(accountOf(outcome)).toMatchObject({ name: 'Ana Lima', telegramIds: ['5551234'], epoch: ana.epoch });
      expect(await sessions.read(session!.id)).toMatchObject({ operator: 'Ana Lima', role: 'operator' });
      expect(await roster.sessions('ana@example.com')).toMatchObject({ sessions: [{}, {}] });
      expect(endedStreams).toEqual([]);
    });

    it('refuses an address that is no operator, and a value that is not one, changing nothing', async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      expect(await roster.change('bruno@example.com', { name: 'Bruno' }, ADMIN)).toEqual({
        ok: false,
        status: 404,
        message: 'No operator bruno@example.com; `chatbridge operators list` shows them.',
      });
      expect(await roster.change('ana@example.com', { telegramIds: ['@ana'] }, ADMIN)).toMatchObject({
        ok: false,
        status: 400,
        message: expect.stringContaining('"@ana" is not a Telegram user id') as string,
      });
      expect(await roster.list()).toEqual([ana]);
    });
  });

  describe('remove', () => {
    it("ends every session of the operator and their pages' streams; the address is no operator then", async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      const before = await signedInTwice(ana);

      const outcome = await roster.remove('Ana@Example.com', ADMIN);
      expect(outcome).toEqual({ ok: true, account: ana, endedSessions: 2 });
      await expectEnded(before);
      expect(await roster.list()).toEqual([]);
      expect(await roster.sessions('ana@example.com')).toBeNull();
      expect(await roster.remove('ana@example.com', ADMIN)).toMatchObject({ ok: false, status: 404 });
    });

    it('ends one session when asked, leaving the others', async () => {
      const ana = accountOf(await roster.add({ email: 'ana@example.com', name: 'Ana' }, ADMIN));
      const [first, second] = await signedInTwice(ana);

      expect(await roster.endSession('ana@example.com', sessionDigest(first!.id), ADMIN)).toMatchObject({
        ok: true,
        endedSessions: 1,
      });
      await expectEnded([first!]);
      expect(await sessions.read(second!.id)).toMatchObject({ operator: 'Ana' });
      expect(await roster.endSession('ana@example.com', sessionDigest(first!.id), ADMIN)).toMatchObject({
        ok: false,
        status: 404,
      });
    });
  });

  it('writes each step to the audit log, newest first, with who took it, on whom and from where', async () => {
    const bea: Actor = { name: 'bea@example.com', address: '192.0.2.10' };
    await roster.add({ email: 'bea@example.com', name: 'Bea', role: 'admin' }, ADMIN);
    await roster.add({ email: 'ana@example.com', name: 'Ana', bots: ['main'] }, bea);
    await roster.change('ana@example.com', { role: 'admin' }, bea);
    await roster.remove('ana@example.com', { name: 'bea@example.com' });
    // Refusals change nothing and are not steps.
    await roster.remove('ana@example.com', bea);

    const entries = await roster.audit(10);
    expect(entries.map(({ at: _at, ...entry }) => entry)).toEqual([
      {
        action: 'operator-removed',
        actor: 'bea@example.com',
        target: 'ana@example.com',
        detail: 'Ana, admin, every chatbot',
      },
      {
        action: 'operator-changed',
        actor: 'bea@example.com',
        target: 'ana@example.com',
        detail: 'role operator → admin; chatbots main → all',
        address: '192.0.2.10',
      },
      {
        action: 'operator-added',
        actor: 'bea@example.com',
        target: 'ana@example.com',
        detail: 'Ana, operator, bots main',
        address: '192.0.2.10',
      },
      {
        action: 'operator-added',
        actor: 'the admin token',
        target: 'bea@example.com',
        detail: 'Bea, admin, every chatbot',
        address: '203.0.113.7',
      },
    ]);
    expect(entries.every((entry) => typeof entry.at === 'number')).toBe(true);
    expect(await roster.audit(1)).toHaveLength(1);
  });
});
