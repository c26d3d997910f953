/**
 * The console as a new user meets it: `chatbridge start` on the default set-up (no Redis,
 * no platform, the embedded demo chatbot) at a terminal. The terminal is a real
 * pseudo-terminal (`script` from util-linux), so the console redraws answers as they
 * stream, exactly as on a user's screen; what the user types goes through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
const MEDIA = join(import.meta.dirname, '../../fixtures/media');
const ESC = String.fromCharCode(27);
/** What the console writes to redraw the answer at the bottom of the screen: cursor up N rows, clear below (adapters/console/outbound.ts). */
const REDRAW = new RegExp(`${ESC}\\[\\d+F${ESC}\\[J`, 'g');
const WAIT_MS = 60_000;

interface Terminal {
  child: ChildProcess;
  /** Everything the screen showed so far (ANSI sequences included). */
  screen(): string;
  type(line: string): void;
  /** Waits until `text` appears on the screen after `from` (an offset of screen()). */
  waitFor(text: string | RegExp, from?: number): Promise<number>;
  /** Ends the input (Ctrl-D / end of the pipe) and resolves with the exit code. */
  endInput(): Promise<number | null>;
  logFile: string;
}

/** `chatbridge start` on the default set-up, its stdin and stdout a pseudo-terminal (or a plain pipe with `pty: false`). */
function openTerminal(options: { pty: boolean; env?: Record<string, string> }): Terminal {
  const dir = mkdtempSync(join(tmpdir(), 'cb-console-'));
  const config = join(dir, 'chatbridge.yaml');
  // The shipped defaults, but on a free port.
  writeFileSync(config, 'port: 0\n');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    TMPDIR: dir,
    CHATBRIDGE_CONFIG: config,
    CHATBRIDGE_CONSOLE: 'on',
    ...options.env,
  };
  const child = options.pty
    ? spawn('script', ['-qfec', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start`, '/dev/null'], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [CLI, 'start'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout!.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    logFile: join(dir, 'chatbridge-console.log'),
    screen: () => screen,
    type: (line) => child.stdin!.write(`${line}\n`),
    async waitFor(text, from = 0) {
      for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline;) {
        const rest = screen.slice(from);
        const at = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
        if (at >= 0) return from + at;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the screen never showed ${String(text)}; it shows:\n${screen.slice(from)}`);
    },
    async endInput() {
      child.stdin!.end();
      return exited;
    },
  };
}

/**
 * Resolves once every message typed so far is answered. `:press` waits for the answers
 * before it reads the buttons on screen, so its local refusal of a button that cannot
 * exist marks that point.
 */
async function everythingAnswered(term: Terminal): Promise<void> {
  const from = term.screen().length;
  term.type(':press 999');
  await term.waitFor(/\(not sent: (there is no button 999|the last message has no buttons)/, from);
}

/** The bot's messages printed after `from`, as last drawn (the text of each `bot> ` block). */
function botBlocksAfter(screen: string, from: number): string[] {
  return screen.slice(from).split('bot> ').slice(1);
}

describe('the console, played by a user at a terminal on the default set-up', () => {
  let terminal: Terminal | undefined;
  afterEach(() => {
    if (terminal?.child.exitCode === null) terminal.child.kill('SIGKILL');
    terminal = undefined;
  });

  it('streams an answer by redrawing it, answers a photo and a voice note, refuses bad commands locally, and ends a handoff with :resume', async () => {
    terminal = openTerminal({ pty: true });
    const term = terminal;
    await term.waitFor('you> ');

    // An answer written as it streams: the same message drawn again several times, growing.
    let from = term.screen().length;
    term.type('Do you have homes for sale in Austin?');
    await term.waitFor('MLS TX-10977', from);
    await everythingAnswered(term);
    const answer = term.screen().slice(from);
    expect(answer.match(REDRAW)?.length ?? 0).toBeGreaterThanOrEqual(3);

    // A photo and a voice note: answered, not refused.
    from = term.screen().length;
    term.type(`:file ${join(MEDIA, 'tiny.jpg')} What is in this picture?`);
    await everythingAnswered(term);
    const photoAnswer = botBlocksAfter(term.screen(), from).join('\n');
    expect(photoAnswer).toMatch(/photo|image|picture/i);
    expect(photoAnswer).not.toMatch(/doesn't accept|does not accept/i);
    from = term.screen().length;
    term.type(`:file ${join(MEDIA, 'voice-440hz-2s.ogg')}`);
    await everythingAnswered(term);
    const voiceAnswer = botBlocksAfter(term.screen(), from).join('\n');
    expect(voiceAnswer).toMatch(/voice|recording|audio/i);
    expect(voiceAnswer).not.toMatch(/doesn't accept|does not accept/i);

    // Mistyped or impossible commands are answered by the console itself; the bot never sees them.
    from = term.screen().length;
    term.type(':press 9');
    term.type(':press abc');
    term.type(':fil x');
    term.type(':foo');
    await term.waitFor('unknown command ":foo"', from);
    await everythingAnswered(term);
    const refused = term.screen().slice(from);
    expect(refused).toMatch(
      /\(not sent: there is no button 9: the last message has (button 1|buttons 1-\d)\.\)|\(not sent: the last message has no buttons to press\.\)/,
    );
    expect(refused).toContain('`:press` takes the number of a button');
    expect(refused).toContain('unknown command ":fil" (did you mean :file?)');
    expect(botBlocksAfter(term.screen(), from)).toEqual([]);

    // A handoff, and the way back from the console.
    from = term.screen().length;
    term.type('/human');
    await term.waitFor('type :resume to hand it back', from);
    from = term.screen().length;
    term.type(':resume');
    await term.waitFor(/bot> .*(again|back)/i, from);

    // The log went to the file named at start, never onto the chat.
    expect(term.screen()).toContain(`The gateway's log goes to ${term.logFile}`);
    expect(term.screen()).not.toContain('"level":');
    const log = readFileSync(term.logFile, 'utf8');
    expect(log).toContain('"msg":"chatbridge is running"');
    // The generated service keys, shown to a person at a terminal, are never written to the file.
    expect(log).toContain('Generated embedded Chatbot Service keys for this process only');
    expect(log).not.toMatch(/"(secretKey|sessionKey)":/);

    expect(await term.endInput()).toBe(0);
  }, 180_000);

  it('answers every piped line, in order, before it exits at the end of the input', async () => {
    terminal = openTerminal({ pty: false });
    const term = terminal;
    const questions = [
      'Do you have homes for sale in Austin?',
      'Any rentals in Denver?',
      '/listings',
      ':press 1',
      'What about Portland?',
    ];
    for (const question of questions) term.type(question);
    expect(await term.endInput()).toBe(0);
    const screen = term.screen();
    const answers = ['MLS TX-10977', 'MLS CO-61240', 'page 1 of', 'page 2 of', 'Portland'].map((text) =>
      screen.indexOf(text, screen.indexOf('bot> ')),
    );
    expect(answers.every((at) => at >= 0)).toBe(true);
    expect([...answers].sort((a, b) => a - b)).toEqual(answers);
    expect(screen).not.toContain('"level":');
  }, 120_000);

  it('says so when stdin is a pipe and the console was not asked for: the gateway runs headless', async () => {
    terminal = openTerminal({ pty: false, env: { CHATBRIDGE_CONSOLE: 'auto' } });
    const term = terminal;
    await term.waitFor('stdin is not a terminal, so the console stays closed and the gateway runs headless');
    await term.waitFor('"msg":"chatbridge is running"');
    expect(term.screen()).toContain('Set CHATBRIDGE_CONSOLE=on to chat through a pipe.');
    expect(existsSync(term.logFile)).toBe(false);
  }, 60_000);
});
