/**
 * A digest's day and kind as the doors take them (the admin API, the CLI, the inbox's Leads page): checked once,
 * here, so that each door refuses the same mistakes with the same words.
 */
import type { DigestKind } from './types.js';

export const DIGEST_KINDS: readonly DigestKind[] = ['logs', 'leads'];

const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60_000;

/** `raw` when it is a real calendar date written `YYYY-MM-DD` (2026-02-30 is not), else null. */
export function parseDigestDay(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const match = DAY_SHAPE.exec(raw);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? raw : null;
}

export function parseDigestKind(raw: unknown): DigestKind | null {
  return DIGEST_KINDS.find((kind) => kind === raw) ?? null;
}

/** What a bad day is, said the same way by every door. */
export function badDayMessage(name: string, raw: unknown): string {
  return `${name} must be a date written YYYY-MM-DD, e.g. 2026-11-26 (got ${JSON.stringify(raw)}).`;
}

export function badKindMessage(name: string, raw: unknown): string {
  return `${name} must be ${DIGEST_KINDS.join(' or ')} (got ${JSON.stringify(raw)}).`;
}

/**
 * The calendar day `days` after `day` (before, when negative): the local dates of a zone follow each other as the
 * calendar's do, whatever their length in hours, so this needs no zone.
 */
export function shiftDay(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date) + days * DAY_MS).toISOString().slice(0, 10);
}
