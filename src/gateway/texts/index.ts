/**
 * The gateway's sentences in the chatbot's language: the catalogues (English in ../user-texts.ts,
 * the others here), the choice by AIResponseLanguage, and a bot's overrides from the config.
 */
export { BotTexts, userTextsFor, type TextsBot } from './bot-texts.js';
export type { Language, LanguageCode } from './language.js';
export { LANGUAGES, languageOf } from './languages.js';
export { assertTextOverrides, checkTextOverrides, type TextOverrideProblem, type TextOverrides } from './overrides.js';
export { PLACEHOLDERS, placeholdersOf, TEXT_KEYS, type PlaceholderFormat, type TextKey } from './placeholders.js';
