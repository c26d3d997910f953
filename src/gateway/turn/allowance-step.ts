/**
 * The limits step: the chatbot's per-user rate limit (RateLimitCount messages per
 * RateLimitTime seconds, a fixed window from the user's first message) and its
 * MessageLimit per calendar month. Both counters were taken in the turn's first
 * batch (turn/first-batch.ts); this step checks them where the pipeline puts it, after
 * commands and the handoff, which therefore cost no allowance.
 */
import type { ChatbotSettings } from '../../upstream/api.js';
import type { RateWindow } from './allowance.js';
import type { Step } from './pipeline.js';

export type { RateWindow } from './allowance.js';

/** Off unless both RateLimitCount and RateLimitTime are positive (the service's own rule). */
export function rateWindow(settings: ChatbotSettings): RateWindow | null {
  const count = settings.RateLimitCount ?? 0;
  const seconds = settings.RateLimitTime ?? 0;
  return count > 0 && seconds > 0 ? { count, windowMs: seconds * 1000 } : null;
}

/** MessageLimit: -1 (the default) or absent means unlimited; 0 means no messages at all. */
export function monthlyLimit(settings: ChatbotSettings): number | null {
  const limit = settings.MessageLimit;
  return typeof limit === 'number' && limit >= 0 ? limit : null;
}

/** "2026-03" in the chatbot's TimeZone (UTC when it has none or an unknown one). */
/** Building a DateTimeFormat costs ~100 µs, about 30× formatting with one: keep one per time zone. */
const monthFormats = new Map<string, Intl.DateTimeFormat>();

function monthFormat(timeZone: string): Intl.DateTimeFormat {
  let format = monthFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' });
    monthFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The month of each time zone in the current minute, formatted once a minute rather than once per
 * answer (formatting a date in a time zone is costly). Exact: every zone's offset is a whole number
 * of minutes, so a month begins on a minute's start.
 */
const monthThisMinute = new Map<string, { minute: number; month: string }>();

export function monthOf(now: Date, timeZone: string | undefined): string {
  const zone = timeZone || 'UTC';
  const minute = Math.floor(now.getTime() / 60_000);
  const cached = monthThisMinute.get(zone);
  if (cached?.minute === minute) return cached.month;
  const month = formatMonth(now, zone);
  monthThisMinute.set(zone, { minute, month });
  return month;
}

function formatMonth(now: Date, timeZone: string): string {
  try {
    const parts = monthFormat(timeZone).formatToParts(now);
    const year = parts.find((part) => part.type === 'year')?.value;
    const month = parts.find((part) => part.type === 'month')?.value;
    if (year && month) return `${year}-${month}`;
  } catch {
    // an unknown zone name: fall back to UTC
  }
  return now.toISOString().slice(0, 7);
}

export function limitsStep(): Step {
  return async (ctx, next) => {
    const reservation = ctx.prefetched.reservation;
    if (!reservation)
      throw new Error(
        "the limits step runs after the turn's first batch (turn/first-batch.ts), which reserves the allowance it checks",
      );
    reservation.checked = true;
    const settings = await ctx.settings();
    const { monthlyKey, rate, cap } = reservation;
    let cutOff = false;
    try {
      if (rate && reservation.used > rate.count) {
        ctx.logger.info({ user: ctx.inbound.user.id, used: reservation.used, limit: rate.count }, 'rate limit reached');
        return await ctx.reply(settings.RateLimitMessage?.trim() || (await ctx.texts()).rateLimitedDefault);
      }
      if (cap !== null && reservation.reserved > cap) {
        ctx.logger.warn({ serialNumber: ctx.bot.serialNumber, limit: cap }, 'monthly MessageLimit reached');
        return await ctx.reply((await ctx.texts()).monthlyLimit);
      }
      await next();
    } catch (error) {
      cutOff = ctx.signal.aborted;
      throw error;
    } finally {
      // Only answered messages use up the month's allowance (a refused or failed one costs nothing).
      // A turn cut off (stop, lost lock) drops its later() writes and is answered again in full,
      // reserving again: its reservation is given back now. With no cap nothing was reserved: an
      // answer is counted with the others, once a second (month-tally.ts).
      if (cap === null) {
        if (ctx.answered && !cutOff) ctx.services.monthTally.add(monthlyKey);
      } else if (cutOff) {
        await ctx.services.state
          .incr(monthlyKey, -1)
          .catch((error: unknown) =>
            ctx.logger.warn({ err: error }, 'could not give back the MessageLimit reservation of a cut-off turn'),
          );
      } else if (!ctx.answered) {
        ctx.later({ op: 'incr', key: monthlyKey, by: -1 });
      }
    }
  };
}
