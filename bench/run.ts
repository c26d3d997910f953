/**
 * `npm run bench`: runs every benchmark in bench/ one after another and writes
 * BENCHMARKS.md with the machine and the command. Benchmarks are never part of `npm test`.
 * `npm run bench -- decoder service` runs only those.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

interface BenchResult {
  name: string;
  value: number;
  unit: string;
  notes?: string;
}

const SUITES: { file: string; title: string }[] = [
  { file: 'decoder', title: 'Upstream stream decoder' },
  { file: 'format', title: 'Markdown rendering and splitting' },
  { file: 'service', title: 'Embedded Chatbot Service (autocannon, Redis state)' },
  { file: 'gateway', title: 'Gateway with the Telegram adapter and the fake Bot API (Redis state)' },
];

function format(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const sections: string[] = [];
  for (const suite of SUITES.filter((s) => only.length === 0 || only.includes(s.file))) {
    process.stderr.write(`bench: ${suite.file}…\n`);
    const module = (await import(`./${suite.file}.ts`)) as { run?: () => Promise<BenchResult[]> };
    if (!module.run) continue;
    const results = await module.run();
    const rows = results.map((r) => `| ${r.name} | ${format(r.value)} ${r.unit} | ${r.notes ?? ''} |`);
    sections.push(`## ${suite.title} (\`bench/${suite.file}.ts\`)\n\n| measure | result | notes |\n|---|---|---|\n${rows.join('\n')}\n`);
    process.stderr.write(rows.join('\n') + '\n');
  }
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
  const header = `# Benchmarks\n\nWritten by \`npm run bench${only.length ? ` -- ${only.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)}.\n\nMachine: ${machine}. Redis: ${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}.\nNumbers vary between runs and machines; they are measurements, not guarantees, and no test asserts on them.\n`;
  writeFileSync(join(import.meta.dirname, '..', 'BENCHMARKS.md'), `${header}\n${sections.join('\n')}`);
  process.stderr.write('bench: wrote BENCHMARKS.md\n');
  process.exit(0);
}

await main();
