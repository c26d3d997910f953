import type { Command } from 'commander';
import { loadGatewayConfig } from '../runtime/platforms.js';
import { readServiceKeys, SERVICE_KEYS_COMMAND } from '../runtime/service-keys.js';
import { redisTopology } from '../config/index.js';
import { createStateStore } from '../state/index.js';

/**
 * `chatbridge service keys`: prints the embedded Chatbot Service's keys, as
 * `chatbridge start` uses them (SERVICE_* when set, else the ones generated at the
 * first start and kept in Redis). The gateway's log only names this command, so
 * the keys stay out of log files. The output is in the form of environment
 * settings, to be pasted into a client's configuration.
 */
export function registerServiceKeysCommand(program: Command): void {
  const service = program.commands.find((command) => command.name() === 'service');
  if (!service) throw new Error('registerServiceKeysCommand: register the `service` command first.');
  service
    .command('keys')
    .description("print the embedded Chatbot Service's keys (kept in Redis by the gateway)")
    .action(async () => {
      const config = loadGatewayConfig();
      const configured = Boolean(config.service.secretKey && config.service.sessionKey);
      const state = createStateStore({ topology: redisTopology(config), prefix: config.keyPrefix });
      try {
        if (state.kind === 'memory' && !configured) {
          throw new Error(
            'REDIS_URL is not set, so each gateway process generates its own keys and keeps them in memory; ' +
              'set SERVICE_SECRET_KEY and SERVICE_SESSION_KEY to choose them.',
          );
        }
        const keys = await readServiceKeys(config, state);
        if (!keys) {
          throw new Error(
            `No embedded service keys are kept under the key prefix "${config.keyPrefix}" at REDIS_URL yet: ` +
              `start the gateway once (chatbridge start) and run \`${SERVICE_KEYS_COMMAND}\` again, ` +
              'or set SERVICE_SECRET_KEY and SERVICE_SESSION_KEY.',
          );
        }
        process.stdout.write(`SERVICE_SECRET_KEY=${keys.secretKey}\nSERVICE_SESSION_KEY=${keys.sessionKey}\n`);
      } finally {
        await state.close();
      }
    });
}
