/**
 * What a transcript holds: one entry per thing said (by the user, the bot, an operator, the gateway), as every reader
 * of it sees it (the handoff's e-mails, the inbox, the day's logs). Apart from the store so that its packing
 * (transcript-pack.ts) and its readers share the shape without importing the store.
 */
import type { AttachmentKind, PlatformUser } from '../../contract.js';

export type TranscriptRole = 'user' | 'bot' | 'operator' | 'system';

/** A moment of a handoff, kept in the transcript (role 'system') so every operator reads the same story. */
export type TranscriptEvent = 'handed-over' | 'claimed' | 'handed-back';

/**
 * A file the user sent, as the transcript keeps it: what it is, and the adapter's durable `ref`
 * (InboundAttachment.ref), from which any process serving the bot fetches the bytes again. Never
 * a platform URL: those can carry the bot's token.
 */
export interface TranscriptFile {
  kind: AttachmentKind;
  mimeType?: string;
  fileName?: string;
  size?: number;
  /** Absent when the platform gives no durable reference (WhatsApp Web: the file lives in one browser). */
  ref?: string;
}

export interface TranscriptEntry {
  /** ms since epoch. */
  at: number;
  role: TranscriptRole;
  /** What was said: the user's text, or the Markdown the bot answered. */
  text: string;
  /** One description per attachment, e.g. "photo (image/jpeg, 120 KB)". */
  attachments?: string[];
  /** Who wrote it (user entries). */
  user?: PlatformUser;
  /** The files of a user entry, in the order of `attachments` (which stay: the e-mail and the CLI read those). */
  files?: TranscriptFile[];
  /** The operator's display name at that moment (operator entries, and the events an operator caused). */
  operator?: string;
  /**
   * The operator's account id (`op_…`) with `operator`, when they have an account: the inbox shows the account's name
   * as it is now. Absent for the admin token, a handoff e-mail's link, door people no account names, and older entries.
   */
  account?: string;
  /** A system entry that marks a moment of the handoff. */
  event?: TranscriptEvent;
  /**
   * Where an operator wrote it (operator entries): an operator door's platform ("slack",
   * "telegram"); absent for the inbox and the admin API. A door never echoes its own.
   */
  via?: string;
  /** An operator's private note: kept for the other operators, never sent to the user. */
  note?: true;
}
