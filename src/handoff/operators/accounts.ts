/**
 * The operator accounts in the state store: one hash, every replica reads the same, a change is effective at the next
 * request anywhere. Each write is a compare-and-set on the account's field, so two admins changing one operator at once
 * cannot lose either change silently: the second is told to look again.
 */
import type { StateStore } from '../../state/index.js';
import { operatorKeys } from '../keys.js';
import { decodeAccount, encodeAccount, normalEmail, type OperatorAccount } from './account.js';

/** A person on an operators' platform, as a door reports them (contract OperatorIdentity). */
export interface DoorPerson {
  /** The door's platform: "slack", "telegram". */
  platform: string;
  id: string;
  email?: string;
}

export type AccountWrite = { ok: true; account: OperatorAccount } | { ok: false; current: OperatorAccount | null };

export class OperatorAccounts {
  constructor(private readonly state: StateStore) {}

  /** Every account, by display name. */
  async list(): Promise<OperatorAccount[]> {
    const all = await this.state.hashGetAll(operatorKeys.accounts);
    return Object.values(all)
      .flatMap((raw) => decodeAccount(raw) ?? [])
      .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  }

  async byEmail(raw: string): Promise<OperatorAccount | null> {
    const email = normalEmail(raw);
    if (!email) return null;
    const stored = await this.state.hashGet(operatorKeys.accounts, email);
    return stored === null ? null : decodeAccount(stored);
  }

  /**
   * The account of a person on an operators' platform: a Slack user by their profile's e-mail, a Telegram user by an
   * id an account lists. Null for a person no account names.
   */
  async ofDoorPerson(person: DoorPerson): Promise<OperatorAccount | null> {
    if (person.email) {
      const byEmail = await this.byEmail(person.email);
      if (byEmail) return byEmail;
    }
    if (person.platform !== 'telegram') return null;
    return (await this.list()).find((account) => account.telegramIds.includes(person.id)) ?? null;
  }

  /** Writes `next` where the store still holds `expected` (null: no account of that address yet). */
  async write(expected: OperatorAccount | null, next: OperatorAccount): Promise<AccountWrite> {
    const result = await this.state.hashCompareAndRun(
      operatorKeys.accounts,
      { [next.email]: expected ? encodeAccount(expected) : null },
      [{ op: 'hashSet', key: operatorKeys.accounts, fields: { [next.email]: encodeAccount(next) } }],
    );
    return result.applied ? { ok: true, account: next } : { ok: false, current: currentOf(result.current, next.email) };
  }

  /** Removes `expected` where the store still holds it as it was read. */
  async remove(expected: OperatorAccount): Promise<AccountWrite> {
    const result = await this.state.hashCompareAndRun(
      operatorKeys.accounts,
      { [expected.email]: encodeAccount(expected) },
      [{ op: 'hashDel', key: operatorKeys.accounts, field: expected.email }],
    );
    return result.applied
      ? { ok: true, account: expected }
      : { ok: false, current: currentOf(result.current, expected.email) };
  }
}

function currentOf(hash: Readonly<Record<string, string>>, email: string): OperatorAccount | null {
  const raw = hash[email];
  return raw === undefined ? null : decodeAccount(raw);
}
