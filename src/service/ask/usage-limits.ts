import type { StateStore } from '../../state/types.js';
import { ServiceError } from '../envelope.js';
import type { ChatbotRecord } from '../repos/chatbots.js';
import { svcKeys } from '../state-keys.js';

/** Monthly counters outlive their month a little, so a late read never sees a reset by accident. */
const MONTH_COUNTER_TTL_MS = 62 * 24 * 60 * 60 * 1000;

export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * RateLimitCount messages per RateLimitTime seconds, per session (a fixed
 * window that starts with the window's first message). Off when either is 0.
 */
export async function checkRateLimit(state: StateStore, chatbot: ChatbotRecord, sessionId: number): Promise<void> {
  const { RateLimitCount: count, RateLimitTime: seconds, RateLimitMessage: message } = chatbot.settings;
  if (count <= 0 || seconds <= 0) return;
  const key = svcKeys.rateWindow(sessionId);
  const used = await state.incr(key, 1, seconds * 1000);
  if (used <= count) return;
  const retryAfter = Math.max(1, Math.ceil((await state.ttlMs(key)) / 1000));
  throw new ServiceError(
    429,
    message.trim() ||
      `Too many messages: this chat allows ${count} messages every ${seconds} seconds. Please wait ${retryAfter} seconds and try again.`,
    { 'Retry-After': String(retryAfter) },
  );
}

/** A reserved monthly message; give it back when the answer could not be produced. */
export interface MonthlyReservation {
  release(): Promise<void>;
}

const NOTHING_RESERVED: MonthlyReservation = { release: async () => undefined };

/** MessageLimit per chatbot per calendar month (UTC); -1 means unlimited. */
export async function reserveMonthlyMessage(state: StateStore, chatbot: ChatbotRecord): Promise<MonthlyReservation> {
  const limit = chatbot.settings.MessageLimit;
  if (limit < 0) return NOTHING_RESERVED;
  const key = svcKeys.monthlyUsage(chatbot.serialNumber, currentMonth());
  const used = await state.incr(key, 1, MONTH_COUNTER_TTL_MS);
  if (used > limit) {
    await state.incr(key, -1);
    throw new ServiceError(
      429,
      `This chatbot has used its ${limit} messages for this month; it can answer again on the 1st of next month (UTC), or its owner can raise MessageLimit.`,
    );
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await state.incr(key, -1);
    },
  };
}
