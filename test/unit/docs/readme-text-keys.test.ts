import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEXT_KEYS } from '../../../src/gateway/index.js';
import { placeholdersOf } from '../../../src/gateway/texts/index.js';

/**
 * README "The gateway's languages" lists every key a bot's `texts` may replace, with its
 * placeholders: a sentence added to the catalogue without its line there fails here, and so does
 * a line left for a sentence that is gone.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The list between the README's markers: each key as written, with its placeholders as written. */
function listedKeys(): Map<string, string[]> {
  const list = /<!-- text keys[^>]*-->([\s\S]*?)<!-- \/text keys -->/.exec(README)?.[1];
  if (list === undefined) throw new Error('README.md has no "<!-- text keys -->" list');
  const listed = new Map<string, string[]>();
  for (const [, key, placeholders] of list.matchAll(/`([A-Za-z.]+)`(?: \(([^)]*)\))?/g)) {
    listed.set(
      key!,
      [...(placeholders ?? '').matchAll(/`\{(\w+)\}`/g)].map(([, name]) => name!),
    );
  }
  return listed;
}

describe("README's keys of the gateway's sentences", () => {
  it('are every key of the catalogue, each with its placeholders, and no other', () => {
    const expected = new Map(TEXT_KEYS.map((key) => [key, placeholdersOf(key).map(([name]) => name)]));
    expect(Object.fromEntries(listedKeys())).toEqual(Object.fromEntries(expected));
  });
});
