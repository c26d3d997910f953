/**
 * What `npm run build` compiles (tsconfig.build.json's include) is what dist/ and the image
 * ship: the platforms of this build's list, and nothing only tests or benchmarks need. A test
 * platform (the in-memory one) lives in fakes/, outside it. tsc also compiles whatever an
 * included file imports, so no included file may import from outside the include.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { read, ROOT } from './deploy-files.js';

const included = (JSON.parse(read('tsconfig.build.json')) as { include: string[] }).include;

/** Every .ts file of the build, relative to the root. */
function buildFiles(): string[] {
  return included.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(folder, file)),
  );
}

/** The relative imports of a file (static, re-exports and dynamic), resolved to paths under the root. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)));
}

describe('the compiled build', () => {
  it('compiles the gateway and its platforms only', () => {
    expect([...included].sort()).toEqual(['adapters', 'src']);
  });

  it('ships one folder per platform of the list, and no test platform', () => {
    const folders = readdirSync(join(ROOT, 'adapters'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(PLATFORMS.map((platform) => platform.name).sort());
  });

  it('imports nothing from outside what it compiles (fakes/, test/, bench/ stay out of dist/)', () => {
    // The imports are read as written: the list's own are found.
    expect(relativeImports('adapters/index.ts')).toContain('adapters/console/module.js');
    const outside = buildFiles().flatMap((file) =>
      relativeImports(file)
        .filter((target) => !included.some((folder) => target === folder || target.startsWith(`${folder}/`)))
        .map((target) => `${file} → ${target}`),
    );
    expect(outside).toEqual([]);
  });
});
