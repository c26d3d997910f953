import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Tiktoken } from 'js-tiktoken/lite';

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

/**
 * The encoder, made on the first count. Its decoded ranks cost ~80 MB of resident memory
 * (100,000 merges in two Maps; measured 45 -> 123 MB RSS) and ~0.6 s of one core to build,
 * and many processes never need them: an endpoint that reports its usage is never counted.
 * So they are neither imported nor decoded until a count needs them, or until a service
 * whose engine always counts warms them up at start (`warmUpTokenCounter`): the build holds
 * the event loop for that long once, and a user's first message must not be the one waiting.
 */
let encoder: Promise<Tiktoken> | undefined;

function loadEncoder(): Promise<Tiktoken> {
  encoder ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')])
    .then(([{ Tiktoken }, { default: ranks }]) => new Tiktoken(ranks))
    .catch((error: unknown) => {
      encoder = undefined;
      throw error;
    });
  return encoder;
}

function encodedLength(tokenizer: Tiktoken, text: string): number {
  // No special tokens: a user who types "<|endoftext|>" wrote text, and counting it must not throw.
  return tokenizer.encode(text, [], []).length;
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
 * once, on the first count: see `encoder`). Work is linear in the text's length and handed back to
 * the event loop every SLICE_CHARS characters, so no input, however shaped,
 * holds up other requests for more than a few milliseconds.
 */
export async function countTokens(text: string): Promise<number> {
  const tokenizer = await loadEncoder();
  let total = 0;
  let sinceYield = 0;
  for (const piece of pieces(text)) {
    if (sinceYield >= SLICE_CHARS) {
      await yieldToEventLoop();
      sinceYield = 0;
    }
    total += encodedLength(tokenizer, piece);
    sinceYield += piece.length;
  }
  return total;
}

/**
 * Builds the encoder now (~0.6 s of one core, ~80 MB): for a service whose engine reports no
 * usage (builtin), so every answer is counted and the first user's answer, and every chat the
 * process serves meanwhile, would otherwise stall for it.
 */
export async function warmUpTokenCounter(): Promise<void> {
  await countTokens('warm-up');
}
