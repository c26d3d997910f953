/**
 * An operator account added to a running `chatbridge start` process's state (under its key prefix), through the roster
 * every door manages accounts with: the end-to-end tests' way to make a person of an operators' platform an account.
 */
import {
  AuditLog,
  OperatorAccounts,
  OperatorRoster,
  type OperatorAccount,
  type OperatorInput,
} from '../../src/handoff/operators/index.js';
import { silentLogger } from '../../src/logger.js';
import { RedisStateStore } from '../../src/state/index.js';
import { testRedisUrl } from './redis.js';

export async function addOperatorAccount(
  prefix: string,
  input: OperatorInput,
  bots: readonly string[] = ['main'],
): Promise<OperatorAccount> {
  const state = new RedisStateStore({ url: testRedisUrl(), prefix });
  try {
    const roster = new OperatorRoster({
      accounts: new OperatorAccounts(state),
      audit: new AuditLog(state),
      bots,
      logger: silentLogger(),
    });
    const added = await roster.add(input, { name: 'the test' });
    if (!added.ok) throw new Error(added.message);
    return added.account;
  } finally {
    await state.close();
  }
}
