/**
 * The gate a webhook route puts in front of its adapter (src/webhook-gate.ts): what arrives
 * while the adapter starts waits for the start; what the adapter cannot take is refused at
 * once, with the reason the route answers 503 with.
 */
import { describe, expect, it } from 'vitest';
import { WebhookGate } from '../../../src/contract.js';

/** Far longer than any step of these tests: a request that waits this long was not woken. */
const LONG_WAIT_MS = 60_000;

describe('WebhookGate', () => {
  it('admits a request that arrived while starting as soon as the adapter opens it', async () => {
    const gate = new WebhookGate('bot "main" is starting');
    const waiting = gate.admit(LONG_WAIT_MS);
    gate.open();
    expect(await waiting).toEqual({ admitted: true });
    expect(await gate.admit(LONG_WAIT_MS)).toEqual({ admitted: true });
  });

  it('refuses the waiting requests at once, with the reason, when the start finds the platform unreachable', async () => {
    const gate = new WebhookGate('bot "main" is starting');
    const waiting = [gate.admit(LONG_WAIT_MS), gate.admit(LONG_WAIT_MS)];
    gate.close('the Web API did not answer auth.test; trying again');
    const refused = { admitted: false, reason: 'the Web API did not answer auth.test; trying again' };
    expect(await Promise.all(waiting)).toEqual([refused, refused]);
    expect(await gate.admit(LONG_WAIT_MS)).toEqual(refused);
  });

  it('refuses, saying it is still starting, when the start outlasts the wait', async () => {
    const gate = new WebhookGate('bot "main" is starting');
    expect(await gate.admit(1)).toEqual({ admitted: false, reason: 'bot "main" is starting, still after 1 ms' });
  });

  it('keeps a request waiting while the start goes on in steps, and admits it once open', async () => {
    const gate = new WebhookGate('the gateway is starting');
    const waiting = gate.admit(LONG_WAIT_MS);
    gate.starting('bot "main" is starting (auth.test pending)');
    gate.open();
    expect(await waiting).toEqual({ admitted: true });
  });

  it('refuses after a stop, and waits again once the adapter starts anew', async () => {
    const gate = new WebhookGate('bot "main" is starting');
    gate.open();
    gate.close('bot "main" is stopping');
    expect(await gate.admit(LONG_WAIT_MS)).toEqual({ admitted: false, reason: 'bot "main" is stopping' });
    gate.starting('bot "main" is starting (auth.test pending)');
    const waiting = gate.admit(LONG_WAIT_MS);
    gate.open();
    expect(await waiting).toEqual({ admitted: true });
  });
});
