import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { gatewayBots } from '../../../src/runtime/bots.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

function load(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cb-config-texts-'));
  const path = join(dir, 'config.yaml');
  writeFileSync(path, yaml);
  return loadConfig({ platforms: PLATFORMS, env: {}, file: path });
}

function loadError(yaml: string): ConfigError {
  try {
    load(yaml);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe("bots[].texts: a bot's own sentences in the config", () => {
  it('are read flat or nested, and reach the gateway as its bot', () => {
    const config = load(
      [
        'bots:',
        '  - id: main',
        '    texts:',
        '      welcomeDefault: "¡Hola! Soy el asistente de Casas del Sol."',
        '      handoff:',
        '        defaultReply: "Un agente te escribirá pronto."',
        '      queueFull: "Tienes {waiting} mensajes en espera."',
      ].join('\n'),
    );
    const expected = {
      welcomeDefault: '¡Hola! Soy el asistente de Casas del Sol.',
      'handoff.defaultReply': 'Un agente te escribirá pronto.',
      queueFull: 'Tienes {waiting} mensajes en espera.',
    };
    expect(config.bots[0]!.texts).toEqual(expected);
    expect(gatewayBots(config)[0]!.texts).toEqual(expected);
  });

  it('refuse a wrong key at start, naming it and the key it may stand for', () => {
    const error = loadError('bots:\n  - id: main\n    texts:\n      media.stikcer: "No stickers."\n');
    expect(error.message).toContain('bots.0.texts.media.stikcer: no sentence of the gateway has this key');
    expect(error.message).toContain('did you mean media.sticker');
  });

  it('refuse a wrong key written nested, by its full path, in the bot it belongs to', () => {
    const error = loadError(
      'bots:\n  - id: main\n  - id: second\n    texts:\n      listings:\n        nextButon: "Más »"\n',
    );
    expect(error.message).toContain('bots.1.texts.listings.nextButon');
    expect(error.message).toContain('did you mean listings.nextButton');
  });

  it('refuse a placeholder the sentence does not have, naming it', () => {
    const error = loadError('bots:\n  - id: main\n    texts:\n      queueFull: "You have {count} waiting."\n');
    expect(error.message).toContain('bots.0.texts.queueFull: {count}: no such placeholder');
    expect(error.message).toContain('{waiting}');
  });
});
