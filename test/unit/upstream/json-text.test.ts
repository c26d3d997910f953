import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unescapeJsonString } from '../../../src/upstream/json-text.js';

/** How .NET's default encoder writes strings: every non-ASCII UTF-16 unit as \uXXXX. */
function escapeLikeDotNet(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

describe('reading the content of a JSON string literal', () => {
  it('gives back any string as JSON.stringify wrote it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(unescapeJsonString(JSON.stringify(text).slice(1, -1))).toBe(text);
      }),
    );
  });

  it('gives back any string with every non-ASCII character escaped as \\uXXXX, surrogate pairs included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(unescapeJsonString(escapeLikeDotNet(text))).toBe(text);
      }),
    );
  });

  it('refuses escapes JSON does not have', () => {
    expect(unescapeJsonString('a\\x41')).toBeNull();
    expect(unescapeJsonString('\\u12')).toBeNull();
    expect(unescapeJsonString('\\u12zz')).toBeNull();
  });
});
