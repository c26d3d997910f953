/**
 * The operators' audit log: every change to an account and every sign-in, newest last, in one capped list of the
 * state store (operatorKeys.audit). An admin reads it (`chatbridge operators audit`, the inbox's Operators page). It
 * holds addresses and e-mail addresses, never a token, a link or a session id.
 */
import type { StateStore } from '../../state/index.js';
import { operatorKeys } from '../keys.js';

/** Entries kept: a year of a busy team's sign-ins is a few thousand. */
export const AUDIT_MAX_ENTRIES = 10_000;

export type AuditAction =
  | 'operator-added'
  | 'operator-changed'
  | 'operator-removed'
  | 'sign-in-link-sent'
  | 'sign-in-link-unknown-address'
  | 'sign-in-link-refused'
  | 'signed-in'
  | 'sign-in-refused'
  | 'signed-out'
  | 'session-ended';

export interface AuditEntry {
  at: number;
  action: AuditAction;
  /** Who did it: an account's e-mail, "the admin token", or the person signing in. */
  actor: string;
  /** The account acted on (its e-mail), where it is not the actor. */
  target?: string;
  /** What changed or how: "role operator → admin", "by e-mail link", "removed". */
  detail?: string;
  /** The client's address (as the sign-in limit counts it), for sign-ins and the inbox's changes. */
  address?: string;
}

export class AuditLog {
  constructor(private readonly state: StateStore) {}

  async record(entry: Omit<AuditEntry, 'at'>, now = Date.now()): Promise<void> {
    await this.state.listPush(operatorKeys.audit, [JSON.stringify({ at: now, ...entry })], {
      maxLength: AUDIT_MAX_ENTRIES,
    });
  }

  /** The newest `limit` entries, newest first. */
  async newest(limit: number): Promise<AuditEntry[]> {
    const raw = await this.state.listRange(operatorKeys.audit, -Math.max(1, limit), -1);
    return raw.flatMap((line) => decode(line) ?? []).reverse();
  }
}

function decode(line: string): AuditEntry | null {
  try {
    const entry = JSON.parse(line) as Partial<AuditEntry>;
    return typeof entry.at === 'number' && typeof entry.action === 'string' && typeof entry.actor === 'string'
      ? (entry as AuditEntry)
      : null;
  } catch {
    return null;
  }
}
