import { describe, expect, it } from 'vitest';
import { checkTextOverrides, userTexts, userTextsFor, type TextOverrides } from '../../../../src/gateway/index.js';

const MB = 1024 * 1024;

/** The overrides as the config would hand them over, checked. */
function checked(raw: Record<string, unknown>): TextOverrides {
  const { overrides, problems } = checkTextOverrides(raw);
  expect(problems).toEqual([]);
  return overrides;
}

describe("a bot's own sentences (bots[].texts)", () => {
  it('replace a sentence in every language, and leave the others to the language', () => {
    const overrides = checked({ 'handoff.defaultReply': 'Un agente te escribirá pronto.' });
    for (const language of ['English', 'Spanish', 'German']) {
      expect(userTextsFor(language, overrides).handoff.defaultReply).toBe('Un agente te escribirá pronto.');
    }
    expect(userTextsFor('Spanish', overrides).handoff.botIsBack).toBe(userTextsFor('Spanish').handoff.botIsBack);
    expect(userTexts.handoff.defaultReply).toBe(
      'I have asked a person to help you. They will answer here as soon as they can.',
    );
  });

  it('may be written nested, as YAML maps, as well as with dotted keys', () => {
    const overrides = checked({ media: { sticker: 'No stickers here.', disabled: { audio: 'No voice, please.' } } });
    expect(Object.keys(overrides).sort()).toEqual(['media.disabled.audio', 'media.sticker']);
    expect(userTextsFor('French', overrides).media.disabled.audio).toBe('No voice, please.');
  });

  it("fill a function sentence's placeholders, each written the chatbot's language's way", () => {
    const overrides = checked({
      queueFull: 'Tienes {waiting} mensajes esperando.',
      messageTooLong: 'Máximo {limit} caracteres; el tuyo tiene {length}.',
      'media.tooLargeOfSize': '{noun}: {size}, máximo {limit} por {kind}.',
      'media.notMediaOfType': '{ext} no; sí {accepted}.',
      'listings.hints': 'Manda {hints}.',
    });
    const spanish = userTextsFor('Spanish', overrides);
    expect(spanish.queueFull(12_000)).toBe('Tienes 12.000 mensajes esperando.');
    expect(spanish.messageTooLong(20_000, 20_001)).toBe('Máximo 20.000 caracteres; el tuyo tiene 20.001.');
    expect(spanish.media.tooLargeOfSize('photo', 'image', 20 * MB, 23.4 * MB)).toBe(
      'foto: 23,4 MB, máximo 20 MB por imagen.',
    );
    expect(spanish.media.notMediaOfType('pdf', ['image', 'audio'])).toBe('PDF no; sí fotos y mensajes de voz.');
    expect(spanish.listings.hints(['`/listings 1`', '`/listings 3`'])).toBe('Manda `/listings 1` o `/listings 3`.');
    expect(userTextsFor('English', overrides).messageTooLong(20_000, 20_001)).toBe(
      'Máximo 20,000 caracteres; el tuyo tiene 20,001.',
    );
  });

  it('write {{ and }} as literal braces', () => {
    const overrides = checked({ staleButton: 'That button is {{old}}.', queueFull: '{{{waiting}}} waiting' });
    expect(userTextsFor('English', overrides).staleButton).toBe('That button is {old}.');
    expect(userTextsFor('English', overrides).queueFull(3)).toBe('{3} waiting');
  });

  it('refuse a key the catalogue does not have, by name, with the keys it may stand for', () => {
    const { problems, overrides } = checkTextOverrides({ 'media.stikcer': 'x', welcomeDefault: 'Hi!' });
    expect(overrides).toEqual({ welcomeDefault: 'Hi!' });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.key).toBe('media.stikcer');
    expect(problems[0]!.message).toContain('did you mean media.sticker');
    expect(problems[0]!.message).toContain('README "The gateway\'s languages"');
  });

  it('point a key that names a group at the sentences in it', () => {
    const [problem] = checkTextOverrides({ 'media.disabled': 'No files.' }).problems;
    expect(problem!.message).toContain('did you mean media.disabled.image, media.disabled.video, media.disabled.audio');
  });

  it('refuse a placeholder the sentence does not have, naming it and the ones it has', () => {
    const [problem] = checkTextOverrides({ queueFull: 'You have {count} waiting, {waiting}.' }).problems;
    expect(problem).toEqual({ key: 'queueFull', message: expect.stringContaining('{count}: no such placeholder') });
    expect(problem!.message).toContain('its placeholders are {waiting}');
    const [plain] = checkTextOverrides({ welcomeDefault: 'Hi {name}!' }).problems;
    expect(plain!.message).toContain('{name}: no such placeholder in this sentence (it has none');
  });

  it('refuse a value that is not a sentence', () => {
    const [problem] = checkTextOverrides({ welcomeDefault: 42 }).problems;
    expect(problem).toEqual({ key: 'welcomeDefault', message: 'must be a sentence (a string), not a number' });
  });

  it('build each language of a bot once', () => {
    const overrides = checked({ welcomeDefault: 'Hi!' });
    expect(userTextsFor('Spanish', overrides)).toBe(userTextsFor('es', overrides));
  });
});
