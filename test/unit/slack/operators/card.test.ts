/**
 * A handoff's card as Block Kit within Slack's limits: cut, never refused (a section's text
 * holds 3,000 characters, a header 150), its buttons recognised by the door.
 */
import { describe, expect, it } from 'vitest';
import {
  actionKindOf,
  cardBlocks,
  cardText,
  HEADER_TEXT_MAX,
  SECTION_TEXT_MAX,
} from '../../../../adapters/slack/operators/card.js';

type Block = { type: string; text?: { text: string }; elements?: { action_id: string; value: string }[] };

describe('the Slack card of a handoff', () => {
  it('renders the Markdown to mrkdwn under the title, with a button per action', () => {
    const blocks = cardBlocks({
      title: 'Ana · WhatsApp',
      markdown: '**Why:** asked for a person\n\n[Open in the inbox](https://gw.example.com/inbox/c/1)',
      actions: [
        { kind: 'claim', label: 'Claim' },
        { kind: 'hand-back', label: 'Hand back' },
      ],
    }) as Block[];
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
    expect(blocks[1]!.text!.text).toBe(
      '*Why:* asked for a person\n\n<https://gw.example.com/inbox/c/1|Open in the inbox>',
    );
    const ids = blocks[2]!.elements!.map((e) => e.action_id);
    expect(ids.map(actionKindOf)).toEqual(['claim', 'hand-back']);
    expect(actionKindOf('chatbridge_button_0')).toBeUndefined();
  });

  it("cuts a card over Slack's limits, ending with an ellipsis", () => {
    const blocks = cardBlocks({
      title: 'A'.repeat(400),
      markdown: Array.from({ length: 400 }, (_, i) => `Line ${i} of a very long transcript`).join('\n\n'),
      actions: [],
    }) as Block[];
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section']);
    expect(blocks[0]!.text!.text.length).toBeLessThanOrEqual(HEADER_TEXT_MAX);
    expect(blocks[1]!.text!.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    expect(blocks[1]!.text!.text.endsWith('…')).toBe(true);
    expect(blocks[1]!.text!.text).toContain('Line 0 of');
  });

  it('uses the title as the text notifications show', () => {
    expect(cardText({ title: 'Ana · WhatsApp', markdown: '', actions: [] })).toBe('Ana · WhatsApp');
  });
});
