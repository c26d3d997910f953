import { describe, expect, it } from 'vitest';
import { CommandWords, DEFAULT_COMMANDS, textForCore } from '../../../src/contract.js';

const words = new CommandWords([...DEFAULT_COMMANDS, { name: 'human', description: 'talk to a person' }]);

describe('commands as words (WhatsApp has no command menu)', () => {
  it.each([
    ['help', '/help'],
    ['Reset', '/reset'],
    ['  HUMAN  ', '/human'],
    ['start', '/start'],
    ['listings', '/listings'],
  ])('"%s" alone is the command %s', (text, command) => {
    expect(textForCore(text, words)).toBe(command);
  });

  it('passes the words after a command that takes arguments: "listings Austin 2"', () => {
    expect(textForCore('listings Austin 2', words)).toBe('/listings Austin 2');
  });

  it('keeps a sentence that starts with a command word as a question: "help me find a flat"', () => {
    expect(textForCore('help me find a flat', words)).toBe('help me find a flat');
    expect(textForCore('reset my password please', words)).toBe('reset my password please');
  });

  it('leaves a command typed with its slash, and any other text, as it is', () => {
    expect(textForCore('/listings Berlin', words)).toBe('/listings Berlin');
    expect(textForCore('hello there', words)).toBe('hello there');
    expect(textForCore('helpful', words)).toBe('helpful');
  });

  it('knows only the commands the core named at start', () => {
    const fewer = new CommandWords([{ name: 'help', description: '' }]);
    expect(textForCore('reset', fewer)).toBe('reset');
    expect(textForCore('help', fewer)).toBe('/help');
  });

  it('tells the greeting itself apart, as a word or with the slash', () => {
    expect(words.isStart('start')).toBe(true);
    expect(words.isStart('/start')).toBe(true);
    expect(words.isStart('starting a business')).toBe(false);
  });
});
