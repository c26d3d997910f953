/**
 * The day's digests of a chatbot (issue 29): the chat logs (every conversation of the day) and the
 * leads (the people who showed interest), mailed once a day to EmailForDailyChatLogs and
 * EmailForDailyLeads. What the parts of this folder hand each other.
 */
import type { ConversationRef, PlatformUser } from '../../contract.js';
import type { TranscriptEntry } from '../../gateway/index.js';

export type DigestKind = 'logs' | 'leads';

/** One day of a chatbot: midnight to midnight in its TimeZone (UTC when unset or unknown). */
export interface DayWindow {
  /** The local date, `YYYY-MM-DD`. */
  day: string;
  /** The IANA zone the day is in, e.g. `America/Chicago`. */
  zone: string;
  /** Its first millisecond and the first after it (ms since the epoch): 23, 24 or 25 hours apart. */
  start: number;
  end: number;
}

/** A conversation of that day: its entries written within the window, oldest first. */
export interface DayConversation {
  conversation: ConversationRef;
  /** The user as the transcript names them (the newest user entry's `user`). */
  user?: PlatformUser;
  entries: readonly TranscriptEntry[];
}

/** A listing as a lead saw or asked about it. */
export interface ListingFact {
  mls: string;
  address: string;
  city: string;
  /** As the service gives it, with its currency symbol: "$450,000". */
  price: string;
}

/** Why someone counts as a lead that day. */
export type LeadReason = 'listings' | 'person' | 'phone' | 'email' | 'contact';

export interface Lead {
  conversation: ConversationRef;
  user?: PlatformUser;
  /** The user's platform in words ("WhatsApp"). */
  platform: string;
  /** Phone numbers they wrote (E.164 where it could be read so), and a WhatsApp user's own number. */
  phones: string[];
  emails: string[];
  /** Listings they were shown or asked about, each once. */
  listings: ListingFact[];
  /** Cities they asked listings for (`/listings Austin`, "homes in Austin"). */
  cities: string[];
  /** Their last message of the day. */
  lastMessage?: string;
  reasons: LeadReason[];
  /** Their conversation in the inbox (signed, as the handoff e-mail's), when the inbox is on. */
  inboxUrl?: string;
}

/** A digest e-mail, ready for the outbox. */
export interface DigestMail {
  subject: string;
  text: string;
  html: string;
  attachments: DigestAttachment[];
  /** Conversations (logs) or leads left out to stay within the size cap: said in the mail too. */
  omitted: number;
}

export interface DigestAttachment {
  filename: string;
  contentType: string;
  /** Text content (CSV, plain text). */
  content: string;
}

/** What was done with a request to send a digest. */
export type DigestSendOutcome =
  | { queued: true; mailId: string; to: string }
  /** Sent (or queued) already for that chatbot, kind and day: `--again` sends it once more. */
  | { queued: false; reason: 'already-sent'; at: number }
  /** Nothing to report that day: no mail. */
  | { queued: false; reason: 'empty' }
  /** The chatbot's setting holds no e-mail address: `message` names it (EmailForDailyLeads / EmailForDailyChatLogs). */
  | { queued: false; reason: 'no-address'; message: string };

/**
 * The digests as the doors use them (the admin API, the CLI through it, the inbox's Leads page);
 * the scheduler calls `send` for yesterday at `digests.hour` in each chatbot's zone.
 */
export interface Digests {
  /** The day `day` (`YYYY-MM-DD`; default today) of the bot's chatbot, in its TimeZone. */
  window(bot: string, day?: string): Promise<DayWindow>;
  /** The mail as it would be sent (to whom: the setting's address, or null when it holds none). */
  preview(bot: string, kind: DigestKind, day: string): Promise<{ to: string | null; mail: DigestMail | null }>;
  /** Queues the mail in the outbox, once per chatbot, kind and day unless `again`. */
  send(bot: string, kind: DigestKind, day: string, options?: { again?: boolean }): Promise<DigestSendOutcome>;
  /** The day's leads (for the inbox's Leads page). */
  leads(bot: string, day: string): Promise<Lead[]>;
}
