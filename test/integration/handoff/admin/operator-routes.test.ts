/**
 * Operator accounts in the admin API, what `chatbridge operators` calls: behind the admin token, every route's answer
 * over real HTTP on a gateway process with the handoff installed (real Redis, two chatbots), the inbox's real sessions
 * for the ones an admin lists and ends, and each refusal with its status and words that name the field or the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxSessions, sessionDigest } from '../../../../src/handoff/inbox/sessions.js';
import { OperatorAccounts, type OperatorAccount } from '../../../../src/handoff/operators/index.js';
import { DEMO_SERIAL_NUMBER } from '../../../../src/service/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import {
  ADMIN_TOKEN,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';

interface Answer {
  status: number;
  // The API's JSON, read by each test as the route documents it.
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const CHROME = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', address: '198.51.100.4' };

describe("the admin API's operator accounts", () => {
  let stack: HandoffStack;
  let gateway: HandoffProcess;
  const store = isolatedRedisStore('operator-routes', { checkSlots: true });
  const accounts = new OperatorAccounts(store);
  const sessions = new InboxSessions(store, 8, accounts);

  beforeAll(async () => {
    stack = await startHandoffStack('operator-routes');
    gateway = await startHandoffProcess({
      state: store,
      upstream: stack.client,
      config: {
        bots: [
          { id: 'main', serialNumber: DEMO_SERIAL_NUMBER, settings: {} },
          { id: 'sales', serialNumber: DEMO_SERIAL_NUMBER, settings: {} },
        ],
      },
    });
  });
  afterAll(async () => {
    await gateway.stop();
    await store.cleanup();
    await stack.close();
  });

  const call = async (method: string, path: string, body?: unknown, token = ADMIN_TOKEN): Promise<Answer> => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const account = async (email: string): Promise<OperatorAccount> => (await accounts.byEmail(email))!;
  /** An operator signed in to the inbox in two browsers. */
  const signedInTwice = async (email: string) => {
    const signedIn = await account(email);
    return [
      await sessions.create({ by: 'account', account: signedIn }, CHROME),
      await sessions.create({ by: 'account', account: signedIn }, { ...CHROME, address: '198.51.100.5' }),
    ];
  };

  it('answers nothing without the admin token, and changes nothing', async () => {
    const requests: [string, string, unknown?][] = [
      ['GET', '/admin/operators'],
      ['POST', '/admin/operators', { email: 'intruder@example.com', role: 'admin' }],
      ['PATCH', '/admin/operators/ana%40example.com', { role: 'admin' }],
      ['DELETE', '/admin/operators/ana%40example.com'],
      ['GET', '/admin/operators/ana%40example.com/sessions'],
      ['DELETE', '/admin/operators/ana%40example.com/sessions/x'],
      ['GET', '/admin/operators-audit'],
    ];
    for (const [method, path, body] of requests) {
      expect((await call(method, path, body, '')).status).toBe(401);
      expect((await call(method, path, body, 'not-the-token')).status).toBe(401);
    }
    expect(await accounts.list()).toEqual([]);
  });

  it('adds operators (201) and lists them with their live sessions', async () => {
    const added = await call('POST', '/admin/operators', {
      email: ' Bea@Example.com',
      name: 'Bea',
      role: 'admin',
      bots: ['main'],
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      operator: {
        id: expect.stringMatching(/^op_/) as string,
        email: 'bea@example.com',
        name: 'Bea',
        role: 'admin',
        bots: 'all',
        telegramIds: [],
        createdAt: expect.any(Number) as number,
      },
      endedSessions: 0,
    });
    const ana = await call('POST', '/admin/operators', {
      email: 'ana@example.com',
      name: 'Ana',
      bots: ['sales'],
      telegramIds: ['5551234'],
    });
    expect(ana.status).toBe(201);
    await signedInTwice('ana@example.com');

    const list = await call('GET', '/admin/operators');
    expect(list.status).toBe(200);
    expect(list.body.operators).toEqual([
      { ...ana.body.operator, sessions: 2 },
      { ...added.body.operator, sessions: 0 },
    ]);
  });

  it("refuses to add an operator twice, a chatbot it does not serve or a bad address, in the roster's words", async () => {
    expect(await call('POST', '/admin/operators', { email: 'carla@example.com' })).toMatchObject({ status: 201 });
    expect(await call('POST', '/admin/operators', { email: 'CARLA@example.com' })).toEqual({
      status: 409,
      body: { error: 'carla@example.com is an operator already: change them, or remove them first.' },
    });
    expect(await call('POST', '/admin/operators', { email: 'dan@example.com', bots: ['support'] })).toEqual({
      status: 400,
      body: { error: 'No bot "support" is configured; the bots are "main", "sales".' },
    });
    expect(await call('POST', '/admin/operators', { email: 'dan' })).toEqual({
      status: 400,
      body: { error: '"dan" is not an e-mail address (the operator\'s sign-in links go to it).' },
    });
    expect(await accounts.byEmail('dan@example.com')).toBeNull();
  });

  it('refuses a body that is not one, naming the field', async () => {
    const refusal = async (body: unknown) => {
      const answer = await call('POST', '/admin/operators', body);
      expect(answer.status).toBe(400);
      return answer.body.error as string;
    };
    expect(await refusal({ name: 'Dan' })).toBe("email must be text, the operator's address.");
    expect(await refusal({ email: 'dan@example.com', role: 'boss' })).toBe('role must be "operator" or "admin".');
    expect(await refusal({ email: 'dan@example.com', bots: 'main' })).toBe('bots must be "all" or a list of bot ids.');
    expect(await refusal({ email: 'dan@example.com', bots: ['main', 7] })).toBe(
      'bots must be "all" or a list of bot ids.',
    );
    expect(await refusal({ email: 'dan@example.com', telegramIds: [5551234] })).toBe(
      'telegramIds must be a list of Telegram user ids, each as text ("123456789") (at telegramIds.0).',
    );
    expect(await refusal({ email: 'dan@example.com', emial: 'x' })).toContain('no field "emial" here');
    expect(await refusal(['dan@example.com'])).toBe('the body must be a JSON object.');
    expect((await call('GET', '/admin/operators')).body.operators).not.toContainEqual(
      expect.objectContaining({ email: 'dan@example.com' }),
    );
  });

  it('changes a role, ending the sessions it took something from; a new name ends none', async () => {
    await call('POST', '/admin/operators', { email: 'eva@example.com', name: 'Eva', bots: ['main'] });
    const [before] = await signedInTwice('eva@example.com');

    const renamed = await call('PATCH', '/admin/operators/EVA%40example.com', { name: 'Eva Souza' });
    expect(renamed).toMatchObject({ status: 200, body: { operator: { name: 'Eva Souza' }, endedSessions: 0 } });
    expect(await sessions.read(before!.id)).toMatchObject({ operator: 'Eva Souza' });

    const promoted = await call('PATCH', '/admin/operators/eva%40example.com', { role: 'admin' });
    expect(promoted).toMatchObject({
      status: 200,
      body: { operator: { email: 'eva@example.com', role: 'admin', bots: 'all' }, endedSessions: 2 },
    });
    expect(await sessions.read(before!.id)).toBeNull();
  });

  it('refuses a change of no one, of nothing, of the address, or to a chatbot it does not serve', async () => {
    await call('POST', '/admin/operators', { email: 'fay@example.com', name: 'Fay' });
    expect(await call('PATCH', '/admin/operators/nobody%40example.com', { name: 'X' })).toEqual({
      status: 404,
      body: { error: 'No operator nobody@example.com; `chatbridge operators list` shows them.' },
    });
    expect(await call('PATCH', '/admin/operators/fay%40example.com', {})).toEqual({
      status: 400,
      body: { error: 'Nothing to change: give name, role, bots or telegramIds.' },
    });
    const readdressed = await call('PATCH', '/admin/operators/fay%40example.com', { email: 'fay@elsewhere.example' });
    expect(readdressed.status).toBe(400);
    expect(readdressed.body.error).toContain('no field "email" here');
    expect(await call('PATCH', '/admin/operators/fay%40example.com', { bots: ['support'] })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('No bot "support"') as string },
    });
    expect(await account('fay@example.com')).toMatchObject({ name: 'Fay', bots: 'all' });
  });

  it("removes an operator, ending their sessions, and says so; an address that is no operator's is a 404", async () => {
    await call('POST', '/admin/operators', { email: 'gil@example.com', name: 'Gil' });
    const signedIn = await signedInTwice('gil@example.com');

    const removed = await call('DELETE', '/admin/operators/gil%40example.com');
    expect(removed).toMatchObject({
      status: 200,
      body: { removed: true, operator: { email: 'gil@example.com', name: 'Gil' }, endedSessions: 2 },
    });
    for (const session of signedIn) expect(await sessions.read(session.id)).toBeNull();
    expect(await call('DELETE', '/admin/operators/gil%40example.com')).toEqual({
      status: 404,
      body: { error: 'No operator gil@example.com; `chatbridge operators list` shows them.' },
    });
  });

  it("lists an operator's sessions and ends one of them", async () => {
    await call('POST', '/admin/operators', { email: 'hal@example.com', name: 'Hal' });
    const [first, second] = await signedInTwice('hal@example.com');

    const listed = await call('GET', '/admin/operators/hal%40example.com/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.operator).toMatchObject({ email: 'hal@example.com', name: 'Hal' });
    const ids = (listed.body.sessions as { id: string }[]).map((session) => session.id);
    expect(ids.sort()).toEqual([sessionDigest(first!.id), sessionDigest(second!.id)].sort());
    expect(listed.body.sessions).toContainEqual(
      expect.objectContaining({ device: CHROME.userAgent, address: '198.51.100.5' }),
    );

    const path = `/admin/operators/hal%40example.com/sessions/${sessionDigest(first!.id)}`;
    expect(await call('DELETE', path)).toMatchObject({ status: 200, body: { endedSessions: 1 } });
    expect(await sessions.read(first!.id)).toBeNull();
    expect(await sessions.read(second!.id)).toMatchObject({ operator: 'Hal' });
    expect(await call('DELETE', path)).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining('hal@example.com has no session') as string },
    });
    expect(await call('GET', '/admin/operators/nobody%40example.com/sessions')).toMatchObject({ status: 404 });
  });

  it('reads the audit log newest first, as the admin token from its address, as many entries as asked', async () => {
    await call('POST', '/admin/operators', { email: 'ivo@example.com', name: 'Ivo' });
    await call('PATCH', '/admin/operators/ivo%40example.com', { bots: ['main'] });
    await call('DELETE', '/admin/operators/ivo%40example.com');

    const newest = await call('GET', '/admin/operators-audit?limit=3');
    expect(newest.status).toBe(200);
    expect(newest.body.entries).toEqual([
      expect.objectContaining({ action: 'operator-removed', detail: 'Ivo, operator, bots main' }),
      expect.objectContaining({ action: 'operator-changed', detail: 'chatbots all → main' }),
      expect.objectContaining({ action: 'operator-added', detail: 'Ivo, operator, every chatbot' }),
    ]);
    for (const entry of newest.body.entries as Record<string, unknown>[])
      expect(entry).toMatchObject({ actor: 'the admin token', target: 'ivo@example.com', address: '127.0.0.1' });

    const all = await call('GET', '/admin/operators-audit');
    expect((all.body.entries as unknown[]).length).toBeGreaterThan(3);
    for (const limit of ['0', 'ten', '-1'])
      expect(await call('GET', `/admin/operators-audit?limit=${limit}`)).toEqual({
        status: 400,
        body: { error: `limit must be a whole number from 1 to 10000 (got "${limit}").` },
      });
  });
});
