import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Adapter, ConversationRef, InboundSink } from '../../src/gateway/types.js';
import { consoleCapabilities } from './capabilities.js';
import { lineToInbound, restoreLocalAttachment } from './inbound.js';
import { ConsoleOutbound } from './outbound.js';

export interface ConsoleAdapterOptions {
  bot: string;
  input?: Readable;
  output?: Writable & { isTTY?: boolean; columns?: number };
  /** Called when the user closes the console (Ctrl-D), e.g. to stop the gateway. */
  onClose?: () => void;
}

/**
 * A terminal chat on the same core as every platform: `npm start` on a terminal with
 * no platform credentials opens it against the embedded service.
 */
export function createConsoleAdapter(options: ConsoleAdapterOptions): Adapter {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const interactive = Boolean(output.isTTY);
  const conversation: ConversationRef = { bot: options.bot, platform: 'console', id: 'terminal' };
  let rl: Interface | undefined;
  const outbound = new ConsoleOutbound(output, () => rl?.prompt(true));
  let sequence = 0;

  return {
    platform: 'console',
    bot: options.bot,
    capabilities: consoleCapabilities(interactive),
    outbound,
    async start(sink: InboundSink) {
      rl = createInterface({ input, output, prompt: 'you> ', terminal: interactive });
      output.write('chatbridge console: type a message, /start, /help, /listings, or :file <path> [caption]. Ctrl-D quits.\n');
      rl.prompt();
      rl.on('line', (raw) => {
        const line = raw.trim();
        if (!line) return rl?.prompt();
        const press = /^:press\s+(\d+)$/.exec(line);
        const pressed = press ? outbound.lastButtons[Number(press[1]) - 1] : undefined;
        void lineToInbound(line, conversation, ++sequence, pressed)
          .then((inbound) => sink.accept(inbound))
          .catch((error: Error) => output.write(`(not sent: ${error.message})\n`));
      });
      rl.on('close', () => options.onClose?.());
    },
    async stop() {
      rl?.close();
    },
    // The ref is the file's absolute path (see inbound.ts).
    restoreAttachment: (ref, info) => restoreLocalAttachment(ref, info),
  };
}
