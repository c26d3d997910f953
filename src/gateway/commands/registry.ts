import type { Step, TurnContext } from '../turn/index.js';
import type { UserTexts } from '../user-texts.js';
/**
 * Commands (`/name args`) and button actions (`prefix:payload`), registered by
 * name. The built-in ones live next to this file; others (the handoff's /human)
 * are registered from outside through `gateway.commands.register`.
 */

export interface Command {
  /** Without the slash, lowercase: "listings". */
  name: string;
  /**
   * One line for /help and a platform's command menu: a sentence of the catalogue, so that /help
   * speaks the chatbot's language (a fixed string is said as it is, in every language).
   */
  description: string | ((texts: UserTexts) => string);
  /** Shown in /help instead of `/name`, e.g. "/listings [city]". */
  usage?: string;
  /** Left out of /help. */
  hidden?: boolean;
  run(ctx: TurnContext, args: string): Promise<void>;
}

/** A button press whose value starts with `prefix:`; `payload` is the rest. */
export interface ButtonAction {
  prefix: string;
  run(ctx: TurnContext, payload: string): Promise<void>;
}

/** `/name`, `/name args`, and Telegram's `/name@BotName args`. A path like "/usr/bin" is not a command. */
const COMMAND_PATTERN = /^\/([a-z0-9_]{1,32})(?:@[a-z0-9_]+)?(?:\s+([\s\S]*))?$/i;

/** A command's line of /help in the language of `texts`. */
export function describeCommand(command: Pick<Command, 'description'>, texts: UserTexts): string {
  return typeof command.description === 'string' ? command.description : command.description(texts);
}

export function parseCommand(text: string): { name: string; args: string } | null {
  const match = COMMAND_PATTERN.exec(text.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), args: (match[2] ?? '').trim() };
}

/** A message answered on its own, never merged into a burst's question (turn/burst.ts): a command or a button press. */
export function isCommandLike(message: { text: string; action?: unknown }): boolean {
  return message.action !== undefined || parseCommand(message.text) !== null;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  private readonly actions = new Map<string, ButtonAction>();

  /** Adds (or replaces) a command; returns its removal. */
  register(command: Command): () => void {
    const name = command.name.toLowerCase();
    if (!/^[a-z0-9_]{1,32}$/.test(name)) {
      throw new Error(
        `Command name "${command.name}" is not valid: use 1-32 letters, digits or underscores, without the slash.`,
      );
    }
    this.commands.set(name, { ...command, name });
    return () => {
      this.commands.delete(name);
    };
  }

  registerAction(action: ButtonAction): () => void {
    if (action.prefix.includes(':')) throw new Error(`Button action prefix "${action.prefix}" must not contain ":".`);
    this.actions.set(action.prefix, action);
    return () => {
      this.actions.delete(action.prefix);
    };
  }

  get(name: string): Command | undefined {
    return this.commands.get(name.toLowerCase());
  }

  action(value: string): { action: ButtonAction; payload: string } | undefined {
    const colon = value.indexOf(':');
    const prefix = colon < 0 ? value : value.slice(0, colon);
    const action = this.actions.get(prefix);
    return action && { action, payload: colon < 0 ? '' : value.slice(colon + 1) };
  }

  /** The visible commands, in registration order. */
  list(): Command[] {
    return [...this.commands.values()].filter((command) => !command.hidden);
  }

  /** Markdown list of the commands, for /help and unknown commands, in the language of `texts`. */
  helpText(texts: UserTexts): string {
    const lines = this.list().map(
      (command) => `- \`${command.usage ?? `/${command.name}`}\` — ${describeCommand(command, texts)}`,
    );
    return [texts.commandsTitle, '', ...lines].join('\n');
  }
}

/**
 * The pipeline step: a button press goes to its action, `/name` to its command
 * (an unknown one gets the list of commands), anything else to the next step.
 */
export function commandStep(registry: CommandRegistry): Step {
  return async (ctx, next) => {
    const { action } = ctx.inbound;
    if (action) {
      const found = registry.action(action.value);
      if (found) return found.action.run(ctx, found.payload);
      ctx.logger.debug({ value: action.value }, 'button press with no registered action');
      return ctx.reply((await ctx.texts()).staleButton);
    }
    const parsed = parseCommand(ctx.inbound.text);
    if (!parsed) return next();
    const command = registry.get(parsed.name);
    if (!command) {
      const texts = await ctx.texts();
      return ctx.reply(texts.unknownCommand(parsed.name, registry.helpText(texts)));
    }
    await command.run(ctx, parsed.args);
  };
}
