/**
 * What `chatbridge operators list` and `sessions` print when there is nothing (the process test covers the rest):
 * the way to the first admin, and an operator signed in nowhere.
 */
import { describe, expect, it } from 'vitest';
import { describeOperators, describeSessions } from '../../../src/cli/operator-commands.js';

const ana = {
  id: 'op_abcdefghijkl',
  email: 'ana@example.com',
  name: 'Ana Lima',
  role: 'operator' as const,
  bots: ['main'],
  telegramIds: [],
  createdAt: 0,
};

describe('chatbridge operators, printed', () => {
  it('says how to add the first admin when there is no account', () => {
    expect(describeOperators([])).toBe(
      'No operator accounts yet: `chatbridge operators add you@example.com --role admin` adds the first admin.\n',
    );
  });

  it('says an operator with no session is signed in nowhere, and lists a session by device, address and times', () => {
    expect(describeSessions(ana, [])).toBe('Ana Lima (ana@example.com) is not signed in anywhere.\n');
    const listed = describeSessions(ana, [
      {
        id: 'digest-1',
        device: 'Chromium on Linux',
        address: '10.0.0.7',
        signedInAt: 0,
        lastSeenAt: 60_000,
        expiresAt: 1,
      },
    ]);
    expect(listed).toContain('digest-1');
    expect(listed).toContain('Chromium on Linux');
    expect(listed).toContain('10.0.0.7');
  });
});
