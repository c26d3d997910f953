/** A digest's day and kind as every door takes them, and the days either side of one (the Leads page's links). */
import { describe, expect, it } from 'vitest';
import { badDayMessage, parseDigestDay, parseDigestKind, shiftDay } from '../../../../src/handoff/digests/index.js';

describe("a digest's day", () => {
  it('is a real calendar date written YYYY-MM-DD', () => {
    expect(parseDigestDay('2026-11-26')).toBe('2026-11-26');
    expect(parseDigestDay('2028-02-29')).toBe('2028-02-29');
    for (const wrong of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-11-26T00:00',
      '26/11/2026',
      'yesterday',
      '',
      20261126,
      undefined,
      ['2026-11-26'],
    ])
      expect(parseDigestDay(wrong)).toBeNull();
  });

  it('is named with what was given when it is not one', () => {
    expect(badDayMessage('--day', 'yesterday')).toBe(
      '--day must be a date written YYYY-MM-DD, e.g. 2026-11-26 (got "yesterday").',
    );
  });

  it('has a day before and after it, across months, years and a 23-hour day alike', () => {
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    // 2026-03-08 has 23 hours in America/Chicago; its calendar neighbours are the same.
    expect(shiftDay('2026-03-08', 1)).toBe('2026-03-09');
    expect(shiftDay('2026-03-08', -1)).toBe('2026-03-07');
  });
});

describe("a digest's kind", () => {
  it('is logs or leads', () => {
    expect(parseDigestKind('logs')).toBe('logs');
    expect(parseDigestKind('leads')).toBe('leads');
    expect(parseDigestKind('Leads')).toBeNull();
    expect(parseDigestKind(undefined)).toBeNull();
  });
});
