/**
 * The bound on a redelivering platform's accept (src/gateway/intake/webhook-accept.ts): a
 * hand-over that is not durable in time, or that Redis refuses, fails with NotQueuedError at the
 * bound; the outage is logged once, however many requests it refuses, and its end once; an accept
 * given up while it still waits for its turn in the accept line never runs.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { NotQueuedError, type Inbound } from '../../../../src/contract.js';
import { AcceptLine } from '../../../../src/gateway/intake/accept-line.js';
import { WebhookAccept } from '../../../../src/gateway/intake/webhook-accept.js';

const LIMIT_MS = 50;
const inbound = { platformMessageId: 'm1' } as Inbound;

function recorder() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as never) });
  return {
    logger,
    warnings: () => lines.filter((line) => line.level === 40),
    infos: () => lines.filter((line) => line.level === 30),
  };
}

describe('WebhookAccept', () => {
  it('refuses a hand-over that is not done within the bound, and logs the outage once for many requests', async () => {
    const log = recorder();
    const bounded = new WebhookAccept(
      { accept: () => new Promise<void>(() => undefined) },
      { limitMs: LIMIT_MS, logger: log.logger },
    );
    for (let i = 0; i < 3; i++) await expect(bounded.accept(inbound)).rejects.toBeInstanceOf(NotQueuedError);
    await expect(bounded.bounded(() => new Promise(() => undefined))).rejects.toBeInstanceOf(NotQueuedError);
    expect(log.warnings()).toHaveLength(1);
    expect(log.warnings()[0]!.msg).toMatch(/answered 503 until Redis takes them again/);
  });

  it("turns a refusal of a Redis that is down into NotQueuedError, and logs the outage's end once", async () => {
    const log = recorder();
    let down = true;
    const sink = {
      accept: async () => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6399'), { code: 'ECONNREFUSED' });
      },
    };
    const bounded = new WebhookAccept(sink, { limitMs: LIMIT_MS, logger: log.logger });
    await expect(bounded.accept(inbound)).rejects.toBeInstanceOf(NotQueuedError);
    await expect(bounded.accept(inbound)).rejects.toBeInstanceOf(NotQueuedError);
    down = false;
    await bounded.accept(inbound);
    await bounded.accept(inbound);
    expect(log.warnings()).toHaveLength(1);
    expect(log.infos().filter((line) => /queued again/.test(line.msg))).toHaveLength(1);
  });

  it('passes any other failure on as it is', async () => {
    const bounded = new WebhookAccept(
      { accept: async () => Promise.reject(new Error('conversation not served here')) },
      { limitMs: LIMIT_MS, logger: recorder().logger },
    );
    await expect(bounded.accept(inbound)).rejects.toThrow('conversation not served here');
  });
});

describe('AcceptLine with a signal', () => {
  it('lets an accept that was given up while waiting for its turn leave the line without running', async () => {
    const line = new AcceptLine(1);
    let release!: () => void;
    const first = line.run(() => new Promise<void>((resolve) => (release = resolve)));
    const givenUp = new AbortController();
    let ran = false;
    const second = line.run(async () => {
      ran = true;
    }, givenUp.signal);
    givenUp.abort(new NotQueuedError('late'));
    await expect(second).rejects.toBeInstanceOf(NotQueuedError);
    expect(line.waiting).toBe(0);
    release();
    await first;
    expect(ran).toBe(false);
    expect(line.inProgress).toBe(0);
    await line.run(async () => undefined);
  });
});
