/**
 * The console's own `:` commands, parsed and checked here, in the terminal: a mistyped
 * or invalid one gets a local error and is never sent to the chatbot as text (where
 * `:press 1` on the wrong message could hand the conversation to a person).
 */
import type { Button } from '../../src/contract.js';

/** What a typed line is: a message for the chatbot, or one of the console's own commands. */
export type ConsoleLine =
  | { kind: 'text'; text: string }
  | { kind: 'file'; path: string; caption: string }
  | { kind: 'press'; button: Button }
  | { kind: 'help' }
  | { kind: 'resume' }
  | { kind: 'quit' }
  | { kind: 'invalid'; error: string };

/** The commands, in the order `:help` lists them. */
export const CONSOLE_COMMANDS: readonly { usage: string; does: string }[] = [
  { usage: ':file <path> [caption]', does: 'send a local file (photo, voice note, audio, video, document)' },
  { usage: ':press <n>', does: 'press the n-th button of the last message' },
  { usage: ':resume', does: 'after a handoff, hand the conversation back to the bot (here you are the operator too)' },
  { usage: ':help', does: 'this list' },
  { usage: ':quit', does: 'leave once every message is answered (as Ctrl-D does)' },
];

export function helpText(): string {
  const width = Math.max(...CONSOLE_COMMANDS.map((c) => c.usage.length));
  return [
    'Console commands (anything else is sent to the chatbot; start a line with "::" to send one that begins with ":"):',
    ...CONSOLE_COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.does}`),
    'The chatbot itself answers /start, /help, /reset, /listings [city] and /human.',
  ].join('\n');
}

const NAMES = ['file', 'press', 'resume', 'help', 'quit'] as const;

/**
 * A line starting with ":" and a letter is a command (so ":)" stays a smiley);
 * "::text" sends ":text".
 */
export function parseConsoleLine(line: string, buttons: readonly Button[]): ConsoleLine {
  if (line.startsWith('::')) return { kind: 'text', text: line.slice(1) };
  const command = /^:([a-z]\w*)(?:\s+(.*))?$/i.exec(line);
  if (!command) return { kind: 'text', text: line };
  const name = command[1]!.toLowerCase();
  const args = (command[2] ?? '').trim();
  switch (name) {
    case 'file': {
      const file = /^(\S+)\s*(.*)$/.exec(args);
      if (!file) return invalid('`:file` needs a path, e.g. :file ./photo.jpg What is this?');
      return { kind: 'file', path: file[1]!, caption: file[2] ?? '' };
    }
    case 'press':
      return pressButton(args, buttons);
    case 'resume':
    case 'help':
    case 'quit':
      return args ? invalid(`\`:${name}\` takes nothing after it.`) : { kind: name };
    default:
      return invalid(`unknown command ":${name}"${suggestion(name)}. Type :help for the list.`);
  }
}

function pressButton(args: string, buttons: readonly Button[]): ConsoleLine {
  if (!/^\d+$/.test(args)) return invalid('`:press` takes the number of a button, e.g. :press 1.');
  const n = Number(args);
  if (buttons.length === 0) return invalid('the last message has no buttons to press.');
  const button = buttons[n - 1];
  if (!button)
    return invalid(
      `there is no button ${n}: the last message has ${buttons.length === 1 ? 'button 1' : `buttons 1-${buttons.length}`}.`,
    );
  return { kind: 'press', button };
}

/** ", did you mean :file?" for a name that starts like one command (":fil", ":pres"). */
function suggestion(name: string): string {
  const close = NAMES.filter((known) => known.startsWith(name.slice(0, 3)));
  return close.length === 1 ? ` (did you mean :${close[0]}?)` : '';
}

function invalid(error: string): ConsoleLine {
  return { kind: 'invalid', error };
}
