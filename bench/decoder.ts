/**
 * Throughput of the ClientAsk stream decoder (src/upstream/stream-decoder.ts) on a
 * few MB of SSE and NDJSON answer streams, cut into chunks of random sizes the way
 * a socket delivers them. Run alone with `npx tsx bench/decoder.ts` (prints JSON).
 */
import { pathToFileURL } from 'node:url';
import { createStreamDecoder } from '../src/upstream/stream-decoder.js';
import type { BenchResult } from './support/result.js';

const TARGET_BYTES = 4 * 1024 * 1024;
const PASSES = 9;

/** Deterministic, so runs are comparable (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'The',
  ' house',
  ' on',
  ' Maple',
  ' Street',
  ' has',
  ' 3',
  ' bedrooms',
  ',',
  ' 2.5',
  ' baths',
  ' and',
  ' costs',
  ' $750,000',
  '.',
  ' Größe:',
  ' 180 m²',
  ' 🏠',
  ' "quoted"',
  ' \\path',
  '\n',
  ' 中文',
  ' answer',
];

function answerObjects(random: () => number): { objects: string[]; bytes: number } {
  const objects: string[] = [];
  const answer: string[] = [];
  let bytes = 0;
  while (bytes < TARGET_BYTES) {
    const fragment = Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => WORDS[Math.floor(random() * WORDS.length)],
    ).join('');
    answer.push(fragment);
    const json = JSON.stringify({ content: fragment });
    objects.push(json);
    bytes += json.length + 10;
  }
  objects.push(JSON.stringify({ QuestionID: 1, AnswerID: 2, Answer: answer.join(''), TotalToken: 1234 }));
  return { objects, bytes };
}

function chunked(body: string, random: () => number): Uint8Array[] {
  const bytes = new TextEncoder().encode(body);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + Math.floor(random() * 16 * 1024);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

function decodeWithDecoder(chunks: Uint8Array[]): number {
  const decoder = createStreamDecoder();
  let events = 0;
  for (const chunk of chunks) events += decoder.push(chunk).length;
  return events + decoder.end().length;
}

/**
 * The floor on this machine: UTF-8 decoding and cutting lines, with no JSON at
 * all. The decoder cannot beat it; the gap between the two is its own cost.
 */
function decodeLinesOnly(chunks: Uint8Array[]): number {
  const utf8 = new TextDecoder();
  let lines = 0;
  // Parts of a line that spans chunks; joined only then, as any decoder must.
  let unfinished: string[] = [];
  for (const chunk of chunks) {
    const text = utf8.decode(chunk, { stream: true });
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      const line = unfinished.length > 0 ? unfinished.join('') + text.slice(from, newline) : text.slice(from, newline);
      if (line.length > 0) lines++;
      unfinished = [];
      from = newline + 1;
    }
    if (from < text.length) unfinished.push(text.slice(from));
  }
  return lines;
}

function measure(
  name: string,
  chunks: Uint8Array[],
  decode: (chunks: Uint8Array[]) => number = decodeWithDecoder,
): BenchResult {
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  let events = 0;
  const decodeAll = () => {
    events = decode(chunks);
  };
  decodeAll(); // warm-up, lets the JIT settle
  // The best pass, timed in CPU time: this machine is shared, and wall-clock time
  // (also reported) then measures the neighbours as much as the decoder.
  let bestCpuSeconds = Infinity;
  let bestWallSeconds = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const wallStart = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    decodeAll();
    const cpu = process.cpuUsage(cpuStart);
    bestCpuSeconds = Math.min(bestCpuSeconds, (cpu.user + cpu.system) / 1e6);
    bestWallSeconds = Math.min(bestWallSeconds, Number(process.hrtime.bigint() - wallStart) / 1e9);
  }
  const megabytesPerSecond = (seconds: number) => Math.round(totalBytes / seconds / 1e5) / 10;
  return {
    name,
    value: megabytesPerSecond(bestCpuSeconds),
    unit: 'MB/s',
    notes:
      `per CPU-second (wall clock: ${megabytesPerSecond(bestWallSeconds)} MB/s); ${(totalBytes / 1e6).toFixed(1)} MB ` +
      `(1 MB = 10^6 bytes) in ${chunks.length} chunks of 1..16384 bytes, ${events} events/lines; best of ${PASSES} passes`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const random = seededRandom(42);
  const { objects } = answerObjects(random);
  const sse = objects.map((json) => `data: ${json}\n\n`).join('') + 'data: [DONE]\n\n';
  const ndjson = objects.map((json) => `${json}\n`).join('');
  const concatenated = objects.join('');
  return [
    measure('decoder.sse', chunked(sse, random)),
    measure('decoder.ndjson', chunked(ndjson, random)),
    measure('decoder.concatenated-json', chunked(concatenated, random)),
    measure('decoder.floor-utf8-and-lines-only', chunked(ndjson, random), decodeLinesOnly),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
}
