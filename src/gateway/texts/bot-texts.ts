/**
 * The catalogue a bot's conversation reads: its chatbot's AIResponseLanguage (languages.ts), with
 * the bot's overrides from the config on top (overrides.ts). Chosen at the moment the gateway
 * speaks, from the settings as they are then (the admin API may change the language at any time);
 * each (language, overrides) pair is built once.
 */
import type { UserTexts } from '../user-texts.js';
import type { Language, LanguageCode } from './language.js';
import { languageOf } from './languages.js';
import { withOverrides, type TextOverrides } from './overrides.js';

/** What of a bot the texts depend on (turn/turn-context.ts GatewayBot has it). */
export interface TextsBot {
  id: string;
  /** The settings the bot was configured with: the language known before any is read. */
  settings?: { AIResponseLanguage?: string };
  /** Its checked overrides (`bots[].texts`). */
  texts?: TextOverrides;
}

const built = new WeakMap<TextOverrides, Map<LanguageCode, UserTexts>>();

/** The catalogue for an AIResponseLanguage, with a bot's overrides over it. */
export function userTextsFor(aiResponseLanguage: string | undefined, overrides?: TextOverrides): UserTexts {
  const language = languageOf(aiResponseLanguage);
  if (!overrides || Object.keys(overrides).length === 0) return language.texts;
  return overridden(language, overrides);
}

function overridden(language: Language, overrides: TextOverrides): UserTexts {
  let byLanguage = built.get(overrides);
  if (!byLanguage) built.set(overrides, (byLanguage = new Map()));
  let texts = byLanguage.get(language.code);
  if (!texts) byLanguage.set(language.code, (texts = withOverrides(language, overrides)));
  return texts;
}

/**
 * The texts of each bot, remembering the language last read for it: a sentence said while the
 * settings cannot be read (the state store down: the patient sink's "your answer will come")
 * is in the language the chatbot spoke last, or was configured with, rather than failing.
 */
export class BotTexts {
  private readonly lastLanguage = new Map<string, string | undefined>();

  /** The texts for the bot with these settings (just read). */
  of(bot: TextsBot, settings: { AIResponseLanguage?: string }): UserTexts {
    this.lastLanguage.set(bot.id, settings.AIResponseLanguage);
    return userTextsFor(settings.AIResponseLanguage, bot.texts);
  }

  /** The texts for the bot, its settings read now; the last known ones when they cannot be. */
  async read(bot: TextsBot, settings: () => Promise<{ AIResponseLanguage?: string }>): Promise<UserTexts> {
    let read: { AIResponseLanguage?: string };
    try {
      read = await settings();
    } catch {
      return this.known(bot);
    }
    return this.of(bot, read);
  }

  /** Without reading anything: the language last read for the bot, else the one it was configured with. */
  known(bot: TextsBot): UserTexts {
    const language = this.lastLanguage.has(bot.id) ? this.lastLanguage.get(bot.id) : bot.settings?.AIResponseLanguage;
    return userTextsFor(language, bot.texts);
  }
}
