/**
 * The day's digests (issue 29): which conversations each chatbot had each day (day-index.ts, noted by
 * every turn), that day's conversations read in chunks (day-conversations.ts), the leads found in
 * them (lead-finder.ts, contacts.ts), the two mails (logs-mail.ts, leads-mail.ts, leads-csv.ts) in
 * the chatbot's day (day-window.ts), queued once per chatbot, kind and day (service.ts) at the hour
 * (schedule.ts).
 */
export { DayIndex } from './day-index.js';
export {
  DIGEST_MAX_BYTES,
  DIGEST_SETTING,
  DigestService,
  UnknownBotError,
  type DigestServiceOptions,
} from './service.js';
export { DigestSchedule, type DigestSchedulePolicy } from './schedule.js';
export type * from './types.js';
export { leadsCsv, LEADS_CSV_COLUMNS } from './leads-csv.js';
export { badDayMessage, badKindMessage, DIGEST_KINDS, parseDigestDay, parseDigestKind, shiftDay } from './day-param.js';
