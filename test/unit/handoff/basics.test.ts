import { describe, expect, it } from 'vitest';
/** The handoff's shared leaves: conversation ids and the outbox policy's numbers. */
import { formatConversationId, parseConversationId, retryDelayMs } from '../../../src/handoff/index.js';

describe('conversation ids', () => {
  it('split at the first two colons only', () => {
    expect(parseConversationId('main:slack:C123:1712.5')).toEqual({
      bot: 'main',
      platform: 'slack',
      id: 'C123:1712.5',
    });
    expect(formatConversationId({ bot: 'main', platform: 'slack', id: 'C123:1712.5' })).toBe('main:slack:C123:1712.5');
  });

  it('refuse anything without three parts', () => {
    for (const bad of ['', 'main', 'main:telegram', 'main:telegram:', ':telegram:1', 'main::1'])
      expect(parseConversationId(bad)).toBeNull();
  });
});

describe('outbox retry delays', () => {
  it('double from the base and stop at the cap', () => {
    const policy = { retryBaseMs: 1_000, retryCapMs: 10_000 };
    expect([1, 2, 3, 4, 5, 50].map((failures) => retryDelayMs(failures, policy))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });
});
