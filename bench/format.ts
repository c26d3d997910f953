/**
 * Cost of rendering a chatbot answer (src/format): parse + render of a ~4 KB
 * LLM-style Markdown answer per platform markup, the partial render the relay does for
 * every intermediate update, and render + split of a ~16 KB answer at Telegram's
 * 4096 limit. Run alone with `npx tsx bench/format.ts` (prints JSON).
 */
import { pathToFileURL } from 'node:url';
import { Lexer } from 'marked';
import { telegramMarkup } from '../adapters/telegram/markdown.js';
import { slackMarkup } from '../adapters/slack/markdown.js';
import { whatsappMarkup } from '../adapters/whatsapp/markdown.js';
import { plainMarkup, renderChunks, renderMarkdown, type MarkupRenderer } from '../src/format/index.js';
import type { BenchResult } from './support/result.js';

const PASSES = 9;
const ITERATIONS_PER_PASS = 200;

const SECTION = [
  '## 3 homes in *Austin* under $600k',
  '',
  'Here are the listings that match **3 beds** & **2 baths**, sorted by price. Prices < list are marked ~~struck~~.',
  '',
  '1. **123 Maple St** — $549,000, 1,850 sq ft, `MLS#A12345` ([details](https://example.com/l?id=1&src=bot))',
  '2. **9 Oak Ave** — $575,000, built 2004, _new roof_',
  '3. **77 Pine Rd** — ~~$620,000~~ $599,000',
  '',
  '> Tip: ask me "show photos of 123 Maple" to see pictures.',
  '',
  '| Address | Beds | Price |',
  '|---|---:|---:|',
  '| 123 Maple St | 3 | $549,000 |',
  '| 9 Oak Ave | 3 | $575,000 |',
  '',
  '```json',
  '{ "city": "Austin", "beds": 3, "maxPrice": 600000 }',
  '```',
  '',
].join('\n');

function answerOf(bytes: number): string {
  let answer = '';
  while (answer.length < bytes) answer += SECTION;
  return answer.slice(0, bytes);
}

function measure(name: string, notes: string, work: () => unknown): BenchResult {
  work(); // warm-up, lets the JIT settle
  // Best pass in CPU time: on a shared machine wall-clock time measures the neighbours too.
  let bestCpuMicros = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < ITERATIONS_PER_PASS; i++) work();
    const cpu = process.cpuUsage(cpuStart);
    bestCpuMicros = Math.min(bestCpuMicros, (cpu.user + cpu.system) / ITERATIONS_PER_PASS);
  }
  return {
    name,
    value: Math.round(bestCpuMicros * 10) / 10,
    unit: 'µs/op',
    notes: `${notes}; CPU time, best of ${PASSES} passes of ${ITERATIONS_PER_PASS}`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const answer4k = answerOf(4096);
  const answer16k = answerOf(16384);
  const streamed = answer4k.slice(0, 2500); // cut mid-construct, as an intermediate update is
  const markups: MarkupRenderer[] = [telegramMarkup, slackMarkup, whatsappMarkup, plainMarkup];
  return [
    ...markups.map((markup) =>
      measure(`format.render-4k.${markup.name}`, '4 KB answer: parse + render', () => renderMarkdown(answer4k, markup)),
    ),
    // The floor: marked's lexer alone. The gap to render-4k is the cost of our own layout and serialization.
    measure('format.floor-marked-lex-only-4k', '4 KB answer: marked lexer only', () =>
      Lexer.lex(answer4k, { gfm: true }),
    ),
    measure('format.render-partial-2.5k.telegram-html', '2.5 KB unfinished answer: close + parse + render', () =>
      renderMarkdown(streamed, telegramMarkup, { partial: true }),
    ),
    measure('format.chunks-16k.telegram-html', '16 KB answer split at 4096', () =>
      renderChunks(answer16k, telegramMarkup, 4096),
    ),
    measure('format.chunks-16k.slack-mrkdwn', '16 KB answer split at 4000', () =>
      renderChunks(answer16k, slackMarkup, 4000),
    ),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
}
