import { describe, expect, it } from 'vitest';
import { composeCard, type CardFacts } from '../../../../src/handoff/threads/index.js';

const since = Date.UTC(2026, 10, 27, 14, 5);
const facts: CardFacts = {
  user: { id: '4915112345678', name: 'Ana *Lima*' },
  platform: 'WhatsApp',
  chatbot: 'Oakridge Homes',
  reason: 'the user asked for a person (/human)',
  since,
  before: [
    {
      at: since - 3_000,
      role: 'user',
      text: 'Is the [flat](x) on Elm St. still free?',
      user: { id: '4915112345678', name: 'Ana *Lima*' },
    },
    { at: since - 2_000, role: 'bot', text: 'Yes! ' + 'a'.repeat(400) },
    { at: since - 1_000, role: 'system', text: 'Handed over to a person: …', event: 'handed-over' },
    { at: since - 500, role: 'operator', text: 'internal', operator: 'Bruno', note: true },
  ],
  inboxUrl: 'https://chat.example.com/inbox/link?token=abc',
  state: { kind: 'waiting' },
  relays: true,
};

describe("a handoff's card", () => {
  it('is titled after the user and their platform, as a topic name', () => {
    expect(composeCard(facts).title).toBe('Ana *Lima* · WhatsApp');
  });

  it("shows the user's words as written: their Markdown characters escaped", () => {
    const { markdown } = composeCard(facts);
    expect(markdown).toContain('**Ana \\*Lima\\*** on WhatsApp, writing to **Oakridge Homes**');
    expect(markdown).toContain('> **Ana \\*Lima\\*:** Is the \\[flat\\]\\(x\\) on Elm St\\. still free?');
  });

  it('quotes user, assistant and operator messages, not the handoff events or notes, each cut short', () => {
    const { markdown } = composeCard(facts);
    expect(markdown).toMatch(/> \*\*Assistant:\*\* Yes\\! a{290,}…/);
    expect(markdown).not.toContain('Handed over to a person');
    expect(markdown).not.toContain('internal');
  });

  it('links the inbox, and the thread of the handoff before when there is one', () => {
    const { markdown } = composeCard({ ...facts, previousUrl: 'https://slack.example/archives/C1/p1' });
    expect(markdown).toContain('[Open in the inbox](https://chat.example.com/inbox/link?token=abc)');
    expect(markdown).toContain('[The thread of the handoff before](https://slack.example/archives/C1/p1)');
  });

  it('offers Claim and Hand back while the handoff goes on, and says who holds it', () => {
    const waiting = composeCard(facts);
    expect(waiting.actions.map((action) => action.label)).toEqual(['Claim', 'Hand back']);
    expect(waiting.markdown).toContain('**Waiting for a person.** Reply in this thread to answer');
    const claimed = composeCard({ ...facts, state: { kind: 'claimed', by: 'Bruno', at: since + 60_000 } });
    expect(claimed.markdown).toContain('**Claimed by Bruno** at 27 Nov 2026, 14:06 UTC.');
    expect(claimed.actions).toHaveLength(2);
  });

  it('says who handed back and when, or that the pause ran out, and offers no button then', () => {
    const back = composeCard({ ...facts, state: { kind: 'ended', at: since + 3_600_000, by: 'Carla' } });
    expect(back.markdown).toContain('**Handed back to the assistant by Carla** at 27 Nov 2026, 15:05 UTC.');
    expect(back.markdown).toContain('Write in this thread to take the conversation over again.');
    expect(back.actions).toEqual([]);
    const ran = composeCard({ ...facts, state: { kind: 'ended', at: since + 86_400_000 } });
    expect(ran.markdown).toContain('**The pause ran out** at 28 Nov 2026, 14:05 UTC');
  });

  it('in alerts mode points to the inbox and offers no button', () => {
    const alert = composeCard({ ...facts, relays: false });
    expect(alert.actions).toEqual([]);
    expect(alert.markdown).toContain('**Waiting for a person.** Answer from the inbox.');
  });
});
