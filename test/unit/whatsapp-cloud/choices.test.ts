/**
 * A reply with the number of a numbered choice asks that question or presses that button, in
 * any process (the meaning is in the bot's platform storage); once the bot has said something
 * else, a number is just a number.
 */
import { describe, expect, it } from 'vitest';
import { NumberedChoices } from '../../../adapters/whatsapp-cloud/choices.js';
import { choicesOf } from '../../../adapters/whatsapp-cloud/interactive.js';
import type { Inbound } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../src/state/index.js';

const USER = '4915112345678';
const typed = (text: string): Inbound => ({
  conversation: { bot: 'main', platform: 'whatsapp-cloud', id: USER },
  user: { id: USER },
  text,
  attachments: [],
  isGroup: false,
  addressed: true,
  platformMessageId: 'wamid.REPLY',
  sentAt: 0,
});

describe('numbered choices', () => {
  const state = new MemoryStateStore({ prefix: 'choices:' });
  const storage = () => platformStorage(state, 'whatsapp-cloud', 'main', { conversationIdleTtlMs: 60_000 });
  const choices = choicesOf({
    buttons: [{ label: 'Talk to a person', value: 'handoff:offer' }],
    suggestions: ['Which neighbourhoods are good for families with children?'],
  });

  it('turns "1" into a button press and "2." into the question, from another replica too', async () => {
    await new NumberedChoices(storage(), silentLogger()).remember(USER, choices);
    const other = new NumberedChoices(storage(), silentLogger());
    expect(await other.resolve(typed('1'))).toMatchObject({
      text: 'Talk to a person',
      action: { id: 'wamid.REPLY', value: 'handoff:offer' },
    });
    expect(await other.resolve(typed(' 2. '))).toMatchObject({
      text: 'Which neighbourhoods are good for families with children?',
    });
    expect((await other.resolve(typed(' 2. '))).action).toBeUndefined();
  });

  it('leaves a number that names no choice, a longer text, and a number after the bot said something else, as typed', async () => {
    const numbered = new NumberedChoices(storage(), silentLogger());
    await numbered.remember(USER, choices);
    expect((await numbered.resolve(typed('3'))).text).toBe('3');
    expect((await numbered.resolve(typed('2 bedrooms'))).text).toBe('2 bedrooms');
    await numbered.forget(USER);
    expect(await numbered.resolve(typed('1'))).toEqual(typed('1'));
  });
});
