import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../../adapters/console/index.js';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { DEMO_SERIAL_NUMBER, startServiceStack, type ServiceStack } from '../gateway/stack.js';

const MEDIA = join(import.meta.dirname, '../../fixtures/media');

/** A piped terminal: what the user types goes in, everything printed is collected. */
function terminal() {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: false, columns: 80 });
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { input, output, type: (line: string) => input.write(`${line}\n`), printed: () => printed };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the console's own commands, on the gateway core and the embedded service", () => {
  let stack: ServiceStack;
  let gateway: Gateway | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('console-commands');
  });
  afterEach(async () => {
    await gateway?.stop();
    await stack.close();
  });

  async function open() {
    const term = terminal();
    const adapter = createConsoleAdapter({ bot: 'main', input: term.input, output: term.output });
    gateway = createGateway({
      state: stack.store,
      upstream: stack.client,
      bots: [{ id: 'main', serialNumber: DEMO_SERIAL_NUMBER, settings: { EnableUploadImage: true } }],
      adapters: [adapter],
      logger: silentLogger(),
      policy: { stopGraceMs: 500 },
    });
    await gateway.start();
    const userMessages = async () =>
      (await gateway!.transcript.read(adapter.conversation))
        .filter((entry) => entry.role === 'user')
        .map((entry) => entry.text);
    return { term, userMessages };
  }

  it('refuses a button that is not there, a button that is not a number, and unknown commands, without sending them', async () => {
    const { term, userMessages } = await open();
    term.type(':press 9');
    term.type(':press abc');
    term.type(':fil x');
    term.type(':foo');
    term.type(`:file ${join(MEDIA, 'no-such-file.jpg')}`);
    term.type('done');
    await until(async () => (await userMessages()).includes('done'), 'the last line');
    expect(await userMessages()).toEqual(['done']);
    const printed = term.printed();
    expect(printed).toContain('(not sent: the last message has no buttons to press.)');
    expect(printed).toContain('(not sent: `:press` takes the number of a button, e.g. :press 1.)');
    expect(printed).toContain('(not sent: unknown command ":fil" (did you mean :file?). Type :help for the list.)');
    expect(printed).toContain('(not sent: unknown command ":foo". Type :help for the list.)');
    expect(printed).toContain(`(not sent: cannot read ${join(MEDIA, 'no-such-file.jpg')} (no such file).)`);
  });

  it('lists its commands with :help, and sends ":)" and "::text" as text', async () => {
    const { term, userMessages } = await open();
    term.type(':help');
    term.type(':)');
    term.type('::help');
    await until(async () => (await userMessages()).length === 2, 'both messages');
    expect(await userMessages()).toEqual([':)', ':help']);
    for (const command of [':file <path> [caption]', ':press <n>', ':resume', ':help', ':quit'])
      expect(term.printed()).toContain(command);
  });

  it('sends the lines in the order typed, a file first even though it is read from disk', async () => {
    const { term, userMessages } = await open();
    term.type(`:file ${join(MEDIA, 'tiny.jpg')} first`);
    term.type('second');
    term.type('third');
    await until(async () => (await userMessages()).length === 3, 'three messages');
    expect(await userMessages()).toEqual(['first', 'second', 'third']);
  });
});
