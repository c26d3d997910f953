import { describe, expect, it } from 'vitest';
import { plainMarkup, type Adapter, type AdapterStatus } from '../../../src/contract.js';
import { readinessCheck, unconnectedAdapters } from '../../../src/runtime/readiness.js';
import { MemoryStateStore } from '../../../src/state/index.js';

function adapterWith(platform: string, status?: AdapterStatus): Adapter {
  return {
    platform,
    bot: 'main',
    redeliversOnAcceptFailure: false,
    capabilities: {
      maxMessageLength: 4096,
      markup: plainMarkup,
      editIntervalMs: { private: 0, group: 0 },
      typingLifetimeMs: 0,
      buttons: false,
      maxFilesPerMessage: 1,
      maxDownloadBytes: 1,
    },
    outbound: { send: async () => ({ id: '1' }) },
    start: async () => undefined,
    stop: async () => undefined,
    ...(status ? { status: () => status } : {}),
  };
}

describe('readiness (/readyz) and the adapters', () => {
  it('is not ready while an adapter fails to connect, and says which and why', async () => {
    const adapters = [
      adapterWith('telegram', { connected: false, reason: 'Bot API unreachable' }),
      adapterWith('console'),
    ];
    expect(unconnectedAdapters(adapters)).toEqual(['telegram:main not connected: Bot API unreachable']);
    await expect(readinessCheck(new MemoryStateStore(), adapters)()).rejects.toThrow(
      'telegram:main not connected: Bot API unreachable',
    );
  });

  it('is ready with a standby replica and with a number waiting for its QR to be scanned (nothing is failing)', async () => {
    const adapters = [
      adapterWith('whatsapp', {
        connected: false,
        waiting: 'standby',
        reason: 'standby: another process runs this number',
      }),
      adapterWith('whatsapp', { connected: false, waiting: 'operator', reason: 'waiting for the QR to be scanned' }),
      adapterWith('telegram', { connected: true }),
    ];
    expect(unconnectedAdapters(adapters)).toEqual([]);
    await expect(readinessCheck(new MemoryStateStore(), adapters)()).resolves.toBeUndefined();
  });
});
