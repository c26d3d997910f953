/**
 * When the day's digests go, on a clock the test moves: at `digests.hour` in the chatbot's TimeZone,
 * for the day before, midnight to midnight there, across the night the clocks go back (a 25-hour
 * day), once, and not before the hour.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { ConversationRef } from '../../../../src/contract.js';
import type { TranscriptEntry } from '../../../../src/gateway/index.js';
import { DayIndex } from '../../../../src/handoff/digests/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  DEMO_SERIAL_NUMBER,
  HANDOFF_SETTINGS,
  startHandoffProcess,
  startHandoffStack,
  TEST_HANDOFF,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';

const ZONE = 'America/New_York';
const LEADS_TO = 'sales@oakridge.example';
const LOGS_TO = 'logs@oakridge.example';
/** 1 November 2026 in New York: the clocks go back from 2:00 to 1:00, the day lasts 25 hours. */
const local = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toMillis();

describe("the day's digests on a clock the test moves, across a daylight-saving change", () => {
  let stack: HandoffStack;
  let process: HandoffProcess | undefined;
  let now = 0;
  beforeEach(async () => {
    stack = await startHandoffStack('digest-schedule');
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });

  /** Writes a conversation's days as turns would have: its entries, and the day index's notes. */
  const seed = async (
    process: HandoffProcess,
    conversation: ConversationRef,
    entries: TranscriptEntry[],
    days: string[],
  ) => {
    const index = new DayIndex(stack.store, 24 * 60 * 60_000);
    await stack.store.atomic(days.flatMap((day) => index.commands(conversation, DEMO_SERIAL_NUMBER, day)));
    for (const entry of entries) await process.gateway.transcript.append(conversation, entry);
  };

  it('sends the day before at the hour in the chatbot zone, its 25 hours whole, once, and nothing before the hour', async () => {
    process = await startHandoffProcess({
      state: stack.store,
      upstream: stack.client,
      config: { handoff: TEST_HANDOFF, smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' } },
      settings: { ...HANDOFF_SETTINGS, TimeZone: ZONE, EmailForDailyLeads: LEADS_TO, EmailForDailyChatLogs: LOGS_TO },
      digests: { hour: 8, checkEveryMs: 60 * 60_000, now: () => now },
    });
    const ana: ConversationRef = process.adapter.conversation('c-ana');
    const user = { id: 'u-ana', name: 'Ana Lima' };
    await seed(
      process,
      ana,
      [
        // 00:30 and 23:30 local on the 25-hour day: both in it; 00:10 the next day: not.
        { at: local('2026-11-01T00:30'), role: 'user', text: 'Homes in Austin? Call +1 512 555 0100', user },
        { at: local('2026-11-01T23:30'), role: 'user', text: 'Still there late at night', user },
        { at: local('2026-11-02T00:10'), role: 'user', text: 'A message of the next day', user },
      ],
      ['2026-11-01', '2026-11-02'],
    );

    now = local('2026-11-02T07:59');
    await process.handoff.digestSchedule.check();
    expect(stack.smtp.mails).toEqual([]);

    now = local('2026-11-02T08:00');
    await process.handoff.digestSchedule.check();
    await process.handoff.digestSchedule.check();
    const logs = await eventually(() => {
      expect(stack.smtp.to(LOGS_TO)).toHaveLength(1);
      return stack.smtp.to(LOGS_TO)[0]!;
    });
    expect(logs.subject).toContain('2026-11-01');
    expect(logs.text).toContain('Homes in Austin?');
    expect(logs.text).toContain('Still there late at night');
    expect(logs.text).not.toContain('A message of the next day');
    const leads = await eventually(() => {
      expect(stack.smtp.to(LEADS_TO)).toHaveLength(1);
      return stack.smtp.to(LEADS_TO)[0]!;
    });
    expect(leads.text).toContain('+15125550100');
  });
});
