import type { Writable } from 'node:stream';
import type { Button, ConversationRef, OutboundMessage, Outbound, SentMessage } from '../../src/contract.js';

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
   */
  constructor(
    protected readonly out: Writable & { columns?: number },
    private readonly onPrinted: () => void,
    private readonly onSent: () => void = () => {},
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
