import { describe, expect, it } from 'vitest';
import { keepPeersSection, peersSection, replacePeersSection } from '../../../bench/peers/section.js';

const PEERS = '## Side by side with the peers\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
const REST = '# Benchmarks\n\nMachine: x.\n\n## Upstream stream decoder\n\n| measure | result |\n';

describe('BENCHMARKS.md: the section `npm run bench:peers` owns', () => {
  it('is appended when the file has none, and the rest is kept as it was', () => {
    const written = replacePeersSection(REST, PEERS);
    expect(written.startsWith(REST.trimEnd())).toBe(true);
    expect(peersSection(written)).toBe(PEERS);
  });

  it('replaces only its own section when it sits between others', () => {
    const file = `# Benchmarks\n\n${PEERS}\n## Gateway\n\nrows\n`;
    const next = PEERS.replace('| 1 | 2 |', '| 3 | 4 |');
    expect(replacePeersSection(file, next)).toBe(`# Benchmarks\n\n${next}\n## Gateway\n\nrows\n`);
  });

  it('survives `npm run bench` rewriting the file', () => {
    const previous = replacePeersSection(REST, PEERS);
    const rewritten = keepPeersSection(previous, '# Benchmarks\n\nMachine: y.\n\n## Gateway\n\nnew rows\n');
    expect(rewritten).toContain('Machine: y.');
    expect(rewritten).not.toContain('Machine: x.');
    expect(peersSection(rewritten)).toBe(PEERS);
    expect(keepPeersSection(undefined, REST)).toBe(REST);
  });
});
