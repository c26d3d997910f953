/**
 * Choices within Meta's limits: reply buttons (3, titles 20), a list (10 rows, titles 24), or
 * numbered text, never a title cut; a text too long for a button body goes first on its own.
 */
import { describe, expect, it } from 'vitest';
import {
  choicesOf,
  graphBody,
  MAX_BUTTON_BODY,
  numberedPlan,
  planMessage,
  type Choice,
} from '../../../adapters/whatsapp-cloud/interactive.js';

const suggestions = (...texts: string[]): Choice[] => choicesOf({ suggestions: texts });
const listingsButtons = choicesOf({
  buttons: [
    { label: '« Previous', value: 'listings:1:Austin' },
    { label: 'Next »', value: 'listings:3:Austin' },
  ],
});

describe('choices on WhatsApp Cloud', () => {
  it('shows up to 3 short choices as reply buttons under the text, each id saying what it means', () => {
    const plan = planMessage('*Listings in Austin* · page 2 of 3', listingsButtons);
    expect(plan.numbered).toBeUndefined();
    expect(plan.parts.map((part) => graphBody('4915112345678', part))).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '4915112345678',
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: '*Listings in Austin* · page 2 of 3' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'a:listings:1:Austin', title: '« Previous' } },
              { type: 'reply', reply: { id: 'a:listings:3:Austin', title: 'Next »' } },
            ],
          },
        },
      },
    ]);
  });

  it('sends a text longer than a button body first, then the buttons under a short line (two messages)', () => {
    const page = 'x'.repeat(MAX_BUTTON_BODY + 1);
    const plan = planMessage(page, listingsButtons);
    expect(plan.parts.map((part) => [part.kind, part.text])).toEqual([
      ['text', page],
      ['buttons', 'More options:'],
    ]);
  });

  it('shows 4 to 10 choices of up to 24 characters as a list, and suggested questions come back as questions', () => {
    const plan = planMessage(
      'Welcome! Ask me about homes.',
      suggestions('Homes with a garden', 'Flats near the river', 'Anything under $300k?', 'Pets allowed?'),
    );
    expect(plan.parts).toHaveLength(1);
    const body = graphBody('4915112345678', plan.parts[0]!) as {
      interactive: { type: string; action: { button: string; sections: { rows: { id: string; title: string }[] }[] } };
    };
    expect(body.interactive.type).toBe('list');
    expect(body.interactive.action.button).toBe('Questions');
    expect(body.interactive.action.sections[0]!.rows.map((row) => row.id)).toEqual([
      's:Homes with a garden',
      's:Flats near the river',
      's:Anything under $300k?',
      's:Pets allowed?',
    ]);
  });

  it('sends choices too long for a row title, too many, or alike as numbered text, never cut', () => {
    const long = 'Which neighbourhoods are good for families with children?';
    for (const choices of [
      suggestions('Gardens', long),
      suggestions(...Array.from({ length: 11 }, (_, i) => `Question ${i + 1}`)),
      suggestions('Same', 'Same'),
    ]) {
      const plan = planMessage('Welcome!', choices);
      expect(plan.numbered).toEqual(choices);
      expect(plan.parts).toHaveLength(1);
      const text = plan.parts[0]!.text;
      choices.forEach((choice, i) => expect(text).toContain(`${i + 1}. ${choice.title}`));
      expect(text).toMatch(/^Welcome!\n\n/);
      expect(text).toMatch(/Reply with a number to ask it\.$/);
    }
    expect(planMessage('Pick one', [...listingsButtons, ...suggestions(long)]).parts[0]!.text).toMatch(
      /Reply with a number to choose\.$/,
    );
  });

  it('splits numbered choices that do not fit one message at line ends, the text first', () => {
    const text = 't'.repeat(4_000);
    const choices = suggestions(...Array.from({ length: 12 }, (_, i) => `${'q'.repeat(400)} ${i + 1}?`));
    const plan = numberedPlan(text, choices);
    expect(plan.parts[0]!.text).toBe(text);
    expect(plan.parts.length).toBeGreaterThan(2);
    for (const part of plan.parts) expect(part.text.length).toBeLessThanOrEqual(4096);
    expect(
      plan.parts
        .slice(1)
        .map((part) => part.text)
        .join('\n'),
    ).toBe([...choices.map((c, i) => `${i + 1}. ${c.title}`), '', 'Reply with a number to ask it.'].join('\n'));
  });

  it('gives choices without text of their own a line that introduces them', () => {
    expect(planMessage('', suggestions('Gardens', 'Pools')).parts.map((part) => part.text)).toEqual(['You can ask:']);
    expect(planMessage('   ', listingsButtons).parts.map((part) => part.text)).toEqual(['More options:']);
  });
});
