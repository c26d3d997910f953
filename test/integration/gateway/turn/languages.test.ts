/**
 * Issue #30: the gateway's own sentences follow the chatbot's AIResponseLanguage, and a bot's
 * overrides from the config replace them. Through the whole stack: the real embedded Chatbot
 * Service on Redis, a gateway process, the in-memory platform.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTextOverrides, userTextsFor } from '../../../../src/gateway/index.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS } from '../../../../src/upstream/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  DEMO_SERIAL_NUMBER,
  HeldLink,
  startGatewayProcess,
  startServiceStack,
  type GatewayProcess,
  type ServiceStack,
} from '../stack.js';

const LIMIT = CLIENT_ASK_CONTENT_MAX_CHARS;
const TOO_LONG = 'x'.repeat(LIMIT + 1);
/** The rate limit's own message is not set: the gateway's default is said. */
const ONE_AN_HOUR = { RateLimitCount: 1, RateLimitTime: 3600 };

describe("the gateway's words in the chatbot's language (real embedded service)", () => {
  let stack: ServiceStack;
  let process: GatewayProcess | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('gw-languages');
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });
  const start = async (options: Partial<Parameters<typeof startGatewayProcess>[0]> = {}) =>
    (process = await startGatewayProcess({ state: stack.store, upstream: stack.client, ...options }));

  it('a Spanish chatbot refuses a message too long and a message over the rate limit in Spanish, numbers grouped the Spanish way', async () => {
    const link = new HeldLink(stack.client);
    const { adapter } = await start({ upstream: link, settings: { AIResponseLanguage: 'Spanish', ...ONE_AN_HOUR } });
    await adapter.say('c1', TOO_LONG);
    await adapter.say('c1', '¿Casas en Austin?');
    await adapter.say('c1', '¿Y en Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3), 30_000);
    const [tooLong, answer, rateLimited] = adapter.textsIn('c1');
    expect(tooLong).toBe(
      'Tu mensaje es demasiado largo: puedo leer hasta 20.000 caracteres a la vez y el tuyo tiene 20.001. ' +
        'Acórtalo o envíalo en varias partes.',
    );
    expect(answer).toContain('Austin');
    expect(rateLimited).toBe('Estás enviando mensajes demasiado rápido; espera un momento y vuelve a intentarlo.');
    expect(link.questions).toEqual(['¿Casas en Austin?']);
  });

  it("says a bot's own sentence from the config instead of the language's, its placeholders written the language's way", async () => {
    const { overrides, problems } = checkTextOverrides({
      messageTooLong: 'Máximo {limit} caracteres por mensaje; el tuyo tiene {length}.',
      rateLimitedDefault: 'Más despacio, por favor: un mensaje por hora.',
    });
    expect(problems).toEqual([]);
    const { adapter } = await start({ settings: { AIResponseLanguage: 'Spanish', ...ONE_AN_HOUR }, texts: overrides });
    await adapter.say('c1', TOO_LONG);
    await adapter.say('c1', '¿Casas en Austin?');
    await adapter.say('c1', '¿Y en Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3), 30_000);
    const [tooLong, , rateLimited] = adapter.textsIn('c1');
    expect(tooLong).toBe('Máximo 20.000 caracteres por mensaje; el tuyo tiene 20.001.');
    expect(rateLimited).toBe('Más despacio, por favor: un mensaje por hora.');
  });

  it('follows a language set while it runs (the admin API edits the settings): the next sentence is in it', async () => {
    const { adapter, gateway } = await start({ settings: { AIResponseLanguage: 'Spanish' } });
    await adapter.say('c1', TOO_LONG);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1), 30_000);
    await gateway.settings.merge(DEMO_SERIAL_NUMBER, { AIResponseLanguage: 'German' });
    await adapter.say('c1', TOO_LONG);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2), 30_000);
    expect(adapter.textsIn('c1')).toEqual([
      userTextsFor('Spanish').messageTooLong(LIMIT, LIMIT + 1),
      userTextsFor('German').messageTooLong(LIMIT, LIMIT + 1),
    ]);
    expect(adapter.textsIn('c1')[1]).toContain('bis zu 20.000 Zeichen');
  });
});
