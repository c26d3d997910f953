/** /start, /help and /reset. */
import type { Command, CommandRegistry } from './registry.js';

/** SuggestedMessage is one string; people separate suggestions with new lines, "|" or ";". */
export function splitSuggestions(suggested: string | undefined): string[] {
  return (suggested ?? '')
    .split(/\r?\n|\||;/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export const startCommand: Command = {
  name: 'start',
  description: (texts) => texts.commandDescriptions.start,
  async run(ctx) {
    const settings = await ctx.settings();
    const welcome = settings.WelcomeMessage?.trim() || (await ctx.texts()).welcomeDefault;
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
    description: (texts) => texts.commandDescriptions.help,
    async run(ctx) {
      const texts = await ctx.texts();
      await ctx.reply(`${registry.helpText(texts)}\n\n${texts.helpFooter}`);
    },
  };
}

export const resetCommand: Command = {
  name: 'reset',
  description: (texts) => texts.commandDescriptions.reset,
  async run(ctx) {
    await ctx.services.sessions.reset(ctx.conversation);
    await ctx.reply((await ctx.texts()).resetDone);
  },
};
