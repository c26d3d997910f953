import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

/**
 * Longest run of non-space (or of space) characters the BPE sees in one piece.
 * js-tiktoken's merge loop is quadratic in a piece's length (one 20,000-letter
 * word took 40 s of blocked event loop, 4,096 letters 1.7 s), and the
 * pre-tokenizer keeps a whole run of letters (or of CJK, which has no spaces)
 * as one piece; cut into 32-character parts, a run costs ~0.1 ms per part. The
 * count of such a run is then a little off (a merge across a cut is lost: up to
 * ~20% more tokens for a URL or a repeated word), which is fine for TotalToken;
 * text with spaces is counted exactly.
 */
export const MAX_RUN_CHARS = 32;
/** Characters counted between two yields to the event loop: about 3 ms of work on a slow core. */
export const SLICE_CHARS = 1_000;

const RUNS = /\s+|\S+/gu;
// With the `u` flag, a part never splits a surrogate pair (an emoji stays whole).
const RUN_PARTS = new RegExp(`[\\s\\S]{1,${MAX_RUN_CHARS}}`, 'gu');

let encoder: Tiktoken | undefined;

function encodedLength(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  // No special tokens: a user who types "<|endoftext|>" wrote text, and counting it must not throw.
  return encoder.encode(text, [], []).length;
}

/** The text in the pieces the BPE may see: runs up to MAX_RUN_CHARS kept together (up to SLICE_CHARS), longer runs cut. */
function* pieces(text: string): Generator<string> {
  let batch = '';
  for (const [run] of text.matchAll(RUNS)) {
    if (run.length <= MAX_RUN_CHARS) {
      batch += run;
      if (batch.length >= SLICE_CHARS) {
        yield batch;
        batch = '';
      }
      continue;
    }
    if (batch) yield batch;
    batch = '';
    for (const [part] of run.matchAll(RUN_PARTS)) yield part;
  }
  if (batch) yield batch;
}

/**
 * cl100k_base token count (the ranks ship inside js-tiktoken and are decoded
 * once, on first use). Work is linear in the text's length and handed back to
 * the event loop every SLICE_CHARS characters, so no input, however shaped,
 * holds up other requests for more than a few milliseconds.
 */
export async function countTokens(text: string): Promise<number> {
  let total = 0;
  let sinceYield = 0;
  for (const piece of pieces(text)) {
    if (sinceYield >= SLICE_CHARS) {
      await yieldToEventLoop();
      sinceYield = 0;
    }
    total += encodedLength(piece);
    sinceYield += piece.length;
  }
  return total;
}

/** Decoding the ranks takes about a second: a service pays it at start, not on a user's first message. */
export function warmUpTokenCounter(): void {
  encodedLength('warm-up');
}
