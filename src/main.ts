/**
 * `chatbridge <command>` (docs/architecture.md): the composition root of the CLI. `npm start` runs `chatbridge start`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { ConfigError, redisTopology } from './config/index.js';
import { createLogger, logToFile, routeConsoleToLogger } from './logger.js';
import { localPlatformsOpening } from './runtime/local-platforms.js';
import { gatewayConfigSecrets, loadGatewayConfig, PLATFORMS } from './runtime/platforms.js';
import { startRuntime } from './runtime/runtime.js';
import { resolveServiceKeys } from './runtime/service-keys.js';
import { startService } from './service/index.js';
import { createStateStore } from './state/index.js';
import { UpstreamError } from './upstream/index.js';
import { registerAdminCommands } from './cli/admin-commands.js';
import { registerAskCommand } from './cli/ask-command.js';
import { registerDigestCommands } from './cli/digest-commands.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { registerHandoffCommands } from './cli/handoff-commands.js';
import { registerMigrateStateCommand } from './cli/migrate-state.js';
import { registerOperatorCommands } from './cli/operator-commands.js';
import { registerServiceKeysCommand } from './cli/service-keys-command.js';

function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`chatbridge: stopping failed: ${error.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/** While a local platform (the console) is open the log goes here (the OS temp dir), named in the console's greeting. */
const LOCAL_LOG_FILE = join(tmpdir(), 'chatbridge-console.log');

// One level up from src/, two from a build in dist/src/.
const packageJson = [new URL('../package.json', import.meta.url), new URL('../../package.json', import.meta.url)].find(
  (url) => existsSync(url),
);
const { version } = JSON.parse(readFileSync(packageJson ?? new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const program = new Command('chatbridge')
  .description('Chat gateway for the Chatbot Service. Serves Telegram, Slack, WhatsApp and a terminal console.')
  .version(version)
  .showHelpAfterError();

program
  .command('start')
  .description(
    'run the gateway (with the embedded Chatbot Service unless UPSTREAM_BASE_URL is set); the default command',
  )
  .action(async () => {
    const config = loadGatewayConfig();
    const local = localPlatformsOpening(config, PLATFORMS);
    const localOpen = local.open.length > 0;
    const logger = createLogger(process.env.LOG_LEVEL ?? config.logLevel, { secrets: gatewayConfigSecrets(config) });
    // JSON lines on the chat prompt would garble the conversation: to a file, still redacted (errors shown too).
    if (localOpen) logToFile(logger, LOCAL_LOG_FILE);
    for (const notice of local.notices) process.stderr.write(`chatbridge: ${notice}\n`);
    // Libraries that print (grammY runner, Node warnings) go through the logger: JSON, secrets redacted.
    routeConsoleToLogger(logger);
    const holder: { runtime?: Awaited<ReturnType<typeof startRuntime>> } = {};
    const stop = async () => holder.runtime?.stop();
    try {
      holder.runtime = await startRuntime(config, logger, {
        onLocalClosed: () => void stop().then(() => process.exit(0)),
        ...(localOpen ? { localLogFile: LOCAL_LOG_FILE } : {}),
      });
    } catch (error) {
      // Through the logger, not raw stderr: the reason may quote a URL with a password in it.
      logger.fatal({ err: error }, `chatbridge could not start: ${(error as Error).message}`);
      process.exit(1);
    }
    stopOnSignals(stop);
  });

program
  .command('service')
  .description('run only the embedded Chatbot Service')
  .option('--port <n>', 'port', (v) => Number(v))
  .option('--host <host>', 'host', '127.0.0.1')
  .action(async (opts: { port?: number; host: string }) => {
    const config = loadGatewayConfig();
    const logger = createLogger(config.logLevel, { secrets: gatewayConfigSecrets(config) });
    const state = createStateStore({ topology: redisTopology(config), prefix: config.keyPrefix });
    if (state.kind === 'memory')
      logger.warn('REDIS_URL is not set: the service keeps its data in memory, lost on restart.');
    // As `chatbridge start` does: a key that is set is used, one that is not is generated once and kept in state.
    const { secretKey, sessionKey } = await resolveServiceKeys(config, state);
    const keys = { secretKey, sessionKey };
    const service = await startService({
      state,
      ...keys,
      host: opts.host,
      port: opts.port ?? config.port,
      engine: config.service.engine,
      seedDemo: config.service.seedDemo,
      logger,
    });
    process.stdout.write(
      `Chatbot Service at ${service.url}\nAuthorization (secret key): ${keys.secretKey}\nchatrobot-sessionkey (session key): ${keys.sessionKey}\n`,
    );
    stopOnSignals(async () => {
      await service.close();
      await state.close();
    });
  });

registerAskCommand(program);
registerDoctorCommand(program);
registerAdminCommands(program);
registerHandoffCommands(program);
registerDigestCommands(program);
registerOperatorCommands(program);
registerMigrateStateCommand(program);
registerServiceKeysCommand(program);

// `chatbridge` alone (and `npm start`) runs the gateway. Not commander's default command: that
// would take `chatbridge typo` as `start typo` instead of saying the command is unknown.
const argv = process.argv.length > 2 ? process.argv : [...process.argv, 'start'];
program.on('command:*', ([name]: string[]) => {
  process.stderr.write(
    `chatbridge: unknown command "${name}". Commands: ${program.commands.map((c) => c.name()).join(', ')} (chatbridge --help says what each does).\n`,
  );
  process.exit(1);
});

program.parseAsync(argv).catch((error: unknown) => {
  // Operator errors get their message, not a stack trace.
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  const hint = error instanceof UpstreamError && error.hint ? `\n  ${error.hint}` : '';
  process.stderr.write(`chatbridge: ${message}${hint}\n`);
  process.exit(1);
});
