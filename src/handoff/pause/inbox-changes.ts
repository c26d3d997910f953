/** What the inbox's live updates carry: a change to one conversation of the inbox, and who may see it. */
import type { ConversationRef } from '../../contract.js';

export type InboxChangeKind = 'handed-over' | 'user-message' | 'operator-message' | 'claimed' | 'handed-back';

export const INBOX_CHANGE_KINDS: ReadonlySet<InboxChangeKind> = new Set([
  'handed-over',
  'user-message',
  'operator-message',
  'claimed',
  'handed-back',
]);

export interface InboxChange {
  /** formatConversationId: `<bot>:<platform>:<id>`. */
  conversation: string;
  bot: string;
  kind: InboxChangeKind;
  /** When it was published (ms since the epoch, the publishing process's clock). */
  at: number;
}

export interface InboxFeed {
  /** Tells every gateway process sharing the Redis (and this one). Never throws: a failed publish is logged. */
  publish(change: { conversation: ConversationRef; kind: InboxChangeKind }): Promise<void>;
  /** Changes from every process, this one included; returns the unsubscribe. */
  subscribe(listener: (change: InboxChange) => void): () => void;
  close(): Promise<void>;
}

/** The viewer a session allows: all bots, or the bots an e-mail link signed the reader in for. */
export interface InboxViewer {
  bots: 'all' | readonly string[];
}
