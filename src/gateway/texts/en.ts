/** English: the catalogue of user-texts.ts, and how an override's values are written in English. */
import { ENGLISH_KIND_NAMES, ENGLISH_LIMIT_UNITS, formatBytes, userTexts } from '../user-texts.js';
import { numberIn, type Language } from './language.js';

export const english: Language = {
  code: 'en',
  name: 'English',
  locale: 'en-US',
  texts: userTexts,
  number: numberIn('en-US'),
  bytes: formatBytes,
  nouns: {
    photo: 'photo',
    image: 'image',
    video: 'video',
    'voice message': 'voice message',
    'audio file': 'audio file',
    file: 'file',
  },
  units: ENGLISH_LIMIT_UNITS,
  kinds: ENGLISH_KIND_NAMES,
};
