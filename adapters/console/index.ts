import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  SerialByKey,
  type Adapter,
  type ConversationRef,
  type GatewayHost,
  type InboundSink,
} from '../../src/contract.js';
import { consoleCapabilities } from './capabilities.js';
import { helpText, parseConsoleLine } from './commands.js';
import { lineToInbound, restoreLocalAttachment } from './inbound.js';
import { ConsoleOutbound, RedrawingConsoleOutbound } from './outbound.js';

export interface ConsoleAdapterOptions {
  bot: string;
  input?: Readable;
  output?: Writable & { isTTY?: boolean; columns?: number };
  /** Called when the user closes the console (Ctrl-D, :quit, end of piped input), once every message is answered. */
  onClose?: () => void;
  /** Where the gateway's log goes while the console is open, named in the greeting. */
  logFile?: string;
  /** Where files sent to the person at the terminal are saved; default `chatbridge-files/` in the OS temp dir. */
  filesDir?: string;
  /**
   * The gateway around it (given by the runtime, see module.ts): whether the messages are
   * answered, and the handoff, whose operator at a terminal is the user. Without one the console
   * waits for nothing and has no :resume.
   */
  host?: GatewayHost;
}

/** A console adapter, with the one conversation it has. */
export interface ConsoleAdapter extends Adapter {
  readonly conversation: ConversationRef;
}

/**
 * How often the console asks whether its messages are answered (before `:press`, `:resume`
 * and quitting). A local state read; often enough that piped input does not feel slow.
 */
const ANSWERED_POLL_MS = 50;

const HANDOFF_NOTE =
  '(The conversation is now with a person, and here that person is you: the bot stays quiet until you type :resume to hand it back.)';

/**
 * A terminal chat on the same core as every platform: `npm start` on a terminal with
 * no platform credentials opens it against the embedded service.
 */
export function createConsoleAdapter(options: ConsoleAdapterOptions): ConsoleAdapter {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const interactive = Boolean(output.isTTY);
  const conversation: ConversationRef = { bot: options.bot, platform: 'console', id: 'terminal' };
  let rl: Interface | undefined;
  const { host } = options;
  let handoffNoted = false;
  let stopping = false;
  let interrupted = false;
  /** Lines are handled one after another, so they reach the chatbot in the order typed (a `:file` line reads the disk first). */
  const lines = new SerialByKey();
  let sequence = 0;
  /**
   * Whether the input is still read: after its end (Ctrl-D, the end of piped input) the answers still come, with no
   * prompt under them (Node 24's readline throws on a prompt after close).
   */
  let reading = false;
  const prompt = (preserveCursor?: boolean) => {
    if (reading) rl?.prompt(preserveCursor);
  };

  const note = (text: string) => {
    // At a terminal, over the prompt (drawn again below with what the user was typing).
    if (interactive) output.write('\r\x1b[K');
    output.write(`${text}\n`);
    prompt(true);
  };
  /** After each message the bot sends: was it the handoff reply? Then say how to get the bot back. */
  const noteHandoff = async () => {
    if (!host) return;
    const withPerson = await host.withPerson(conversation).catch(() => false);
    if (withPerson && !handoffNoted) note(HANDOFF_NOTE);
    handoffNoted = withPerson;
  };
  // Only a terminal can redraw an answer as it streams; a pipe gets each answer once, whole.
  const outbound = new (interactive ? RedrawingConsoleOutbound : ConsoleOutbound)(
    output,
    () => prompt(true),
    () => void noteHandoff(),
    options.filesDir,
  );

  /** Resolves once every message accepted so far is answered (its queue is empty); at once without a host. */
  const answered = async () => {
    while (host && !stopping && !(await host.answered(conversation).catch(() => true))) {
      await new Promise((resolve) => setTimeout(resolve, ANSWERED_POLL_MS));
    }
  };

  async function handle(raw: string, sink: InboundSink): Promise<void> {
    const typed = raw.trim();
    if (!typed) return prompt();
    // `:press` means the buttons on screen and `:resume` the state after the last answer: wait for it (piped input is read ahead).
    if (/^:(press|resume)\b/i.test(typed)) await answered();
    const line = parseConsoleLine(typed, outbound.lastButtons);
    switch (line.kind) {
      case 'invalid':
        return note(`(not sent: ${line.error})`);
      case 'help':
        return note(helpText());
      case 'quit':
        return void rl?.close();
      case 'resume':
        if (!host) return note("(not available: this console is not connected to the gateway's handoff.)");
        if (!(await host.resume(conversation))) note('(The conversation is not with a person; nothing to hand back.)');
        return;
      default: {
        const inbound = await lineToInbound(line, conversation, ++sequence).catch((error: Error) => error);
        if (inbound instanceof Error) return note(`(not sent: ${inbound.message})`);
        await sink.accept(inbound);
        if (handoffNoted) note('(With a person: the bot stays quiet until :resume.)');
      }
    }
  }

  return {
    platform: 'console',
    bot: options.bot,
    conversation,
    capabilities: consoleCapabilities(),
    outbound,
    // A typed line is gone once read: while the state store is down the core holds it.
    redeliversOnAcceptFailure: false,
    async start(sink: InboundSink) {
      rl = createInterface({ input, output, prompt: 'you> ', terminal: interactive });
      reading = true;
      output.write(
        "chatbridge console: type a message, or /start, /help, /listings. :help lists the console's own commands (:file, :press, :resume). Ctrl-D quits.\n",
      );
      if (options.logFile)
        output.write(`(The gateway's log goes to ${options.logFile}; errors are also shown here.)\n`);
      rl.prompt();
      rl.on('line', (raw) => {
        lines
          .run(conversation.id, () => handle(raw, sink))
          .catch((error: Error) => note(`(not sent: ${error.message})`));
      });
      // Ctrl-C at a terminal quits at once; Ctrl-D, :quit and the end of piped input wait for the answers.
      rl.on('SIGINT', () => {
        interrupted = true;
        rl?.close();
      });
      rl.on('close', () => {
        reading = false;
        if (stopping) return;
        void (interrupted ? Promise.resolve() : lines.idle().then(answered)).then(() => options.onClose?.());
      });
    },
    async stop() {
      stopping = true;
      rl?.close();
    },
    // The ref is the file's absolute path (see inbound.ts).
    restoreAttachment: (ref, info) => restoreLocalAttachment(ref, info),
  };
}
