/**
 * Days of a chatbot: midnight to midnight in its TimeZone (UTC when unset or unknown to the
 * zone database), so 23 or 25 hours long across a daylight-saving change. Luxon does the zones.
 */
import { DateTime, IANAZone } from 'luxon';
import type { DayWindow } from './types.js';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The zone a chatbot's days are in: its TimeZone when the zone database knows it, else UTC. */
export function resolveZone(zone: string | undefined): string {
  const trimmed = zone?.trim();
  return trimmed && IANAZone.isValidZone(trimmed) ? IANAZone.create(trimmed).name : 'UTC';
}

/**
 * The day `day` (`YYYY-MM-DD`; today in the zone when unset) in `zone`. Throws when `day` is not a
 * calendar date of that form.
 */
export function dayWindow(day: string | undefined, zone: string | undefined, now = Date.now()): DayWindow {
  const name = resolveZone(zone);
  const date = day ?? DateTime.fromMillis(now, { zone: name }).toISODate();
  const start = DAY_PATTERN.test(date ?? '') ? DateTime.fromISO(date ?? '', { zone: name }).startOf('day') : null;
  if (!start?.isValid) {
    throw new Error(`dayWindow: "${String(day)}" is not a day; give a calendar date as YYYY-MM-DD (e.g. 2026-03-08)`);
  }
  // The next day's start, not start + 24 h: a day across a daylight-saving change is 23 or 25 hours long.
  const end = start.plus({ days: 1 }).startOf('day');
  return { day: start.toISODate() ?? date ?? '', zone: name, start: start.toMillis(), end: end.toMillis() };
}

/** Yesterday in `zone` as of `now`: the day a digest sent today reports. */
export function previousDay(zone: string | undefined, now = Date.now()): DayWindow {
  const name = resolveZone(zone);
  const yesterday = DateTime.fromMillis(now, { zone: name }).minus({ days: 1 }).toISODate();
  return dayWindow(yesterday ?? undefined, name, now);
}

/** The hour of the day (0–23) in `zone` at `now`: the scheduler sends at `digests.hour` of it. */
export function localHour(now: number, zone: string | undefined): number {
  return DateTime.fromMillis(now, { zone: resolveZone(zone) }).hour;
}

/**
 * A clock for `zone`: `at` → "14:05:09", its time of day there (as the mails show an entry). One
 * formatter for all of a day's entries: building a zoned date per entry costs some 70 µs, this 1.
 */
export function timeOfDay(zone: string | undefined): (at: number) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: resolveZone(zone),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (at) => format.format(at);
}

/** "14:05:09", the time of day of `at` in `zone`. */
export function localTime(at: number, zone: string | undefined): string {
  return timeOfDay(zone)(at);
}
