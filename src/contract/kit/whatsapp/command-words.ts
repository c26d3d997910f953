/**
 * Commands as words, for a platform without a command menu (WhatsApp): a message that is
 * exactly the name of a command the core answers (`help`, `reset`, `human`, `listings`,
 * `start`), in any case, is that command; `/help` typed with the slash is one as well. Words
 * after the name make it a command only when the command takes arguments (`listings Austin`):
 * "help me find a flat" is a question, not /help.
 */

/** A command as the core tells it to the adapter at start (`Adapter.start`, src/contract/adapter.ts). */
export interface CommandInfo {
  name: string;
  description: string;
  /** How it is typed with its arguments, e.g. "/listings [city]"; absent when it takes none. */
  usage?: string;
}

/** The commands every gateway answers, for an adapter started without the core's list (tests). */
export const DEFAULT_COMMANDS: readonly CommandInfo[] = [
  { name: 'start', description: '' },
  { name: 'help', description: '' },
  { name: 'reset', description: '' },
  { name: 'listings', description: '', usage: '/listings [city]' },
];

const takesArguments = (command: CommandInfo): boolean => /\s\S/.test(command.usage?.trim() ?? '');

export class CommandWords {
  private readonly byName: Map<string, CommandInfo>;

  constructor(commands: readonly CommandInfo[]) {
    this.byName = new Map(commands.map((command) => [command.name.toLowerCase(), command]));
  }

  /** "Reset" → "/reset", "listings Austin 2" → "/listings Austin 2"; undefined when the text is not a command word. */
  commandOf(text: string): string | undefined {
    const match = /^([a-z0-9_]{1,32})(?:\s+([\s\S]*))?$/i.exec(text.trim());
    if (!match) return undefined;
    const name = match[1]!.toLowerCase();
    const command = this.byName.get(name);
    if (!command) return undefined;
    const args = (match[2] ?? '').trim();
    if (args && !takesArguments(command)) return undefined;
    return args ? `/${name} ${args}` : `/${name}`;
  }

  /** Whether the text is the `start` command, as a word or with the slash (the greeting itself). */
  isStart(text: string): boolean {
    const trimmed = text.trim();
    return /^\/start(\s|$)/i.test(trimmed) || this.commandOf(trimmed) === '/start';
  }
}

/** The text the core gets: a command word becomes `/name args`; anything else as typed (a `/command` too). */
export function textForCore(text: string, words: CommandWords): string {
  return words.commandOf(text) ?? text;
}
