/**
 * What packing a transcript costs and saves (issue 32): four answers of about 600 characters and their questions
 * (bench/support/answers.ts), as the packer makes one chunk of them (gateway.transcriptPackEntries = 8), at each Brotli
 * quality: the chunk's bytes against the entries' JSON, and the CPU of packing per answer (a quarter of a chunk) and of
 * reading a chunk back. Run alone with `npx tsx bench/transcript-pack.ts` (prints JSON).
 */
import { pathToFileURL } from 'node:url';
import { packEntries, PACK_QUALITY, unpackEntries, type TranscriptEntry } from '../src/gateway/index.js';
import { CONVERSATION_ANSWERS, CONVERSATION_QUESTIONS } from './support/answers.js';
import type { BenchResult } from './support/result.js';

const PASSES = 9;
const ITERATIONS = 200;
const QUALITIES = [1, 3, PACK_QUALITY, 7, 9, 11];

const ENTRIES: TranscriptEntry[] = CONVERSATION_ANSWERS.flatMap((answer, n): TranscriptEntry[] => [
  {
    at: 1_790_000_000_000 + n * 60_000,
    role: 'user',
    text: CONVERSATION_QUESTIONS[n]!,
    user: { id: '1300001', name: 'Ana Lima' },
  },
  { at: 1_790_000_000_000 + n * 60_000 + 4_000, role: 'bot', text: answer },
]);
const ANSWERS = CONVERSATION_ANSWERS.length;

/** Best CPU µs of one call of `work`, over the passes. */
function cpuMicros(work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < PASSES; pass++) {
    const start = process.cpuUsage();
    for (let i = 0; i < ITERATIONS; i++) work();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / ITERATIONS);
  }
  return best;
}

export async function run(): Promise<BenchResult[]> {
  const json = ENTRIES.reduce((bytes, entry) => bytes + Buffer.byteLength(JSON.stringify(entry)), 0);
  const results: BenchResult[] = [];
  for (const quality of QUALITIES) {
    const chunk = packEntries(ENTRIES, quality);
    const packUs = cpuMicros(() => packEntries(ENTRIES, quality));
    const readUs = cpuMicros(() => unpackEntries(chunk));
    const chosen = quality === PACK_QUALITY ? ' (the one used)' : '';
    results.push(
      {
        name: `transcript-pack.bytes.quality-${quality}`,
        value: chunk.length,
        unit: 'bytes',
        notes:
          `a chunk of ${ENTRIES.length} entries (${ANSWERS} answers and their questions) whose JSON is ${json} bytes: ` +
          `${(json / chunk.length).toFixed(2)}× smaller${chosen}`,
      },
      {
        name: `transcript-pack.cpu-per-answer.quality-${quality}`,
        value: Math.round((packUs / ANSWERS) * 10) / 10,
        unit: 'µs',
        notes:
          `Brotli quality ${quality}: ${Math.round(packUs)} µs to pack the chunk, once per ${ANSWERS} answers; ` +
          `${Math.round(readUs)} µs to read it back; CPU time, best of ${PASSES} passes of ${ITERATIONS}${chosen}`,
      },
    );
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await run(), null, 2)}\n`);
}
