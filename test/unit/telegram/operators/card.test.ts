import { describe, expect, it } from 'vitest';
import { actionData, actionOfData, renderCard } from '../../../../adapters/telegram/operators/card.js';
import { topicName, topicUrl } from '../../../../adapters/telegram/operators/door.js';
import { htmlVisibleText } from '../../../../src/contract.js';

describe('Telegram operator door: the card', () => {
  it("renders the handoff's Markdown as Telegram HTML, with one button per action", () => {
    const card = renderCard({
      title: 'Ada · Slack',
      markdown: '**Ada** <script> [inbox](https://gw.example/inbox/1)',
      actions: [
        { kind: 'claim', label: 'Claim' },
        { kind: 'hand-back', label: 'Hand back' },
      ],
    });
    expect(card.html).toBe('<b>Ada</b> &lt;script&gt; <a href="https://gw.example/inbox/1">inbox</a>');
    expect(card.keyboard?.inline_keyboard).toEqual([
      [
        { text: 'Claim', callback_data: actionData('claim') },
        { text: 'Hand back', callback_data: actionData('hand-back') },
      ],
    ]);
  });

  it('cuts a card longer than a message to 4096 visible characters, ending with "…"', () => {
    const card = renderCard({ title: 't', markdown: 'word '.repeat(2000), actions: [] });
    const visible = htmlVisibleText(card.html);
    expect(visible.length).toBeLessThanOrEqual(4096);
    expect(visible.endsWith('…')).toBe(true);
    expect(card.keyboard).toBeUndefined();
  });

  it("reads back its own buttons' data only, well within Telegram's 64 bytes", () => {
    expect(Buffer.byteLength(actionData('hand-back'))).toBeLessThanOrEqual(64);
    expect(actionOfData(actionData('claim'))).toBe('claim');
    expect(actionOfData(actionData('hand-back'))).toBe('hand-back');
    expect(actionOfData('cbdoor:delete')).toBeUndefined();
    expect(actionOfData('claim')).toBeUndefined();
  });

  it('names a topic on one line within 128 characters, and links it', () => {
    expect(topicName('Ada\nLovelace ·  WhatsApp')).toBe('Ada Lovelace · WhatsApp');
    expect([...topicName('é'.repeat(200))].length).toBe(128);
    expect(topicUrl(-1001234567890, 12)).toBe('https://t.me/c/1234567890/12');
    expect(topicUrl('@acme', 12)).toBe('https://t.me/acme/12');
  });
});
