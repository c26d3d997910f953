/** /start, /help and /reset. */
import type { Command, CommandRegistry } from './registry.js';
import { userTexts } from '../user-texts.js';

/** SuggestedMessage is one string; people separate suggestions with new lines, "|" or ";". */
export function splitSuggestions(suggested: string | undefined): string[] {
  return (suggested ?? '')
    .split(/\r?\n|\||;/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export const startCommand: Command = {
  name: 'start',
  get description() {
    return userTexts.commandDescriptions.start;
  },
  async run(ctx) {
    const settings = await ctx.settings();
    const welcome = settings.WelcomeMessage?.trim() || userTexts.welcomeDefault;
    const suggestions = splitSuggestions(settings.SuggestedMessage);
    const placeholder = settings.UserInputPlaceholder?.trim();
    await ctx.reply(welcome, {
      ...(suggestions.length ? { suggestions } : {}),
      ...(placeholder ? { inputPlaceholder: placeholder } : {}),
    });
  },
};

export function helpCommand(registry: CommandRegistry): Command {
  return {
    name: 'help',
    get description() {
      return userTexts.commandDescriptions.help;
    },
    run: (ctx) => ctx.reply(`${registry.helpText()}\n\n${userTexts.helpFooter}`),
  };
}

export const resetCommand: Command = {
  name: 'reset',
  get description() {
    return userTexts.commandDescriptions.reset;
  },
  async run(ctx) {
    await ctx.services.sessions.reset(ctx.conversation);
    await ctx.reply(userTexts.resetDone);
  },
};
