import { describe, expect, it } from 'vitest';
import { BotTexts } from '../../../../src/gateway/texts/index.js';
import { userTextsFor } from '../../../../src/gateway/index.js';

const spanish = userTextsFor('Spanish');
const german = userTextsFor('German');

describe("a bot's texts (BotTexts)", () => {
  it('follow the settings as they are read at the moment the gateway speaks', async () => {
    const texts = new BotTexts();
    const bot = { id: 'main' };
    expect(await texts.read(bot, async () => ({ AIResponseLanguage: 'Spanish' }))).toBe(spanish);
    expect(await texts.read(bot, async () => ({ AIResponseLanguage: 'German' }))).toBe(german);
  });

  it('while the settings cannot be read (the state store down), speak the language read last', async () => {
    const texts = new BotTexts();
    const bot = { id: 'main', settings: { AIResponseLanguage: 'French' } };
    await texts.read(bot, async () => ({ AIResponseLanguage: 'German' }));
    const down = async (): Promise<never> => {
      throw new Error('connection is closed');
    };
    expect(await texts.read(bot, down)).toBe(german);
    expect(texts.known(bot)).toBe(german);
  });

  it('before any read, speak the language the bot was configured with', async () => {
    const texts = new BotTexts();
    const bot = { id: 'main', settings: { AIResponseLanguage: 'Spanish' } };
    expect(texts.known(bot)).toBe(spanish);
    expect(texts.known({ id: 'other' })).toBe(userTextsFor(undefined));
  });
});
