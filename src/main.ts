/**
 * `chatbridge <command>` (DESIGN.md §7). `npm start` runs `chatbridge start`.
 */
import { Command } from 'commander';
import { ConfigError, loadConfig } from './config/index.js';
import { createLogger } from './logger.js';
import { startRuntime } from './runtime/runtime.js';
import { resolveServiceKeys } from './runtime/service-keys.js';
import { startService } from './service/index.js';
import { createStateStore } from './state/index.js';
import { UpstreamError } from './upstream/index.js';
import { registerAdminCommands } from './cli/admin-commands.js';
import { registerAskCommand } from './cli/ask-command.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { registerHandoffCommands } from './cli/handoff-commands.js';

function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    stop().then(() => process.exit(0), (error: Error) => {
      process.stderr.write(`chatbridge: stopping failed: ${error.message}\n`);
      process.exit(1);
    });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

const program = new Command('chatbridge').description('Chat gateway for the Chatbot Service: Telegram, Slack, WhatsApp').showHelpAfterError();

program.command('start', { isDefault: true }).description('run the gateway (with the embedded Chatbot Service unless UPSTREAM_BASE_URL is set)').action(async () => {
  const config = loadConfig();
  // On a console chat, logs would interleave with the conversation: warnings only, unless asked.
  const consoleLikely = config.console === 'on' || (config.console === 'auto' && process.stdin.isTTY && !config.bots.some((b) => b.telegram));
  const logger = createLogger(process.env.LOG_LEVEL ?? (consoleLikely ? 'warn' : config.logLevel));
  const holder: { runtime?: Awaited<ReturnType<typeof startRuntime>> } = {};
  const stop = async () => holder.runtime?.stop();
  holder.runtime = await startRuntime(config, logger, { onConsoleClose: () => void stop().then(() => process.exit(0)) });
  stopOnSignals(stop);
});

program.command('service').description('run only the embedded Chatbot Service').option('--port <n>', 'port', (v) => Number(v)).option('--host <host>', 'host', '127.0.0.1').action(async (opts: { port?: number; host: string }) => {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const state = createStateStore({ redisUrl: config.redisUrl, prefix: config.keyPrefix });
  if (state.kind === 'memory') logger.warn('REDIS_URL is not set: the service keeps its data in memory, lost on restart.');
  // As `chatbridge start` does: a key that is set is used, one that is not is generated once and kept in state.
  const { secretKey, sessionKey } = await resolveServiceKeys(config, state);
  const keys = { secretKey, sessionKey };
  const service = await startService({ state, ...keys, host: opts.host, port: opts.port ?? config.port, engine: config.service.engine, seedDemo: config.service.seedDemo, logger });
  process.stdout.write(`Chatbot Service at ${service.url}\nAuthorization (secret key): ${keys.secretKey}\nchatrobot-sessionkey (session key): ${keys.sessionKey}\n`);
  stopOnSignals(async () => {
    await service.close();
    await state.close();
  });
});

registerAskCommand(program);
registerDoctorCommand(program);
registerAdminCommands(program);
registerHandoffCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  // Operator errors get their message, not a stack trace.
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  const hint = error instanceof UpstreamError && error.hint ? `\n  ${error.hint}` : '';
  process.stderr.write(`chatbridge: ${message}${hint}\n`);
  process.exit(1);
});
