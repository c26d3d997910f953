/**
 * Which catalogue a chatbot's AIResponseLanguage reads. The Chatbot Service names the language
 * in full, in English ("Spanish"); the name in the language itself ("Español"), with or without
 * its accents, a longer name that contains one ("Brazilian Portuguese", "English (US)") and an
 * ISO 639 code or locale ("es", "spa", "pt-BR", "de_AT") are understood too. Anything else, and no
 * setting at all, is English.
 */
import { german } from './de.js';
import { english } from './en.js';
import { spanish } from './es.js';
import { french } from './fr.js';
import type { Language, LanguageCode } from './language.js';
import { portuguese } from './pt.js';

/** Every language the gateway speaks, English first (the fallback). */
export const LANGUAGES: readonly Language[] = [english, spanish, portuguese, french, german];

const BY_CODE = new Map<string, Language>(LANGUAGES.map((language) => [language.code, language]));
/** ISO 639-2 codes of the same languages (both forms where it has two). */
const THREE_LETTER_CODES: Record<string, LanguageCode> = {
  eng: 'en',
  spa: 'es',
  por: 'pt',
  fra: 'fr',
  fre: 'fr',
  deu: 'de',
  ger: 'de',
};

/** Names of each language, lowercase and without accents: in English, in itself, and in the other four. */
const NAMES: Record<LanguageCode, readonly string[]> = {
  en: ['english', 'ingles', 'anglais', 'englisch'],
  es: ['spanish', 'espanol', 'castellano', 'castilian', 'espanhol', 'espagnol', 'spanisch'],
  pt: ['portuguese', 'portugues', 'portugais', 'portugiesisch'],
  fr: ['french', 'francais', 'frances', 'franzosisch'],
  de: ['german', 'deutsch', 'aleman', 'alemao', 'allemand'],
};
const BY_NAME = new Map<string, Language>(
  Object.entries(NAMES).flatMap(([code, names]) => names.map((name) => [name, BY_CODE.get(code)!] as const)),
);

/** `es`, `pt-BR`, `de_AT`, `zh-Hant-TW`: a code, and its region or script. */
const LANGUAGE_TAG = /^([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*$/;

/** The catalogue for an AIResponseLanguage; English for any other language, and when it is not set. */
export function languageOf(aiResponseLanguage: string | undefined): Language {
  const plain = (aiResponseLanguage ?? '').normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
  const tag = LANGUAGE_TAG.exec(plain);
  if (tag) return BY_CODE.get(THREE_LETTER_CODES[tag[1]!] ?? tag[1]!) ?? english;
  for (const word of plain.match(/[a-z]+/g) ?? []) {
    const named = BY_NAME.get(word);
    if (named) return named;
  }
  return english;
}
