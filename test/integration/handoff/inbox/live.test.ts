/**
 * The inbox's live updates across processes: a change published by one gateway process reaches the
 * SSE stream another serves (real Redis, single and Cluster; a real HTTP server and client), only
 * to the viewers allowed to see it; close() ends the streams; and a user's message written while
 * paused is published once it is in the transcript.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createParser } from 'eventsource-parser';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfigSchema } from '../../../../src/config/schema.js';
import { createGateway, TranscriptStore, type Gateway } from '../../../../src/gateway/index.js';
import { DEFAULT_OUTBOX_POLICY, HandoffController, Outbox, ResumeLinks } from '../../../../src/handoff/index.js';
import {
  registerTriggers,
  type InboxChange,
  type InboxFeed,
  type InboxViewer,
} from '../../../../src/handoff/pause/index.js';
import { serveInboxEvents, startInboxFeed } from '../../../../src/handoff/inbox/live/index.js';
import { silentLogger } from '../../../../src/logger.js';
import { PLATFORMS } from '../../../../src/runtime/platforms.js';
import { MemoryStateStore, RedisStateStore } from '../../../../src/state/index.js';
import { HEARTBEAT_MS } from '../../../../src/handoff/inbox/live/events.js';
import { testRedisClusterNodes, testRedisUrl } from '../../../support/redis.js';
import { eventually, RecordingAdapter, PLAIN_CAPABILITIES } from '../../../unit/gateway/support/recording-adapter.js';
import { testTopologies } from '../../gateway/stack.js';
import {
  DEMO_SERIAL_NUMBER,
  HANDOFF_REPLY,
  HANDOFF_SETTINGS,
  sameRedis,
  startHandoffStack,
  type HandoffStack,
} from '../stack.js';

const logger = silentLogger();
const main = (id: string) => ({ bot: 'main', platform: 'fakechat', id });
const other = (id: string) => ({ bot: 'other', platform: 'fakechat', id });

/** An HTTP server of one gateway process, serving GET /events from `feed` to a viewer named by the test. */
async function serveEvents(feed: InboxFeed): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/events', (req, res) => {
    const viewer: InboxViewer = {
      bots: req.get('x-test-bots') === undefined ? 'all' : req.get('x-test-bots')!.split(','),
    };
    serveInboxEvents(feed, req, res, viewer);
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface OpenStream {
  status: number;
  changes: InboxChange[];
  /** Every event and comment, in order: `change`, `resync`, `: heartbeat`. */
  seen: string[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Reads an SSE stream as a browser's EventSource would, keeping the `change` events. */
async function openStream(url: string, bots?: readonly string[]): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    signal: abort.signal,
    headers: { accept: 'text/event-stream', ...(bots ? { 'x-test-bots': bots.join(',') } : {}) },
  });
  const changes: InboxChange[] = [];
  const seen: string[] = [];
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const parser = createParser({
    onEvent: (event) => {
      seen.push(event.event ?? 'message');
      if (event.event === 'change') changes.push(JSON.parse(event.data) as InboxChange);
    },
    onComment: (comment) => seen.push(`:${comment}`),
    // The server sends `retry:` first: from then on the stream is in the hub and hears every change.
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
  return { status: response.status, changes, seen, ended, close: () => abort.abort() };
}

describe.each(testTopologies())('inbox live updates across processes, on Redis (%s)', (topology) => {
  let stack: HandoffStack;
  const toStop: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    stack = await startHandoffStack('inbox-live', { topology });
  });
  afterEach(async () => {
    for (const stop of toStop.splice(0).reverse()) await stop();
    await stack.close();
  });

  /** A second gateway process: its own connection to the same Redis, its own feed and HTTP server. */
  async function process(): Promise<{ state: RedisStateStore; feed: InboxFeed; url: string }> {
    const state = sameRedis(stack.store);
    const feed = await startInboxFeed({ state, logger });
    const http = await serveEvents(feed);
    toStop.push(async () => {
      await feed.close();
      await http.close();
      await state.close();
    });
    return { state, feed, url: http.url };
  }

  it('a change published by one process reaches the pages another process serves', async () => {
    const publisher = await process();
    const server = await process();
    const stream = await openStream(`${server.url}/events`);
    const before = Date.now();
    await publisher.feed.publish({ conversation: main('c1'), kind: 'user-message' });
    await eventually(() => expect(stream.changes).toHaveLength(1));
    expect(stream.changes[0]).toMatchObject({ conversation: 'main:fakechat:c1', bot: 'main', kind: 'user-message' });
    expect(stream.changes[0]!.at).toBeGreaterThanOrEqual(before);
    stream.close();
  });

  it('sends a viewer only the bots it may see, and a conversation page only its conversation', async () => {
    const publisher = await process();
    const server = await process();
    const everything = await openStream(`${server.url}/events`);
    const mainOnly = await openStream(`${server.url}/events`, ['main']);
    const c1Page = await openStream(`${server.url}/events?conversation=${encodeURIComponent('main:fakechat:c1')}`);
    const otherC1Page = await openStream(
      `${server.url}/events?conversation=${encodeURIComponent('other:fakechat:c1')}`,
      ['main'],
    );
    // One at a time: on a Cluster each PUBLISH may enter at another node, and two in a row may arrive swapped.
    const changes = [
      [other('c1'), 'handed-over'],
      [main('c2'), 'handed-over'],
      [main('c1'), 'claimed'],
    ] as const;
    for (const [index, [conversation, kind]] of changes.entries()) {
      await publisher.feed.publish({ conversation, kind });
      await eventually(() => expect(everything.changes).toHaveLength(index + 1));
    }
    // Each change was written to every stream allowed to see it at once, before the next was published.
    await eventually(() => {
      expect(everything.changes.map((change) => change.conversation)).toEqual([
        'other:fakechat:c1',
        'main:fakechat:c2',
        'main:fakechat:c1',
      ]);
      expect(mainOnly.changes.map((change) => change.conversation)).toEqual(['main:fakechat:c2', 'main:fakechat:c1']);
      expect(c1Page.changes.map((change) => change.kind)).toEqual(['claimed']);
    });
    // A page of another bot's conversation, for a viewer signed in for `main` only, never hears of it.
    expect(otherC1Page.changes).toEqual([]);
    for (const stream of [everything, mainOnly, c1Page, otherC1Page]) stream.close();
  });

  it('ends every stream when the feed closes, and refuses new ones so the browser reconnects elsewhere', async () => {
    const server = await process();
    const streams = await Promise.all([
      openStream(`${server.url}/events`),
      openStream(`${server.url}/events`, ['main']),
    ]);
    await server.feed.close();
    await Promise.all(streams.map((stream) => stream.ended));
    const after = await fetch(`${server.url}/events`);
    expect(after.status).toBe(503);
    expect(after.headers.get('retry-after')).toBe('2');
  });

  it('tells the pages to read again after the feed was subscribed anew (a Redis outage may have lost changes)', async () => {
    // A connection name of this test's own, so that killing it touches no other test's connections.
    const name = `inbox-live-${Math.random().toString(36).slice(2, 10)}`;
    const state = new RedisStateStore({
      topology: stack.store.topology,
      prefix: stack.store.prefix,
      connectionName: name,
    });
    const feed = await startInboxFeed({ state, logger });
    const http = await serveEvents(feed);
    toStop.push(async () => {
      await feed.close();
      await http.close();
      await state.close();
    });
    const stream = await openStream(`${http.url}/events`);
    const admins =
      topology === 'cluster'
        ? testRedisClusterNodes().map((node) => new Redis({ host: node.host, port: node.port }))
        : [new Redis(testRedisUrl())];
    try {
      let killed = 0;
      for (const admin of admins) {
        const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
        // One Redis: the store's duplicate(); a Cluster: ioredis' own subscriber connection.
        const ours = (entry: string) =>
          entry.includes(` name=${name}:subscriber `) || entry.includes(` name=ioredis-cluster(subscriber):${name} `);
        for (const line of list.split('\n').filter(ours)) {
          await admin.call('CLIENT', 'KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!);
          killed++;
        }
      }
      expect(killed).toBe(1);
      if (topology === 'single') await eventually(() => expect(stream.seen).toContain('resync'));
      // Either way the feed hears changes again (on a Cluster, ioredis moves its subscriber without telling).
      await eventually(async () => {
        await feed.publish({ conversation: main('c5'), kind: 'claimed' });
        expect(stream.changes.map((change) => change.conversation)).toContain('main:fakechat:c5');
      });
    } finally {
      admins.forEach((admin) => admin.disconnect());
      stream.close();
    }
  });

  it('answers 400 when the conversation is given twice', async () => {
    const server = await process();
    const response = await fetch(`${server.url}/events?conversation=a&conversation=b`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('conversation must be given once');
  });

  it("publishes the user's message written while paused once it is in the transcript, to another process", async () => {
    const gatewayProcess = await handoffProcess(sameRedis(stack.store));
    toStop.push(gatewayProcess.stop);
    const { adapter } = gatewayProcess;
    const reader = await process();
    const transcript = new TranscriptStore(reader.state, { maxEntries: 100, ttlMs: 60_000 });
    /** What the other process found in the transcript at the moment each change reached it. */
    const seen: { change: InboxChange; texts: Promise<string[]> }[] = [];
    reader.feed.subscribe((change) => {
      seen.push({ change, texts: transcript.read(main('c1')).then((entries) => entries.map((entry) => entry.text)) });
    });

    await adapter.say('c1', '/human', { user: { id: 'u-ana', name: 'Ana Lima' } });
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([HANDOFF_REPLY]));
    await adapter.say('c1', 'Is anyone there?', { user: { id: 'u-ana', name: 'Ana Lima' } });
    await eventually(() => expect(seen.filter(({ change }) => change.kind === 'user-message')).toHaveLength(2));

    const userMessages = seen.filter(({ change }) => change.kind === 'user-message');
    expect(userMessages.map(({ change }) => change.conversation)).toEqual(['main:fakechat:c1', 'main:fakechat:c1']);
    // Read as the change arrived: the turn's entry was already there.
    expect(await userMessages[0]!.texts).toContain('/human');
    expect(await userMessages[1]!.texts).toContain('Is anyone there?');
  });

  /** A gateway process with the handoff's triggers telling `feed` (what installHandoff wires when the inbox is on). */
  async function handoffProcess(
    state: RedisStateStore,
  ): Promise<{ gateway: Gateway; adapter: RecordingAdapter; stop: () => Promise<void> }> {
    const config = buildConfigSchema(PLATFORMS).parse({ admin: { token: 'inbox-live-admin-token-0123' } });
    const adapter = new RecordingAdapter('main', 'fakechat', PLAIN_CAPABILITIES);
    const gateway = createGateway({
      state,
      upstream: stack.client,
      adapters: [adapter],
      logger,
      policy: { stopGraceMs: 1_000 },
      bots: [{ id: 'main', serialNumber: DEMO_SERIAL_NUMBER, settings: HANDOFF_SETTINGS }],
    });
    const feed = await startInboxFeed({ state, logger });
    const outbox = new Outbox({
      state,
      transport: null,
      from: 'bot@oakridge.example',
      policy: DEFAULT_OUTBOX_POLICY,
      logger,
    });
    const links = new ResumeLinks('inbox-live-link-secret-0123456789', 'http://127.0.0.1:1');
    const controller = new HandoffController({ gateway, state, handoff: config.handoff, logger, links, outbox });
    const unregister = registerTriggers(gateway, controller, config, feed);
    await gateway.start();
    return {
      gateway,
      adapter,
      async stop() {
        await gateway.stop();
        unregister();
        await feed.close();
        await state.close();
      },
    };
  }
});

describe('inbox feed without Redis (the memory store)', () => {
  it('keeps an idle stream open with a comment every 25 s', async () => {
    // Only the hub's interval is faked: sockets and the rest run on real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const feed = await startInboxFeed({ state: new MemoryStateStore(), logger });
    const http = await serveEvents(feed);
    try {
      const stream = await openStream(`${http.url}/events`);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      await eventually(() => expect(stream.seen).toEqual([':heartbeat']));
      vi.advanceTimersByTime(HEARTBEAT_MS);
      await eventually(() => expect(stream.seen).toEqual([':heartbeat', ':heartbeat']));
      stream.close();
    } finally {
      vi.useRealTimers();
      await feed.close();
      await http.close();
    }
  });

  it('still tells this process, through the store', async () => {
    const feed = await startInboxFeed({ state: new MemoryStateStore(), logger });
    const heard: InboxChange[] = [];
    feed.subscribe((change) => heard.push(change));
    await feed.publish({ conversation: main('c9'), kind: 'operator-message' });
    expect(heard.map((change) => [change.conversation, change.kind])).toEqual([
      ['main:fakechat:c9', 'operator-message'],
    ]);
    await feed.close();
    await feed.publish({ conversation: main('c9'), kind: 'operator-message' });
    expect(heard).toHaveLength(1);
  });
});
