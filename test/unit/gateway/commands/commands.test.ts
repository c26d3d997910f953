import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand, replies, splitSuggestions } from '../../../../src/gateway/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { listingItem } from '../../../../fakes/chatbot-service/index.js';
import { eventually } from '../support/recording-adapter.js';

describe('commands', () => {
  let harness: Harness;
  afterEach(() => harness.stop());

  it('/start greets with the WelcomeMessage and offers the SuggestedMessage lines as suggestions', async () => {
    harness = await startHarness({
      settings: {
        WelcomeMessage: 'Welcome to Oak Realty!',
        SuggestedMessage: 'Homes in Austin?\nWhat can I rent? | Book a tour',
        UserInputPlaceholder: 'Ask about a home',
      },
    });
    const { adapter, service } = harness;
    await adapter.say('c1', '/start');
    const [greeting] = await eventually(() => {
      const messages = adapter.messagesIn('c1');
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(greeting).toMatchObject({
      text: 'Welcome to Oak Realty!',
      suggestions: ['Homes in Austin?', 'What can I rent?', 'Book a tour'],
      inputPlaceholder: 'Ask about a home',
    });
    expect(service.asks).toEqual([]);
  });

  it('/start falls back to a default greeting when the chatbot has no WelcomeMessage', async () => {
    harness = await startHarness();
    await harness.adapter.say('c1', '/start@OakRealtyBot');
    await eventually(() =>
      expect(harness.adapter.messagesIn('c1')).toEqual([expect.objectContaining({ text: replies.welcomeDefault })]),
    );
    expect(harness.adapter.messagesIn('c1')[0]!.suggestions).toBeUndefined();
  });

  it('/help lists the commands, and an unknown command gets the list too', async () => {
    harness = await startHarness();
    const { adapter } = harness;
    await adapter.say('c1', '/help');
    await adapter.say('c1', '/frobnicate now');
    const [help, unknown] = await eventually(() => {
      const texts = adapter.textsIn('c1');
      expect(texts).toHaveLength(2);
      return texts;
    });
    for (const command of ['/start', '/help', '/reset', '/listings [city]']) expect(help).toContain(command);
    expect(unknown).toContain("I don't know the command /frobnicate.");
    expect(unknown).toContain('/listings [city]');
    expect(harness.service.asks).toEqual([]);
  });

  it('/reset starts a new service session for the next message', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    await adapter.say('c1', 'before');
    await adapter.say('c1', 'still the same conversation');
    await adapter.say('c1', '/reset');
    await adapter.say('c1', 'after');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(4));
    expect(adapter.textsIn('c1')[2]).toBe(replies.resetDone);
    const [first, second, third] = service.asks.map((ask) => ask.sessionId);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
  });

  it('/listings shows five listings a page, with Next and Previous buttons that page through them', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    const messageAt = (index: number) => expectDefined(adapter.messagesIn('c1')[index]);
    service.listings = [
      ...Array.from({ length: 7 }, (_, i) => listingItem(i + 1, 'Austin')),
      listingItem(50, 'Dallas'),
    ];
    await adapter.say('c1', '/listings Austin');
    const first = await eventually(() => messageAt(0));
    expect(first.text).toContain('Listings in Austin · page 1 of 2 (7 in all)');
    expect(first.text).toContain('1 Main St');
    expect(first.text).toContain('5 Main St');
    expect(first.text).not.toContain('6 Main St');
    expect(first.buttons).toEqual([{ label: 'Next »', value: 'listings:2:Austin' }]);

    await adapter.say('c1', '', { action: { id: 'press-1', value: first.buttons![0]!.value } });
    const second = await eventually(() => messageAt(1));
    expect(second.text).toContain('page 2 of 2');
    expect(second.text).toContain('7 Main St');
    expect(second.text).not.toContain('Dallas');
    expect(second.buttons).toEqual([{ label: '« Previous', value: 'listings:1:Austin' }]);
    for (const button of [...first.buttons!, ...second.buttons!])
      expect(Buffer.byteLength(button.value)).toBeLessThanOrEqual(64);
  });

  it('/listings says how to page with a command where the platform has no buttons', async () => {
    harness = await startHarness({ capabilities: { buttons: false } });
    const { adapter, service } = harness;
    const messageAt = (index: number) => expectDefined(adapter.messagesIn('c1')[index]);
    service.listings = Array.from({ length: 6 }, (_, i) => listingItem(i + 1, 'Austin'));
    await adapter.say('c1', '/listings');
    const page = await eventually(() => messageAt(0));
    expect(page.buttons).toBeUndefined();
    expect(page.text).toContain('Send /listings 2 for the next page.');
  });

  it('/listings tells the user when a city has no listings', async () => {
    harness = await startHarness();
    await harness.adapter.say('c1', '/listings Atlantis');
    await eventually(() => expect(harness.adapter.textsIn('c1')[0]).toContain('No listings found in Atlantis.'));
  });

  it("a command registered from outside (the handoff's /human) runs and shows in /help", async () => {
    harness = await startHarness();
    const { adapter, gateway } = harness;
    gateway.commands.register({
      name: 'human',
      description: 'talk to a person',
      run: (ctx) => ctx.reply('A person will answer you soon.'),
    });
    await adapter.say('c1', '/human');
    await adapter.say('c1', '/help');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    expect(adapter.textsIn('c1')[0]).toBe('A person will answer you soon.');
    expect(adapter.textsIn('c1')[1]).toContain('/human');
  });

  it('answers a press of a button nobody handles any more with a hint instead of silence', async () => {
    harness = await startHarness();
    await harness.adapter.say('c1', '', { action: { id: 'old', value: 'gone:1' } });
    await eventually(() => expect(harness.adapter.textsIn('c1')).toEqual([replies.staleButton]));
  });
});

function expectDefined<T>(value: T | undefined): T {
  expect(value).toBeDefined();
  return value!;
}

describe('parsing', () => {
  it('reads /name, /name args and /name@Bot args, and leaves paths and prose alone', () => {
    expect(parseCommand('/start')).toEqual({ name: 'start', args: '' });
    expect(parseCommand('/Listings  San Francisco ')).toEqual({ name: 'listings', args: 'San Francisco' });
    expect(parseCommand('/listings@OakBot Austin')).toEqual({ name: 'listings', args: 'Austin' });
    expect(parseCommand('/usr/bin is missing')).toBeNull();
    expect(parseCommand('what does /start do?')).toBeNull();
  });

  it('splits SuggestedMessage on new lines, "|" and ";"', () => {
    expect(splitSuggestions('a\nb | c;d\r\n\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitSuggestions(undefined)).toEqual([]);
  });
});
