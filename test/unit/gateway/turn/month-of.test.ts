/**
 * The month a message counts in (src/gateway/turn/allowance-step.ts monthOf): the chatbot's
 * TimeZone decides, and the answer for a zone is kept for the minute it was asked in.
 */
import { describe, expect, it } from 'vitest';
import { monthOf } from '../../../../src/gateway/turn/allowance-step.js';

describe('the month a message counts in', () => {
  it("turns at the zone's midnight, not UTC's, and the minute after a month's last is the next month", () => {
    expect(monthOf(new Date('2026-03-31T23:59:59Z'), 'UTC')).toBe('2026-03');
    expect(monthOf(new Date('2026-04-01T00:00:00Z'), 'UTC')).toBe('2026-04');
    // São Paulo is UTC-3: its April starts three hours later.
    expect(monthOf(new Date('2026-04-01T02:59:59Z'), 'America/Sao_Paulo')).toBe('2026-03');
    expect(monthOf(new Date('2026-04-01T03:00:00Z'), 'America/Sao_Paulo')).toBe('2026-04');
    // Kathmandu is UTC+5:45: a month begins at a whole minute everywhere.
    expect(monthOf(new Date('2026-04-30T18:14:59Z'), 'Asia/Kathmandu')).toBe('2026-04');
    expect(monthOf(new Date('2026-04-30T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-05');
  });

  it('counts in UTC when the chatbot has no TimeZone or one the runtime does not know', () => {
    expect(monthOf(new Date('2026-06-30T23:30:00Z'), undefined)).toBe('2026-06');
    expect(monthOf(new Date('2026-06-30T23:30:00Z'), 'Mars/Olympus_Mons')).toBe('2026-06');
  });
});
