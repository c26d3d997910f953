/**
 * What an admin does with operator accounts, written once for every door (the admin API the CLI calls, the inbox's
 * Operators page): add, change, remove, list their sessions and end one, read the audit log. Every change is written
 * to the audit log; a change that takes something away (removal, a new role, other chatbots) ends the operator's
 * sessions and their pages' live streams on every replica, and bumps the account's epoch so that a session a replica
 * is still reading is refused too.
 */
import type { Logger } from '../../logger.js';
import {
  inputProblem,
  newAccountId,
  normalEmail,
  OPERATOR_NAME_MAX,
  type OperatorAccount,
  type OperatorInput,
} from './account.js';
import type { OperatorAccounts } from './accounts.js';
import type { AuditEntry, AuditLog } from './audit-log.js';

/** One signed-in session of an account, as an admin sees it. */
export interface AccountSessionInfo {
  /** The session id's digest (what the store keeps): names it to end it, opens nothing. */
  id: string;
  /** The browser and system, from its User-Agent ("Chrome on Linux"). */
  device: string;
  /** The client's address as the sign-in limit counts it. */
  address: string;
  signedInAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** The inbox's side: an account's sessions (src/handoff/inbox/account-sessions.ts). */
export interface AccountSessionsPort {
  list(accountId: string): Promise<AccountSessionInfo[]>;
  /** Ends one session (gone from the store, its streams ended everywhere); false when it was not theirs or is gone. */
  end(accountId: string, sessionId: string): Promise<boolean>;
  /** Ends every session of the account; how many there were. */
  endAll(accountId: string): Promise<number>;
}

/** Who asks, for the audit log. */
export interface Actor {
  /** An account's e-mail, or "the admin token". */
  name: string;
  address?: string;
}

export type RosterOutcome =
  | { ok: true; account: OperatorAccount; endedSessions: number }
  | { ok: false; status: 400 | 404 | 409; message: string };

export interface OperatorRosterOptions {
  accounts: OperatorAccounts;
  audit: AuditLog;
  /** None when the inbox is off: there are no sessions to end. */
  sessions?: AccountSessionsPort;
  /** The configured bots' ids: an operator's chatbots are some of them. */
  bots: readonly string[];
  logger: Logger;
}

export class OperatorRoster {
  constructor(private readonly options: OperatorRosterOptions) {}

  list(): Promise<OperatorAccount[]> {
    return this.options.accounts.list();
  }

  async add(input: OperatorInput, by: Actor, now = Date.now()): Promise<RosterOutcome> {
    const problem = inputProblem(input, this.options.bots);
    const email = normalEmail(input.email);
    if (problem || !email) return { ok: false, status: 400, message: problem ?? 'An e-mail address is needed.' };
    const role = input.role ?? 'operator';
    const account: OperatorAccount = {
      id: newAccountId(),
      email,
      name: input.name?.trim() || defaultName(email),
      role,
      bots: role === 'admin' ? 'all' : (input.bots ?? 'all'),
      telegramIds: [...(input.telegramIds ?? [])],
      createdAt: now,
      epoch: 1,
    };
    const written = await this.options.accounts.write(null, account);
    if (!written.ok)
      return { ok: false, status: 409, message: `${email} is an operator already: change them, or remove them first.` };
    await this.record({ action: 'operator-added', target: email, detail: describe(account) }, by);
    return { ok: true, account, endedSessions: 0 };
  }

  /** Changes the fields `patch` gives (the address stays: it is who they are). */
  async change(email: string, patch: Omit<OperatorInput, 'email'>, by: Actor): Promise<RosterOutcome> {
    const problem = inputProblem(patch, this.options.bots);
    if (problem) return { ok: false, status: 400, message: problem };
    const current = await this.options.accounts.byEmail(email);
    if (!current) return notFound(email);
    const role = patch.role ?? current.role;
    const bots = role === 'admin' ? 'all' : (patch.bots ?? current.bots);
    const narrows = role !== current.role || !sameBots(bots, current.bots);
    const next: OperatorAccount = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
      ...(patch.telegramIds !== undefined ? { telegramIds: [...patch.telegramIds] } : {}),
      role,
      bots,
      epoch: narrows ? current.epoch + 1 : current.epoch,
    };
    const written = await this.options.accounts.write(current, next);
    if (!written.ok) return changedMeanwhile(email);
    const endedSessions = narrows ? await this.endAll(next) : 0;
    await this.record({ action: 'operator-changed', target: next.email, detail: changes(current, next) }, by);
    return { ok: true, account: next, endedSessions };
  }

  async remove(email: string, by: Actor): Promise<RosterOutcome> {
    const current = await this.options.accounts.byEmail(email);
    if (!current) return notFound(email);
    const removed = await this.options.accounts.remove(current);
    if (!removed.ok) return changedMeanwhile(email);
    const endedSessions = await this.endAll(current);
    await this.record({ action: 'operator-removed', target: current.email, detail: describe(current) }, by);
    return { ok: true, account: current, endedSessions };
  }

  /** The sessions of an account already read (a list's rows: no second read of each account). */
  async sessionsOf(account: OperatorAccount): Promise<AccountSessionInfo[]> {
    return (await this.options.sessions?.list(account.id)) ?? [];
  }

  /** The account's sessions, or null for an address that is no operator. */
  async sessions(email: string): Promise<{ account: OperatorAccount; sessions: AccountSessionInfo[] } | null> {
    const account = await this.options.accounts.byEmail(email);
    if (!account) return null;
    return { account, sessions: await this.sessionsOf(account) };
  }

  async endSession(email: string, sessionId: string, by: Actor): Promise<RosterOutcome> {
    const account = await this.options.accounts.byEmail(email);
    if (!account) return notFound(email);
    const ended = (await this.options.sessions?.end(account.id, sessionId)) ?? false;
    if (!ended)
      return { ok: false, status: 404, message: `${account.email} has no session ${sessionId} (it ended already).` };
    await this.record({ action: 'session-ended', target: account.email, detail: 'by an admin' }, by);
    return { ok: true, account, endedSessions: 1 };
  }

  audit(limit: number): Promise<AuditEntry[]> {
    return this.options.audit.newest(limit);
  }

  private async endAll(account: OperatorAccount): Promise<number> {
    const ended = (await this.options.sessions?.endAll(account.id)) ?? 0;
    if (ended > 0) this.options.logger.info({ account: account.id, ended }, "an operator's sessions were ended");
    return ended;
  }

  private record(entry: Omit<AuditEntry, 'at' | 'actor' | 'address'>, by: Actor): Promise<void> {
    return this.options.audit.record({ ...entry, actor: by.name, ...(by.address ? { address: by.address } : {}) });
  }
}

/** "ana.lima@example.com" → "ana.lima": a name to start with, which they or an admin change. */
function defaultName(email: string): string {
  return email.slice(0, email.indexOf('@')).slice(0, OPERATOR_NAME_MAX);
}

function sameBots(a: OperatorAccount['bots'], b: OperatorAccount['bots']): boolean {
  if (a === 'all' || b === 'all') return a === b;
  return a.length === b.length && a.every((bot) => b.includes(bot));
}

function describe(account: OperatorAccount): string {
  const bots = account.bots === 'all' ? 'every chatbot' : `bots ${account.bots.join(', ')}`;
  return `${account.name}, ${account.role}, ${bots}`;
}

function changes(before: OperatorAccount, after: OperatorAccount): string {
  const said: string[] = [];
  if (before.name !== after.name) said.push(`name ${before.name} → ${after.name}`);
  if (before.role !== after.role) said.push(`role ${before.role} → ${after.role}`);
  if (!sameBots(before.bots, after.bots)) said.push(`chatbots ${botsText(before.bots)} → ${botsText(after.bots)}`);
  if (before.telegramIds.join() !== after.telegramIds.join())
    said.push(`Telegram ids ${after.telegramIds.join(', ') || 'none'}`);
  return said.join('; ') || 'nothing';
}

function botsText(bots: OperatorAccount['bots']): string {
  return bots === 'all' ? 'all' : bots.join(', ');
}

function notFound(email: string): RosterOutcome {
  return { ok: false, status: 404, message: `No operator ${email}; \`chatbridge operators list\` shows them.` };
}

function changedMeanwhile(email: string): RosterOutcome {
  return { ok: false, status: 409, message: `${email} was changed by someone else meanwhile: look again and retry.` };
}
