/**
 * A transcript's packed chunks: the entries of a quiet stretch of a conversation, compressed together. A transcript
 * is mostly the bot's answers, natural language that Brotli (with its built-in dictionary of common words) shrinks to
 * less than half when a few answers go together (2.2× for four, bench/transcript-pack.ts); entry by entry the gain would be small (each too short to find its
 * own repetitions), and a chunk of a few answers costs one compression per few answers, not per answer.
 *
 * A chunk is one version byte (1) and the Brotli of the entries' JSON array. A chunk this version cannot read (a
 * newer one, a damaged one) reads as no entries, so that a transcript stays readable.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { TranscriptEntry } from './transcript-entry.js';

const VERSION = 1;
/**
 * Brotli quality 5: as small as qualities 7 and 9 on a few KB of text, 17% larger than 11's chunk at a fortieth of
 * its CPU (bench/transcript-pack.ts measures both per answer).
 */
export const PACK_QUALITY = 5;

export function packEntries(entries: readonly TranscriptEntry[], quality = PACK_QUALITY): Uint8Array {
  const json = Buffer.from(JSON.stringify(entries));
  const compressed = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  const chunk = new Uint8Array(compressed.length + 1);
  chunk[0] = VERSION;
  chunk.set(compressed, 1);
  return chunk;
}

export function unpackEntries(chunk: Uint8Array): TranscriptEntry[] {
  if (chunk[0] !== VERSION) return [];
  try {
    const parsed: unknown = JSON.parse(brotliDecompressSync(chunk.subarray(1)).toString('utf8'));
    return Array.isArray(parsed) ? (parsed as TranscriptEntry[]) : [];
  } catch {
    return [];
  }
}
