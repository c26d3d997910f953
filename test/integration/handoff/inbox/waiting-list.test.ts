/**
 * The waiting list with more conversations than one page shows: the newest first, read in full,
 * and a count of the rest; expired pauses and other chatbots' conversations left out. Pauses are
 * written by the handoff's own PauseStore, as a handoff writes them, on a single Redis and on a
 * Cluster (the list reads every shard's index in one batch).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAITING_PAGE_SIZE } from '../../../../src/handoff/inbox/inbox-routes.js';
import type { AtomicCommand } from '../../../../src/state/index.js';
import {
  isolatedRedisStore,
  NO_CLUSTER_REASON,
  testRedisClusterNodes,
  type TestTopology,
} from '../../../support/redis.js';
import { startHandoffStack, type HandoffStack } from '../stack.js';
import { OTHER_BOT, startInboxProcess, type InboxProcess } from './inbox-support.js';

const HOUR_MS = 60 * 60_000;

for (const topology of ['single', 'cluster'] as TestTopology[]) {
  const skip = topology === 'cluster' && testRedisClusterNodes().length === 0;
  describe.skipIf(skip)(
    `the waiting list, on Redis (${topology})${skip ? ` — skipped: ${NO_CLUSTER_REASON}` : ''}`,
    () => {
      let stack: HandoffStack;
      const running: InboxProcess[] = [];
      const stores: ReturnType<typeof isolatedRedisStore>[] = [];

      beforeAll(async () => {
        stack = await startHandoffStack(`inbox-list-${topology}`);
      });
      afterEach(async () => {
        for (const process of running.splice(0)) await process.stop();
        for (const store of stores.splice(0)) await store.cleanup();
      });
      afterAll(async () => {
        await stack.close();
      });

      it('shows the newest page in full, newest first, and counts the rest', async () => {
        const state = isolatedRedisStore(`inbox-list-${topology}`, { topology, checkSlots: true });
        stores.push(state);
        const process = await startInboxProcess({ state, upstream: stack.client });
        running.push(process);
        const { pauses } = process.handoff.controller;
        const now = Date.now();
        const waiting = WAITING_PAGE_SIZE + 30;
        const commands: AtomicCommand[] = [];
        const pause = (bot: string, id: string, since: number, expiresAt = since + 24 * HOUR_MS) =>
          pauses.writeCommands({
            conversation: process.platform.conversation(bot, id),
            handoffId: randomUUID(),
            since,
            expiresAt,
            reason: 'the user sent the /human command',
            user: { id: `u-${id}`, name: `Person ${id}` },
            isGroup: false,
          });
        // Person 0 has waited longest; Person 129 asked last.
        for (let i = 0; i < waiting; i++) commands.push(...pause('main', `w${i}`, now - (waiting - i) * 60_000));
        commands.push(...pause(OTHER_BOT, 'x1', now - 30_000));
        // A pause that ran out is no longer waiting, whatever its index still says.
        commands.push(...pause('main', 'gone', now - 30 * HOUR_MS, now - HOUR_MS));
        await state.batch(commands);

        const bruno = process.browser();
        await bruno.signIn();
        const html = (await bruno.get('/inbox')).html;
        expect(html).toContain(`${(waiting + 1).toLocaleString('en')} conversations are waiting.`);
        const shown = [...html.matchAll(/>Person ([\w-]+) on Fakechat</g)].map((match) => match[1]);
        expect(shown).toHaveLength(WAITING_PAGE_SIZE);
        expect(shown[0]).toBe('x1');
        expect(shown.slice(1)).toEqual(
          Array.from({ length: WAITING_PAGE_SIZE - 1 }, (_, at) => `w${waiting - 1 - at}`),
        );
        expect(html).toContain(`And ${waiting + 1 - WAITING_PAGE_SIZE} more, waiting longer`);
        expect(html).not.toContain('Person gone');
      });
    },
  );
}
