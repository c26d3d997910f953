/**
 * The core's stores: what the gateway keeps about a conversation or a chatbot in the state (a
 * conversation's transcript, its Chatbot Service session, the copy of a chatbot's settings, the
 * month's count of answers). The turn writes them, and the intake, the handoff's e-mails and the
 * inbox read them too, so they sit below every stage: they import src/state and the core's
 * shared files only.
 */
export { ChatbotSettingsMirror, type SettingsSource } from './chatbot-settings.js';
export { MONTH_TALLY_FLUSH_MS, MONTHLY_COUNTER_TTL_MS, MonthTally } from './month-tally.js';
export { SessionMap } from './session-map.js';
export { packEntries } from './transcript-pack.js';
export {
  describeAttachment,
  transcriptFile,
  TranscriptStore,
  type TranscriptEntry,
  type TranscriptFile,
  type TranscriptRole,
} from './transcript.js';
