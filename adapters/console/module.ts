/**
 * The console as a platform module: a local platform (no `bots[]` section) for the first bot,
 * with its setting `console: auto | on | off` (CHATBRIDGE_CONSOLE) and the rule by which it
 * opens. The runtime, the config loader and the CLI know the console only through this object.
 */
import { z } from 'zod';
import type { PlatformModule } from '../../src/contract.js';
import { createConsoleAdapter } from './index.js';

/** auto: open on a terminal when no platform of `bots[]` is configured (a first `npm start`). */
const consoleSetting = z.enum(['auto', 'on', 'off']).default('auto');

export type ConsoleSetting = z.infer<typeof consoleSetting>;

/** Said on stderr when "auto" keeps the console closed because nobody is at a terminal to type. */
const HEADLESS_NOTICE =
  'stdin is not a terminal, so the console stays closed and the gateway runs headless (no platform is configured). ' +
  'Set CHATBRIDGE_CONSOLE=on to chat through a pipe.';

export const consoleModule: PlatformModule<ConsoleSetting> = {
  kind: 'local',
  name: 'console',
  displayName: 'Console',
  setting: consoleSetting,
  env: { env: 'CHATBRIDGE_CONSOLE', type: 'string' },
  opens(setting, { stdinIsTTY, platformConfigured }) {
    if (setting === 'on') return { open: true };
    if (setting === 'off' || platformConfigured) return { open: false };
    return stdinIsTTY ? { open: true } : { open: false, notice: HEADLESS_NOTICE };
  },
  create(_setting, { bot, host, closed, logFile }) {
    return createConsoleAdapter({ bot, host, onClose: closed, ...(logFile ? { logFile } : {}) });
  },
};
