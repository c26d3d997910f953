/** A chatbot's day is midnight to midnight in its TimeZone: 23 or 25 hours across a daylight-saving change. */
import { describe, expect, it } from 'vitest';
import {
  dayWindow,
  localHour,
  localTime,
  previousDay,
  resolveZone,
} from '../../../../src/handoff/digests/day-window.js';

const HOUR = 3_600_000;

describe('dayWindow', () => {
  it('is midnight to midnight in the zone', () => {
    const window = dayWindow('2026-11-26', 'America/Chicago');
    expect(window).toEqual({
      day: '2026-11-26',
      zone: 'America/Chicago',
      start: Date.UTC(2026, 10, 26, 6),
      end: Date.UTC(2026, 10, 27, 6),
    });
  });

  it('is 23 hours on the day clocks go forward and 25 on the day they go back (New York)', () => {
    const spring = dayWindow('2026-03-08', 'America/New_York');
    expect(spring.start).toBe(Date.UTC(2026, 2, 8, 5));
    expect(spring.end - spring.start).toBe(23 * HOUR);
    const autumn = dayWindow('2026-11-01', 'America/New_York');
    expect(autumn.start).toBe(Date.UTC(2026, 10, 1, 4));
    expect(autumn.end - autumn.start).toBe(25 * HOUR);
    expect(dayWindow('2026-11-02', 'America/New_York').end - dayWindow('2026-11-02', 'America/New_York').start).toBe(
      24 * HOUR,
    );
  });

  it('is 23 and 25 hours on Berlin’s changes too, and the next day starts where one ends', () => {
    const spring = dayWindow('2026-03-29', 'Europe/Berlin');
    expect(spring.start).toBe(Date.UTC(2026, 2, 28, 23));
    expect(spring.end - spring.start).toBe(23 * HOUR);
    const autumn = dayWindow('2026-10-25', 'Europe/Berlin');
    expect(autumn.end - autumn.start).toBe(25 * HOUR);
    expect(dayWindow('2026-10-26', 'Europe/Berlin').start).toBe(autumn.end);
  });

  it('starts at the first moment of the day where the change skips midnight (Santiago: 00:00 becomes 01:00)', () => {
    const day = dayWindow('2026-09-06', 'America/Santiago');
    expect(day.start).toBe(dayWindow('2026-09-05', 'America/Santiago').end);
    expect(day.start).toBe(Date.UTC(2026, 8, 6, 4));
    expect(day.end - day.start).toBe(23 * HOUR);
  });

  it('is in UTC when the zone is unset or unknown', () => {
    expect(dayWindow('2026-11-26', undefined)).toEqual({
      day: '2026-11-26',
      zone: 'UTC',
      start: Date.UTC(2026, 10, 26),
      end: Date.UTC(2026, 10, 27),
    });
    expect(dayWindow('2026-11-26', 'Mars/Olympus_Mons').zone).toBe('UTC');
    expect(resolveZone('  ')).toBe('UTC');
  });

  it('is today in the zone when no day is given', () => {
    // 03:00 UTC on the 27th is still the 26th in Chicago.
    const now = Date.UTC(2026, 10, 27, 3);
    expect(dayWindow(undefined, 'America/Chicago', now).day).toBe('2026-11-26');
    expect(dayWindow(undefined, 'Europe/Berlin', now).day).toBe('2026-11-27');
  });

  it('refuses what is not a calendar date as YYYY-MM-DD, naming it', () => {
    expect(() => dayWindow('26.11.2026', 'UTC')).toThrow(/"26\.11\.2026" is not a day.*YYYY-MM-DD/);
    expect(() => dayWindow('2026-02-30', 'UTC')).toThrow(/"2026-02-30"/);
    expect(() => dayWindow('2026-1-5', 'UTC')).toThrow(/"2026-1-5"/);
  });
});

describe('previousDay', () => {
  it('is yesterday in the zone', () => {
    const now = Date.UTC(2026, 10, 27, 3);
    expect(previousDay('America/Chicago', now).day).toBe('2026-11-25');
    expect(previousDay('Europe/Berlin', now).day).toBe('2026-11-26');
  });

  it('is the whole 25-hour day when yesterday was the change', () => {
    const window = previousDay('America/New_York', Date.UTC(2026, 10, 2, 13));
    expect(window.day).toBe('2026-11-01');
    expect(window.end - window.start).toBe(25 * HOUR);
  });
});

describe('localHour and localTime', () => {
  it('read the clock in the zone, before and after a change', () => {
    expect(localHour(Date.UTC(2026, 2, 8, 6, 30), 'America/New_York')).toBe(1);
    // An hour later the clocks have gone forward: 03:30, not 02:30.
    expect(localHour(Date.UTC(2026, 2, 8, 7, 30), 'America/New_York')).toBe(3);
    expect(localHour(Date.UTC(2026, 2, 8, 7, 30), undefined)).toBe(7);
    expect(localTime(Date.UTC(2026, 10, 26, 15, 4, 5), 'Europe/Berlin')).toBe('16:04:05');
  });
});
