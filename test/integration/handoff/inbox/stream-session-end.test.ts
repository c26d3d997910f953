/**
 * An open /inbox/events stream lives no longer than its session: signed out on another replica (two inbox processes
 * on one Redis, over real HTTP), the stream served by the first ends and delivers nothing more; at the session's
 * expiry it ends too.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveInboxEvents, startInboxFeed } from '../../../../src/handoff/inbox/live/index.js';
import type { InboxChange } from '../../../../src/handoff/pause/index.js';
import { silentLogger } from '../../../../src/logger.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HANDOFF_REPLY, sameRedis, startHandoffStack, type HandoffStack } from '../stack.js';
import { Browser, csrfIn, startInboxProcess, type InboxProcess } from './inbox-support.js';

/** Far longer than a published message takes between two processes on one Redis, far shorter than the test's limit. */
const BOUND_MS = 10_000;

interface Stream {
  status: number;
  changes: InboxChange[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Reads an SSE stream as EventSource would (with the session cookie when given), keeping its `change` events. */
async function openStream(url: string, session?: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    signal: abort.signal,
    headers: { accept: 'text/event-stream', ...(session ? { cookie: `cb_inbox=${session}` } : {}) },
  });
  const changes: InboxChange[] = [];
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === 'change') changes.push(JSON.parse(event.data) as InboxChange);
    },
    // The server sends `retry:` first: from then on the stream is in the hub.
    onRetry: () => opened(),
  });
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by close().
    }
  })();
  if (response.status === 200) await ready;
  return { status: response.status, changes, ended, close: () => abort.abort() };
}

/** 'ended' once the stream has ended, 'still open' if it has not within the bound. */
const endOf = (stream: Stream) =>
  Promise.race([stream.ended.then(() => 'ended' as const), sleep(BOUND_MS).then(() => 'still open' as const)]);

describe('live updates end with the session', () => {
  let stack: HandoffStack;
  const store = isolatedRedisStore('stream-session-end', { checkSlots: true });
  const other = sameRedis(store);
  let first: InboxProcess;
  let second: InboxProcess;

  beforeAll(async () => {
    stack = await startHandoffStack('stream-session-end');
    first = await startInboxProcess({ state: store, upstream: stack.client });
    second = await startInboxProcess({ state: other, upstream: stack.client, platform: first.platform });
  });
  afterAll(async () => {
    await second.stop();
    await first.stop();
    await other.close();
    await store.cleanup();
    await stack.close();
  });

  const handOver = async (id: string) => {
    await first.platform.userSends('main', id, '/human', { user: { id: `u-${id}`, name: `User ${id}` } });
    await eventually(() => expect(first.platform.textsIn(id)).toContain(HANDOFF_REPLY));
  };

  it('signed out on one replica, the stream another replica serves ends and delivers no change after', async () => {
    const bruno = first.browser();
    expect((await bruno.signIn('Bruno')).status).toBe(303);
    // The same browser's next request reaches the other replica (a load balancer without affinity).
    const elsewhere = new Browser(second.url);
    elsewhere.session = bruno.session;
    const stream = await openStream(`${first.url}/inbox/events`, bruno.session);
    expect(stream.status).toBe(200);
    await handOver('before');
    await eventually(() =>
      expect(stream.changes.map((change) => change.conversation)).toContain('main:fakechat:before'),
    );

    const out = await elsewhere.post('/inbox/sign-out', { _csrf: csrfIn((await elsewhere.get('/inbox')).html) });
    expect(out.status).toBe(303);
    expect(await endOf(stream)).toBe('ended');

    // A change after the sign-out reaches the first replica's feed, but not the ended stream.
    const heard: string[] = [];
    first.handoff.feed!.subscribe((change) => heard.push(change.conversation));
    await handOver('after');
    await eventually(() => expect(heard).toContain('main:fakechat:after'));
    expect(stream.changes.map((change) => change.conversation)).not.toContain('main:fakechat:after');
    // EventSource comes back, and is refused: the session is gone.
    expect((await openStream(`${first.url}/inbox/events`, bruno.session)).status).toBe(401);
  });

  it("ends only that session's streams: another operator's stream stays open", async () => {
    const [carla, dana] = [first.browser(), first.browser()];
    expect((await carla.signIn('Carla')).status).toBe(303);
    expect((await dana.signIn('Dana')).status).toBe(303);
    const [carlasStream, danasStream] = await Promise.all([
      openStream(`${first.url}/inbox/events`, carla.session),
      openStream(`${second.url}/inbox/events`, dana.session),
    ]);
    expect((await carla.post('/inbox/sign-out', { _csrf: await carla.csrf() })).status).toBe(303);
    expect(await endOf(carlasStream)).toBe('ended');
    await handOver('still-told');
    await eventually(() =>
      expect(danasStream.changes.map((change) => change.conversation)).toContain('main:fakechat:still-told'),
    );
    danasStream.close();
  });

  it("ends a stream at its session's expiry", async () => {
    const state = sameRedis(store);
    const feed = await startInboxFeed({ state, logger: silentLogger() });
    const app = express();
    const expiresAt = Date.now() + 300;
    app.get('/events', (req, res) =>
      serveInboxEvents(feed, req, res, { bots: 'all' }, { digest: 'd'.repeat(43), expiresAt }),
    );
    const server: Server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const stream = await openStream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
      expect(stream.status).toBe(200);
      expect(await endOf(stream)).toBe('ended');
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    } finally {
      await feed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await state.close();
    }
  });
});
