import { describe, expect, it } from 'vitest';
import { AttachmentTooLargeError } from '../../../../src/gateway/media/errors.js';
import { readCapped } from '../../../../src/contract.js';

/** A stream of `count` chunks of `size` bytes that records how many chunks were pulled. */
function countingStream(count: number, size: number): { stream: AsyncIterable<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  async function* generate(): AsyncIterable<Uint8Array> {
    for (let i = 0; i < count; i += 1) {
      pulled += 1;
      yield new Uint8Array(size).fill(i);
    }
  }
  return { stream: generate(), pulled: () => pulled };
}

describe('readCapped', () => {
  it('joins every chunk of a stream within the cap, in order', async () => {
    const { stream } = countingStream(3, 4);
    expect(Array.from(await readCapped(stream, 12))).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('refuses before reading anything when the declared size is over the cap', async () => {
    const { stream, pulled } = countingStream(3, 4);
    const error = await readCapped(stream, 10, 12).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect(error).toMatchObject({ maxBytes: 10, actualBytes: 12 });
    expect(pulled()).toBe(0);
  });

  it('stops reading as soon as the bytes pass the cap, even when the declared size was small', async () => {
    const { stream, pulled } = countingStream(100, 4);
    const error = await readCapped(stream, 10, 8).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect(error).toMatchObject({ maxBytes: 10, actualBytes: 12 });
    expect(pulled()).toBe(3);
  });

  it('accepts a stream of exactly the cap', async () => {
    const { stream } = countingStream(2, 5);
    expect((await readCapped(stream, 10)).length).toBe(10);
  });
});
