import { describe, expect, it } from 'vitest';
import { findHandoffPhrase, normalizeForMatching } from '../../../../src/handoff/index.js';

const PHRASES = ['talk to a person', 'agent', "parler à quelqu'un"];

describe('handoff phrases', () => {
  it('match whatever the case and accents', () => {
    expect(findHandoffPhrase('Can I TÁLK to a Pérson?', PHRASES)).toBe('talk to a person');
    expect(findHandoffPhrase('Je veux PARLER A QUELQU’UN', PHRASES)).toBe("parler à quelqu'un");
    expect(findHandoffPhrase('AGÉNT!!', PHRASES)).toBe('agent');
  });

  it('match whole words only, across punctuation and line breaks', () => {
    expect(findHandoffPhrase("What are the agents' fees?", PHRASES)).toBeNull();
    expect(findHandoffPhrase('Is this a reagent?', PHRASES)).toBeNull();
    expect(findHandoffPhrase('I need an agent, now.', PHRASES)).toBe('agent');
    expect(findHandoffPhrase('talk to a\nperson', PHRASES)).toBe('talk to a person');
    expect(findHandoffPhrase('talk to apersonal trainer', PHRASES)).toBeNull();
  });

  it('ignore empty phrases and empty text', () => {
    expect(findHandoffPhrase('anything', ['', '  ', '!!'])).toBeNull();
    expect(findHandoffPhrase('', PHRASES)).toBeNull();
  });

  it('normalize to lowercase words without accents', () => {
    expect(normalizeForMatching('  Ça  va, Ünïcode—test ')).toBe('ca va unicode test');
  });
});
