/**
 * The heaviest functions of a V8 CPU profile by self time: the chatbridge row of
 * `npm run bench:peers` run with BENCH_PEERS_CPU_PROF=<dir> leaves one .cpuprofile there.
 *
 *   npx tsx bench/peers/profile-summary.ts <file.cpuprofile> [--top 10] [--by function|package]
 *
 * Prints a Markdown table: function, where (file:line, under dist/ or node_modules), self ms and
 * share of the busy time (the sampled time less V8's "(idle)"; the garbage collector shown as V8
 * names it). `--by package` adds the self time up per package instead: a dependency (its
 * node_modules folder), a folder of chatbridge's (src/gateway/relay, adapters/slack…), a part of
 * Node (node:internal/streams…), or a native function alone. The profile covers the whole
 * process, its start-up included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function place(url: string, line: number): string {
  if (!url) return '';
  const short = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, '')
    .replace(/^node:/, 'node:');
  return `${short}:${line + 1}`;
}

export type GroupBy = 'function' | 'package';

/** Where a frame's self time is added up `by` package: see the file's comment. */
function packageOf(frame: ProfileNode['callFrame']): { name: string; where: string } {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return { name: frame.functionName || '(anonymous)', where: '' };
  const dependency = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dependency) return { name: dependency[1]!, where: 'node_modules' };
  const own = /\/(?:dist\/)?((?:src|adapters|fakes|bench)\/[^/]+(?:\/[^/.]+(?=\/))?)/.exec(url);
  if (own) return { name: own[1]!, where: 'chatbridge' };
  if (url.startsWith('node:')) return { name: url.split('/').slice(0, 2).join('/'), where: 'Node' };
  return { name: url, where: '' };
}

export function summarise(
  profile: Profile,
  top: number,
  by: GroupBy = 'function',
): { name: string; where: string; selfMs: number; share: number }[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    total += delta;
    const { name, where } =
      by === 'package'
        ? packageOf(frame)
        : { name: frame.functionName || '(anonymous)', where: place(frame.url, frame.lineNumber) };
    const key = `${name} ${where}`;
    const entry = self.get(key) ?? { name, where, us: 0 };
    entry.us += delta;
    self.set(key, entry);
  });
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map(({ name, where, us }) => ({ name, where, selfMs: us / 1000, share: total ? us / total : 0 }));
}

/** The newest .cpuprofile in `dir`, or undefined. */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** The summary of one profile file as a Markdown table. */
export function profileTable(file: string, top = 10, by: GroupBy = 'function'): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const rows = summarise(profile, top, by);
  return [
    `| ${by === 'package' ? 'package or folder' : 'function'} | ${by === 'package' ? 'of' : 'where'} | self ms | share of busy time |`,
    '|---|---|---|---|',
    ...rows.map(
      (row) => `| ${row.name} | ${row.where} | ${Math.round(row.selfMs)} | ${(row.share * 100).toFixed(1)} % |`,
    ),
  ].join('\n');
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '10' }, by: { type: 'string', default: 'function' } },
  });
  const file = positionals[0];
  if (!file) throw new Error('profile-summary: give the .cpuprofile file');
  const top = Number(values.top);
  if (!Number.isInteger(top) || top < 1)
    throw new Error(`profile-summary: --top takes a whole number ≥ 1, not "${values.top}"`);
  if (values.by !== 'function' && values.by !== 'package')
    throw new Error(`profile-summary: --by takes function or package, not "${values.by}"`);
  console.log(profileTable(file, top, values.by));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
