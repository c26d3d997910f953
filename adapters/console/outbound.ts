import type { Writable } from 'node:stream';
import {
  PlatformError,
  type Button,
  type ConversationRef,
  type OutboundFile,
  type OutboundMessage,
  type Outbound,
  type SentMessage,
} from '../../src/contract.js';
import { CONSOLE_MAX_UPLOAD_BYTES } from './capabilities.js';
import { defaultFilesDir, saveFile, sizeText } from './saved-files.js';

const BOT_PREFIX = 'bot> ';

/** The buttons as a numbered line under the text (empty when there are none), pressed with `:press <n>`. */
function buttonsLine(buttons: Button[] | undefined): string {
  if (!buttons?.length) return '';
  return `\n${buttons.map((b, i) => `[${i + 1}] ${b.label}`).join('  ')}  (type :press <n>)`;
}

/**
 * Prints answers to a pipe or a terminal that cannot redraw: no `edit`, so each
 * answer is printed once, whole.
 */
export class ConsoleOutbound implements Outbound {
  private lastId = 0;
  /** Id and height (in terminal rows) of the block currently at the bottom of the screen. */
  protected bottom: { id: string; rows: number } | undefined;

  /**
   * @param onPrinted after each print (the prompt is drawn again under it)
   * @param onSent after each new message (not each redraw): the console checks for a handoff
   * @param filesDir where files sent to the terminal are saved (saved-files.ts)
   */
  constructor(
    protected readonly out: Writable & { columns?: number },
    private readonly onPrinted: () => void,
    private readonly onSent: () => void = () => {},
    private readonly filesDir: string = defaultFilesDir(),
  ) {}

  async send(_conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    const id = String(++this.lastId);
    let text = message.text + buttonsLine(message.buttons);
    if (message.suggestions?.length) text += `\nTry: ${message.suggestions.map((s) => `"${s}"`).join(', ')}`;
    this.print(id, text);
    this.lastButtons = message.buttons ?? [];
    this.onSent();
    return { id };
  }

  /**
   * A file for the person at the terminal (an operator's photo or document): saved to a file of
   * its own, its name, size and path printed, its caption under them.
   */
  async sendFile(_conversation: ConversationRef, file: OutboundFile): Promise<SentMessage> {
    if (file.bytes.byteLength > CONSOLE_MAX_UPLOAD_BYTES)
      throw new PlatformError(
        `The console saves files of at most ${sizeText(CONSOLE_MAX_UPLOAD_BYTES)}; "${file.fileName}" is ${sizeText(file.bytes.byteLength)}`,
        'too-long',
        undefined,
        { method: 'sendFile' },
      );
    let saved: string;
    try {
      saved = await saveFile(this.filesDir, file.fileName, file.bytes);
    } catch (error) {
      throw new PlatformError(
        `The console could not save "${file.fileName}" in ${this.filesDir}: ${(error as Error).message}`,
        'other',
        undefined,
        { cause: error, method: 'sendFile' },
      );
    }
    const id = String(++this.lastId);
    const caption = file.caption?.trim() ? `\n${file.caption}` : '';
    this.print(id, `📎 ${file.fileName} (${sizeText(file.bytes.byteLength)}) saved to ${saved}${caption}`);
    this.lastButtons = [];
    this.onSent();
    return { id };
  }

  async typing(): Promise<void> {}

  lastButtons: Button[] = [];

  protected print(id: string, text: string): void {
    const block = `${BOT_PREFIX}${text}`;
    this.out.write(`${block}\n`);
    // A pseudo-terminal with no size reports 0 columns: count as a common terminal then.
    const width = this.out.columns || 80;
    const rows = block.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / width)), 0);
    this.bottom = { id, rows };
    this.onPrinted();
  }
}

/**
 * Prints answers to an interactive terminal, redrawing the answer as it streams.
 * The message being streamed is the last block on screen, so an edit moves the
 * cursor up over it, clears, and prints the new text.
 */
export class RedrawingConsoleOutbound extends ConsoleOutbound {
  async edit(
    _conversation: ConversationRef,
    message: SentMessage,
    text: string,
    options: { buttons?: Button[] } = {},
  ): Promise<void> {
    if (this.bottom?.id === message.id) {
      // Up to the first row of the block, then clear to the end of the screen.
      this.out.write(`\x1b[${this.bottom.rows}F\x1b[J`);
    }
    this.print(message.id, text + buttonsLine(options.buttons));
    // The final edit of an answer carries its buttons; `:press <n>` must then mean these.
    if (options.buttons?.length) this.lastButtons = options.buttons;
  }
}
