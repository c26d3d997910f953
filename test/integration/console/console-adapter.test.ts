import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../../adapters/console/index.js';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { DEMO_SERIAL_NUMBER, startServiceStack, type ServiceStack } from '../gateway/stack.js';

/** A terminal: what the user types goes in, everything printed is collected. */
function terminal(isTTY: boolean) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { input, output, type: (line: string) => input.write(`${line}\n`), printed: () => printed };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the console adapter on the gateway core and the embedded service', () => {
  let stack: ServiceStack;
  let gateway: Gateway | undefined;
  beforeEach(async () => {
    // A pace the eye can follow, so a streamed answer has something to redraw.
    stack = await startServiceStack('console', { tokensPerSecond: 400 });
  });
  afterEach(async () => {
    await gateway?.stop();
    await stack.close();
  });

  async function open(isTTY: boolean) {
    const term = terminal(isTTY);
    const adapter = createConsoleAdapter({ bot: 'main', input: term.input, output: term.output });
    gateway = createGateway({
      state: stack.store,
      upstream: stack.client,
      bots: [
        {
          id: 'main',
          serialNumber: DEMO_SERIAL_NUMBER,
          settings: {
            WelcomeMessage: 'Welcome to the console!',
            SuggestedMessage: 'Homes in Austin|Rentals in Denver',
          },
        },
      ],
      adapters: [adapter],
      logger: silentLogger(),
      policy: { stopGraceMs: 500 },
    });
    await gateway.start();
    return term;
  }

  it('greets /start with the welcome message and the suggestions', async () => {
    const term = await open(false);
    term.type('/start');
    await until(() => term.printed().includes('Welcome to the console!'), 'the welcome');
    expect(term.printed()).toContain('Try: "Homes in Austin", "Rentals in Denver"');
  });

  it('on a terminal, redraws the streamed answer in place and ends on the full answer', async () => {
    const term = await open(true);
    term.type('Do you have homes for sale in Austin?');
    await until(() => term.printed().includes('MLS TX-10977'), 'the final answer');
    const printed = term.printed();
    expect(printed).toContain('1812 Elm St');
    // Redrawing moves the cursor up over the previous render and clears below it.
    const ESC = String.fromCharCode(27);
    expect(printed).toMatch(new RegExp(`${ESC}\\[\\d+F${ESC}\\[J`));
  });

  it('without a terminal, prints the answer once, whole', async () => {
    const term = await open(false);
    term.type('Do you have homes for sale in Austin?');
    await until(() => term.printed().includes('MLS TX-10977'), 'the final answer');
    expect(term.printed()).not.toContain('\x1b[');
    expect(term.printed().match(/1812 Elm St/g)).toHaveLength(1);
  });

  it('presses a button of the last message with :press', async () => {
    const term = await open(false);
    term.type('/listings');
    await until(() => term.printed().includes('[1] Next »'), 'the Next button');
    term.type(':press 1');
    await until(() => /page 2 of/.test(term.printed()), 'the second page');
  });
});
