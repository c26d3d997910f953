/**
 * The inbox sign-in behind a reverse proxy the gateway was not told to trust (requests carry X-Forwarded-For,
 * TRUST_PROXY unset), over real HTTP: the connection's address is the proxy's for everyone, yet one guesser's wrong
 * tokens lock out only them; made-up addresses are bounded by the limit on the admin token itself; the missing
 * TRUST_PROXY is said in the log, once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SIGN_IN_ATTEMPTS, SIGN_IN_ATTEMPTS } from '../../../../src/handoff/inbox/sign-in-limit.js';
import { UNTRUSTED_PROXY_WARNING } from '../../../../src/handoff/inbox/proxy-hint.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { recordingLogger, startHandoffStack, type HandoffStack } from '../stack.js';
import { startInboxProcess, type InboxProcess } from './inbox-support.js';

/** What the proxy in front appends: the address it saw the client connect from. */
const forwardedFor = (client: string) => ({ 'x-forwarded-for': client });

describe('the inbox sign-in behind an untrusted reverse proxy', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-proxy');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  const start = async (trustProxy: boolean) => {
    const state = isolatedRedisStore('inbox-proxy', { checkSlots: true });
    stores.push(state);
    const log = recordingLogger();
    const process = await startInboxProcess({ state, upstream: stack.client, trustProxy, logger: log.logger });
    running.push(process);
    const warnings = () => log.lines.filter((line) => line.msg === UNTRUSTED_PROXY_WARNING);
    return { process, lines: log.lines, warnings };
  };

  it("an attacker's ten wrong guesses do not stop an operator with the right token; the warning is logged once", async () => {
    const { process, warnings } = await start(false);
    const attacker = process.browser(forwardedFor('203.0.113.9'));
    for (let guess = 1; guess <= SIGN_IN_ATTEMPTS; guess++)
      expect((await attacker.signIn('Mallory', `guess-number-${guess}-of-many`)).status).toBe(401);
    const locked = await attacker.signIn('Mallory', 'one-more-guess-after-the-limit');
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('Too many sign-in attempts from your address');
    // Locked means locked: the attacker's right guess would be refused too (it learns nothing more).
    expect((await attacker.signIn('Mallory')).status).toBe(429);

    const operator = process.browser(forwardedFor('198.51.100.7'));
    expect((await operator.signIn('Bruno')).status).toBe(303);
    expect((await operator.get('/inbox')).html).toContain('Bruno');
    expect((await process.browser(forwardedFor('198.51.100.8')).signIn('Carla')).status).toBe(303);

    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toContain('TRUST_PROXY (http.trustProxy)');
  });

  it('made-up X-Forwarded-For addresses are bounded by the limit on the admin token, said in the log', async () => {
    const { process, lines } = await start(false);
    for (let guess = 1; guess <= ACCOUNT_SIGN_IN_ATTEMPTS; guess++) {
      const madeUp = process.browser(forwardedFor(`10.0.${Math.floor(guess / 250)}.${guess % 250}`));
      expect((await madeUp.signIn('Mallory', `guess-number-${guess}-of-many`)).status).toBe(401);
    }
    const next = await process.browser(forwardedFor('10.9.9.9')).signIn('Mallory', 'yet-another-guess-of-many');
    expect(next.status).toBe(429);
    expect(next.html).toContain('Too many wrong admin tokens were tried, from anywhere');
    expect(lines.some((line) => line.level === 50 && String(line.msg).includes('Too many wrong admin tokens'))).toBe(
      true,
    );
  });

  it('says nothing when TRUST_PROXY is set: X-Forwarded-For names the client', async () => {
    const { process, warnings } = await start(true);
    expect((await process.browser(forwardedFor('198.51.100.7')).signIn('Bruno')).status).toBe(303);
    expect(warnings()).toHaveLength(0);
  });
});
