/** /start, /help and /reset. */
import type { Command, CommandRegistry } from './registry.js';
import { replies } from '../reply/index.js';

/** SuggestedMessage is one string; people separate suggestions with new lines, "|" or ";". */
export function splitSuggestions(suggested: string | undefined): string[] {
  return (suggested ?? '')
    .split(/\r?\n|\||;/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export const startCommand: Command = {
  name: 'start',
  description: 'say hello and see what to ask',
  async run(ctx) {
    const settings = await ctx.settings();
    const welcome = settings.WelcomeMessage?.trim() || replies.welcomeDefault;
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
    description: 'list the commands',
    run: (ctx) => ctx.reply(`${registry.helpText()}\n\nAnything else you write is answered by the assistant.`),
  };
}

export const resetCommand: Command = {
  name: 'reset',
  description: 'start a new conversation (the assistant forgets this one)',
  async run(ctx) {
    await ctx.services.sessions.reset(ctx.conversation);
    await ctx.reply(replies.resetDone);
  },
};
