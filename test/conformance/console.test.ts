/**
 * The console adapter through the conformance suite, driven as a user at a
 * terminal: lines typed into its input stream, and the screen read back from what
 * it prints (blocks starting "bot> ", redrawn in place by the cursor-up-and-clear
 * sequence while an answer streams).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createConsoleAdapter } from '../../adapters/console/index.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

const BOT_PREFIX = 'bot> ';
/** What the console writes before reprinting the block at the bottom of the screen (see adapters/console/outbound.ts). */
const ESC = String.fromCharCode(27);
const REDRAW = new RegExp(`^${ESC}\\[\\d+F${ESC}\\[J$`);
/** The numbered buttons line under a block: `[1] « Previous  [2] Next »  (type :press <n>)`. */
const BUTTONS_LINE = /^(\[\d+\] .+?)\s+\(type :press <n>\)$/;

/** A terminal screen: every block the bot printed, the last one replaced when it is redrawn. */
class Screen {
  readonly blocks: string[] = [];
  readonly renders: string[] = [];
  private redrawNext = false;

  readonly output = Object.assign(
    new Writable({
      decodeStrings: false,
      write: (chunk: string | Buffer, _encoding, done) => {
        this.printed(chunk.toString());
        done();
      },
    }),
    { isTTY: true, columns: 80 },
  );

  private printed(chunk: string): void {
    if (REDRAW.test(chunk)) {
      this.redrawNext = true;
      return;
    }
    // Anything else is the prompt and the echo of what the user types.
    if (!chunk.startsWith(BOT_PREFIX)) return;
    const block = chunk.slice(BOT_PREFIX.length).replace(/\n$/, '');
    if (this.redrawNext && this.blocks.length > 0) this.blocks[this.blocks.length - 1] = block;
    else this.blocks.push(block);
    this.redrawNext = false;
    this.renders.push(block);
  }

  /** The labels of the newest block's buttons, by number. */
  buttons(): string[] {
    for (const block of [...this.blocks].reverse()) {
      const line = block
        .split('\n')
        .map((l) => BUTTONS_LINE.exec(l)?.[1])
        .find(Boolean);
      if (line) return line.split(/\s{2,}(?=\[\d+\] )/).map((button) => button.replace(/^\[\d+\] /, ''));
    }
    return [];
  }
}

async function consoleDriver(): Promise<ConformanceDriver> {
  const screen = new Screen();
  const input = new PassThrough();
  const files = mkdtempSync(join(tmpdir(), 'chatbridge-conformance-'));
  const type = async (line: string) => {
    input.write(`${line}\n`);
  };
  return {
    createAdapter: (instance) => {
      if (instance > 0)
        throw new Error('the console has one process per terminal (crash and takeover is declared not applicable)');
      return createConsoleAdapter({ bot: 'main', input, output: screen.output });
    },
    userSends: type,
    async userSendsFile(file, caption) {
      const path = join(files, file.fileName);
      writeFileSync(path, file.bytes);
      await type(`:file ${path} ${caption}`.trimEnd());
    },
    buttons: () => screen.buttons(),
    async pressButton(label) {
      const index = screen.buttons().indexOf(label);
      if (index < 0) throw new Error(`the console shows no button "${label}"`);
      await type(`:press ${index + 1}`);
    },
    screen: () => [...screen.blocks],
    renders: () => [...screen.renders],
    async close() {
      input.end();
      rmSync(files, { recursive: true, force: true });
    },
  };
}

describeAdapterConformance({
  platform: 'console',
  notApplicable: {
    'duplicate delivery': 'a terminal hands each typed line over once; nothing delivers it again',
    '429 on the final': 'a terminal has no rate limit; nothing answers 429',
    'unreachable on the final': 'the terminal is written locally; it cannot be unreachable',
    'crash and takeover': 'a terminal belongs to one gateway process; no second process can answer in it',
    'media gone':
      'a :file line reads the local disk as it is typed; a file cannot vanish between that and the answer but by a race',
  },
  createDriver: consoleDriver,
});
