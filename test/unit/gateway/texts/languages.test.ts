import { describe, expect, it } from 'vitest';
import { LANGUAGES, languageOf, TEXT_KEYS, userTexts, userTextsFor } from '../../../../src/gateway/index.js';
import type { UserTexts } from '../../../../src/gateway/index.js';

const MB = 1024 * 1024;

/** Every sentence of a catalogue, functions called with sample values, by key. */
function sentences(texts: UserTexts): Map<string, string> {
  const samples: Record<string, unknown[]> = {
    poisonMessage: [3],
    queueFull: [2],
    messageTooLong: [20_000, 20_001],
    unknownCommand: ['foo', '- `/help`'],
    'listings.header': [1, 3, 25],
    'listings.headerInCity': ['Austin', 1, 3, 25],
    'listings.pastTheEnd': [3, '/listings'],
    'listings.pastTheEndInCity': ['Austin', 3, '/listings Austin'],
    'listings.noneFoundInCity': ['Austin'],
    'listings.nextPageHint': ['/listings 2'],
    'listings.previousPageHint': ['/listings 1'],
    'listings.hints': [['`/listings 2`']],
    'listings.bedrooms': ['3'],
    'listings.bathrooms': ['2'],
    'media.tooLarge': ['photo', 'image', 20 * MB],
    'media.tooLargeOfSize': ['photo', 'image', 20 * MB, 23.4 * MB],
    'media.tooLargeToDownload': ['video', 20 * MB],
    'media.tooLargeToDownloadOfSize': ['video', 20 * MB, 60 * MB],
    'media.tooLargeFile': [100 * MB],
    'media.tooLargeFileOfSize': [100 * MB, 150 * MB],
    'media.tooLong': ['voice message', 20],
    'media.tooMany.image': [10],
    'media.imageFormat': ['bmp'],
    'media.videoFormat': ['webm'],
    'media.notMedia': [['image', 'audio']],
    'media.notMediaOfType': ['pdf', ['image', 'audio']],
    'media.undecodableAudio': ['voice message'],
    'media.transcoderMissing': ['amr'],
    'media.gone': ['photo'],
    'media.unavailable': ['file'],
    'media.refusedByService': ['photo', 'Uploads are off.'],
  };
  return new Map(
    TEXT_KEYS.map((key) => {
      let node: unknown = texts;
      for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
      const sentence = typeof node === 'function' ? (node as (...args: unknown[]) => string)(...samples[key]!) : node;
      return [key, sentence as string];
    }),
  );
}

describe("the gateway's languages", () => {
  it('speak English, Spanish, Portuguese, French and German', () => {
    expect(LANGUAGES.map(({ name }) => name)).toEqual(['English', 'Spanish', 'Portuguese', 'French', 'German']);
  });

  it.each([
    ['Spanish', 'es'],
    ['spanish', 'es'],
    ['Español', 'es'],
    ['espanol', 'es'],
    ['es', 'es'],
    ['es-MX', 'es'],
    ['spa', 'es'],
    ['Portuguese', 'pt'],
    ['Português', 'pt'],
    ['pt-BR', 'pt'],
    ['pt_PT', 'pt'],
    ['Brazilian Portuguese', 'pt'],
    ['French', 'fr'],
    ['Français', 'fr'],
    ['fr-CA', 'fr'],
    ['German', 'de'],
    ['Deutsch', 'de'],
    ['de-AT', 'de'],
    ['English', 'en'],
    ['English (US)', 'en'],
    ['  German  ', 'de'],
  ])('read AIResponseLanguage "%s" as %s', (setting, code) => {
    expect(languageOf(setting).code).toBe(code);
  });

  it.each([['Italian'], ['Klingon'], ['ja'], ['zh-Hant-TW'], [''], [undefined]])(
    'fall back to English for "%s"',
    (setting) => {
      expect(languageOf(setting).code).toBe('en');
      expect(userTextsFor(setting)).toBe(userTexts);
    },
  );

  it('say every sentence in each language, not in English (but the ellipsis of a superseded message)', () => {
    const english = sentences(userTexts);
    for (const language of LANGUAGES.slice(1)) {
      const own = sentences(language.texts);
      const untranslated = [...own].filter(([key, text]) => text === english.get(key)).map(([key]) => key);
      expect({ language: language.name, untranslated }).toEqual({
        language: language.name,
        untranslated: ['supersededMessage'],
      });
      for (const [key, text] of own) expect({ key, text: text.trim() }).not.toEqual({ key, text: '' });
    }
  });

  it("keep the Markdown and commands a sentence carries: a command's backticks, /human, the title's bold", () => {
    for (const { texts } of LANGUAGES) {
      expect(texts.listings.noneFoundInCity('Austin')).toContain('`/listings`');
      expect(texts.listings.pastTheEnd(3, '/listings')).toContain('`/listings`');
      expect(texts.handoff.offerWithoutButtons).toContain('/human');
      expect(texts.commandsTitle).toMatch(/^\*\*.+\*\*$/);
      expect(texts.unknownCommand('foo', 'HELP')).toMatch(/\/foo[\s\S]*\n\nHELP$/);
    }
  });

  it("group numbers the language's way", () => {
    const tooLong = (name: string) => userTextsFor(name).messageTooLong(20_000, 123_456);
    expect(tooLong('English')).toContain('up to 20,000 characters');
    expect(tooLong('Spanish')).toContain('hasta 20.000 caracteres');
    expect(tooLong('Spanish')).toContain('tiene 123.456');
    expect(tooLong('Portuguese')).toContain('até 20.000 caracteres');
    expect(tooLong('French')).toMatch(/jusqu'à 20\s000 caractères/);
    expect(tooLong('German')).toContain('bis zu 20.000 Zeichen');
  });

  it("write sizes in the language's style", () => {
    const size = (name: string) => userTextsFor(name).media.tooLargeOfSize('photo', 'image', 20 * MB, 23.4 * MB);
    expect(size('English')).toBe('This photo is 23.4 MB; the limit is 20 MB per image.');
    expect(size('Spanish')).toBe('Esta foto ocupa 23,4 MB; el límite es de 20 MB por imagen.');
    expect(size('Portuguese')).toBe('Esta foto tem 23,4 MB; o limite é de 20 MB por imagem.');
    expect(size('French')).toBe('Cette photo fait 23,4 Mo ; la limite est de 20 Mo par image.');
    expect(size('German')).toBe('Dieses Foto ist 23,4 MB groß; das Limit liegt bei 20 MB pro Bild.');
    expect(userTextsFor('French').media.tooLargeFile(512)).toContain('512 octets');
  });

  it('name a file with the article its noun takes', () => {
    expect(userTextsFor('Spanish').media.gone('video')).toMatch(/^No pude leer este video:/);
    expect(userTextsFor('Portuguese').media.unavailable('voice message')).toContain('esta mensagem de voz');
    expect(userTextsFor('French').media.tooLarge('voice message', 'audio', 40 * MB)).toMatch(/^Ce message vocal /);
    expect(userTextsFor('German').media.tooLong('audio file', 20)).toMatch(/^Diese Audiodatei ist zu lang/);
  });
});
