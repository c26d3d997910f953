import { describe, expect, it } from 'vitest';
import { questionText, quoteLine } from '../../../../src/gateway/turn/question.js';

describe('the question sent for a turn', () => {
  it('is the messages one per line', () => {
    expect(questionText([{ text: 'hi' }, { text: "I'm looking for" }, { text: 'a 3 bedroom in Austin' }], 500)).toBe(
      "hi\nI'm looking for\na 3 bedroom in Austin",
    );
  });

  it('carries what a reply quotes before it, marked as quoted', () => {
    const question = questionText(
      [{ text: 'how much is this one?', quoted: { text: '1200 Barton Springs Rd, 3 bedrooms', from: 'bot' } }],
      500,
    );
    expect(question).toBe(
      `[In reply to the assistant's message: "1200 Barton Springs Rd, 3 bedrooms"]\nhow much is this one?`,
    );
  });

  it("names another person's message by its author", () => {
    expect(quoteLine({ text: 'the blue one', from: 'user', author: 'Maria' }, 500)).toBe(
      `[In reply to Maria's message: "the blue one"]`,
    );
  });

  it('cuts a long quote at a word, within the cap', () => {
    const line = quoteLine({ text: 'word '.repeat(200), from: 'bot' }, 50);
    const quoted = /"(.*)"/.exec(line)![1]!;
    expect(quoted.length).toBeLessThanOrEqual(51);
    expect(quoted.endsWith('word…')).toBe(true);
  });

  it('leaves out empty messages (a photo alone)', () => {
    expect(questionText([{ text: '' }, { text: 'this one?' }], 500)).toBe('this one?');
  });
});
