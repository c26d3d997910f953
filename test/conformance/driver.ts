/**
 * What a platform supplies to run the adapter conformance suite: its adapter
 * (one per gateway instance, all on one platform fake) and the user's side of the
 * fake: type, send a file, press a button, read the screen, and the platform's
 * faults. The suite owns everything else (Redis, the gateway core, the service),
 * so a new platform (Slack, WhatsApp) writes only this.
 */
import type { Adapter } from '../../src/contract.js';

export const SCENARIOS = [
  'welcome',
  'streamed answer',
  'message mid-answer',
  'duplicate delivery',
  'media accepted',
  'media refused',
  'media gone',
  'button pressed',
  '429 on the final',
  'unreachable on the final',
  'crash and takeover',
  'message too long',
] as const;

export type Scenario = (typeof SCENARIOS)[number];

/** A file the user sends (the fixture's bytes, its name and type as the user's app declares them). */
export interface UserFile {
  bytes: Uint8Array;
  fileName: string;
  mimeType: string;
  /** How the user sends it: as a photo, or as a document. */
  as: 'photo' | 'document';
}

export interface ConformanceDriver {
  /**
   * The adapter of gateway instance `instance`: 0 is the process the user's messages reach,
   * 1 a second process serving the same bot on the same platform (crash and takeover).
   * Called once per instance, before that instance starts.
   */
  createAdapter(instance: number): Adapter;

  /** The user writes `text` (resolves once the platform has it; the gateway may not have it yet). */
  userSends(text: string): Promise<void>;
  /** The user sends a file with a caption. */
  userSendsFile(file: UserFile, caption: string): Promise<void>;
  /** The user sends a file with a caption that the platform no longer has when the gateway fetches it (expired, deleted). */
  userSendsGoneFile?(file: UserFile, caption: string): Promise<void>;
  /** The platform delivers one message of the user twice (a redelivered update, a retried event). */
  userSendsTwice?(text: string): Promise<void>;
  /** The labels of the buttons on the newest message that has buttons. */
  buttons(): string[];
  /** The user presses the button with this label on the newest message that has it. */
  pressButton(label: string): Promise<void>;

  /** The messages the user sees now, oldest first, as text. */
  screen(): string[];
  /** Every text the user was shown over time (messages, edits, drafts, stream contents), in order. */
  renders(): string[];

  /** The platform answers the next final (a message that must be delivered) with a 429 and a short retry-after. */
  rateLimitNextFinal?(): Promise<void>;
  /** From now on the platform cannot be reached (connections refused). */
  goUnreachable?(): Promise<void>;
  /** The platform can be reached again. */
  comeBack?(): Promise<void>;

  close(): Promise<void>;
}

/** One platform under test: `describeAdapterConformance(target)` runs every scenario against it. */
export interface ConformanceTarget {
  /** For the suite's titles, e.g. "telegram". */
  readonly platform: string;
  /**
   * Scenarios this platform cannot have, each with the reason: reported as skipped with it,
   * never passed silently. A scenario not listed here must be supported by the driver.
   */
  readonly notApplicable?: Partial<Record<Scenario, string>>;
  /** Builds a fresh driver (and its platform fake) for each scenario. */
  createDriver(): Promise<ConformanceDriver>;
}
