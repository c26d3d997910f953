/**
 * Handing one conversation's messages over in the order they came (SerialByKey in the
 * contract's kit): a later message whose preparation is quicker does not overtake an earlier
 * one of the same key; other keys do not wait; a failure holds nothing up.
 */
import { describe, expect, it } from 'vitest';
import { SerialByKey } from '../../../src/contract.js';

/** A task that finishes only when the test says so. */
function gate(): { wait: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

describe('SerialByKey', () => {
  it("hands over a key's tasks in the order given, however long each takes", async () => {
    const order = new SerialByKey();
    const handed: string[] = [];
    const slowFirst = gate();
    const first = order.run('chat-1', async () => {
      await slowFirst.wait;
      handed.push('first');
    });
    const second = order.run('chat-1', async () => void handed.push('second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(handed).toEqual([]);
    slowFirst.open();
    await Promise.all([first, second]);
    expect(handed).toEqual(['first', 'second']);
  });

  it('lets another key go on while one waits', async () => {
    const order = new SerialByKey();
    const handed: string[] = [];
    const stuck = gate();
    const waiting = order.run('chat-1', async () => {
      await stuck.wait;
      handed.push('chat-1');
    });
    await order.run('chat-2', async () => void handed.push('chat-2'));
    expect(handed).toEqual(['chat-2']);
    stuck.open();
    await waiting;
    expect(handed).toEqual(['chat-2', 'chat-1']);
  });

  it('reports a failed task to its caller and runs the next one anyway', async () => {
    const order = new SerialByKey();
    const failed = order.run('chat-1', async () => {
      throw new Error('the message could not be read');
    });
    const next = order.run('chat-1', async () => 'queued');
    await expect(failed).rejects.toThrow('the message could not be read');
    await expect(next).resolves.toBe('queued');
  });

  it('is idle once every task given so far, and any given meanwhile, has ended', async () => {
    const order = new SerialByKey();
    const handed: string[] = [];
    const slow = gate();
    void order.run('chat-1', async () => {
      await slow.wait;
      handed.push('first');
      void order.run('chat-2', async () => void handed.push('given meanwhile'));
    });
    const idle = order.idle();
    slow.open();
    await idle;
    expect(handed).toEqual(['first', 'given meanwhile']);
  });
});
