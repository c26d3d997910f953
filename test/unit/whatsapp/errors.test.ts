import { describe, expect, it } from 'vitest';
import { toPlatformError } from '../../../adapters/whatsapp/errors.js';

describe('whatsapp-web.js failures as PlatformError kinds', () => {
  it.each([
    'Protocol error (Runtime.callFunctionOn): Session closed. Most likely the page has been closed.',
    'Protocol error (Runtime.callFunctionOn): Target closed.',
    'Execution context was destroyed, most likely because of a navigation.',
    'Navigating frame was detached',
    'Requesting main frame too early!',
    'Connection closed.',
    "Evaluation failed: TypeError: Cannot read properties of undefined (reading 'WWebJS')",
  ])('"%s": the page or browser is gone: unreachable, the core keeps the answer and retries', (message) => {
    expect(toPlatformError(new Error(message), 'sendMessage').kind).toBe('unreachable');
  });

  it("reads puppeteer's TimeoutError as unreachable", () => {
    const timeout = Object.assign(new Error('Waiting failed: 30000ms exceeded'), { name: 'TimeoutError' });
    expect(toPlatformError(timeout, 'sendMessage').kind).toBe('unreachable');
  });

  it('reads a refusal of a too long text as too-long', () => {
    expect(toPlatformError(new Error('message too long'), 'sendMessage').kind).toBe('too-long');
  });

  it('reads anything else as other, naming the call', () => {
    const mapped = toPlatformError(new Error('Evaluation failed: chat not found'), 'sendMessage');
    expect(mapped.kind).toBe('other');
    expect(mapped.message).toContain('WhatsApp sendMessage failed');
  });
});
