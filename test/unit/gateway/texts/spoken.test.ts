import { afterEach, describe, expect, it } from 'vitest';
import { checkTextOverrides, createGateway, userTextsFor } from '../../../../src/gateway/index.js';
import type { AdapterStartInfo } from '../../../../src/gateway/intake/adapter-lifecycle.js';
import { silentLogger } from '../../../../src/logger.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import type { InboundSink } from '../../../../src/contract.js';
import { SERIAL, startHarness, type Harness } from '../support/harness.js';
import { eventually, RecordingAdapter } from '../support/recording-adapter.js';

/** Keeps what the gateway tells the adapter at start (its commands, for a command menu). */
class MenuAdapter extends RecordingAdapter {
  info?: AdapterStartInfo;
  override start(sink: InboundSink, info?: AdapterStartInfo): Promise<void> {
    this.info = info;
    return super.start(sink);
  }
}

describe('what the gateway says follows the chatbot it speaks for', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it("/help lists the commands in the chatbot's language, a feature's command among them", async () => {
    harness = await startHarness({ settings: { AIResponseLanguage: 'Spanish' } });
    const { adapter, gateway } = harness;
    gateway.commands.register({
      name: 'human',
      description: (texts) => texts.commandDescriptions.human,
      run: (ctx) => ctx.reply('ok'),
    });
    await adapter.say('c1', '/help');
    await adapter.say('c1', '/frobnicate');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    const [help, unknown] = adapter.textsIn('c1');
    expect(help).toContain('Comandos');
    // As the platform shows it (plain text): the Markdown rendered.
    expect(help).toContain('/listings [city] — ver las propiedades, si quieres de una sola ciudad');
    expect(help).toContain('/human — hablar con una persona');
    expect(help).toContain('Todo lo demás que escribas lo responde el asistente.');
    expect(unknown).toMatch(/^No conozco el comando \/frobnicate\./);
  });

  it("tells the platform its commands at start in the chatbot's language (Telegram's command menu)", async () => {
    const adapter = new MenuAdapter();
    harness = await startHarness({ adapter, settings: { AIResponseLanguage: 'fr' } });
    expect(adapter.info?.commands).toContainEqual({ name: 'help', description: 'lister les commandes' });
    expect(adapter.info?.commands).toContainEqual({
      name: 'listings',
      description: 'parcourir les annonces, éventuellement dans une seule ville',
      usage: '/listings [city]',
    });
  });

  it("refuses a file and frames the listings in the chatbot's language", async () => {
    harness = await startHarness({ settings: { AIResponseLanguage: 'Portuguese' } });
    const { adapter } = harness;
    const sticker = {
      kind: 'sticker' as const,
      mimeType: 'image/webp',
      size: 10,
      fetch: async () => new Uint8Array(10),
    };
    await adapter.say('c1', '', { attachments: [sticker] });
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual(['Não consigo ler figurinhas. Envie uma foto ou digite sua pergunta.']),
    );
    await adapter.say('c1', '/listings Atlantis');
    await eventually(() =>
      expect(adapter.textsIn('c1')[1]).toBe(
        'Nenhum imóvel encontrado em Atlantis. Envie /listings para ver todos os imóveis.',
      ),
    );
  });

  it('says a sentence outside a turn (a handoff\'s "back to the assistant") in the chatbot\'s language', async () => {
    harness = await startHarness({ settings: { AIResponseLanguage: 'German' } });
    const texts = await harness.gateway.textsFor(harness.adapter.conversation('c1'));
    expect(texts.handoff.botIsBack).toBe(userTextsFor('German').handoff.botIsBack);
    expect(await harness.gateway.textsFor({ bot: 'unknown', platform: 'fakechat', id: 'c1' })).toBe(userTextsFor(''));
  });

  it("uses a bot's own sentence, in a turn and outside one", async () => {
    const { overrides } = checkTextOverrides({
      resetDone: 'Nueva conversación.',
      handoff: { botIsBack: '¡Aquí estoy!' },
    });
    harness = await startHarness({ settings: { AIResponseLanguage: 'Spanish' }, texts: overrides });
    await harness.adapter.say('c1', '/reset');
    await eventually(() => expect(harness!.adapter.textsIn('c1')).toEqual(['Nueva conversación.']));
    expect((await harness.gateway.textsFor(harness.adapter.conversation('c1'))).handoff.botIsBack).toBe('¡Aquí estoy!');
  });

  it('refuses to start with a sentence of a key the catalogue does not have, naming the bot and the key', () => {
    expect(() =>
      createGateway({
        state: new MemoryStateStore({ prefix: 'gw:' }),
        // Never called: the bots are checked before anything else is built.
        upstream: {} as never,
        bots: [{ id: 'main', serialNumber: SERIAL, texts: { welcomeDefalt: 'Hi!' } as never }],
        adapters: [],
        logger: silentLogger(),
      }),
    ).toThrow(
      /bots: bot "main": texts\.welcomeDefalt: no sentence of the gateway has this key; did you mean welcomeDefault/,
    );
  });
});
