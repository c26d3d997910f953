import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map a newcomer reads before the code: every file of src/ is on it, named by
 * its path or, inside the paragraph of its folder, by its name. A file added without a line there fails here.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAP = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The TypeScript sources git knows under src/ (declaration files of untyped packages are not parts). */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
}

describe('docs/architecture.md', () => {
  it('names every file of src/', () => {
    const unnamed = sourceFiles().filter((path) => !MAP.includes(basename(path)));
    expect(unnamed).toEqual([]);
  });
});
