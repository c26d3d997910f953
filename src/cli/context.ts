import { loadConfig, type Config } from '../config/index.js';
import { createLogger, type Logger } from '../logger.js';
import { resolveServiceKeys } from '../runtime/service-keys.js';
import { gatewayBots } from '../runtime/bots.js';
import { createStateStore, type StateStore } from '../state/index.js';
import { ChatbotServiceClient } from '../upstream/index.js';

/** What an admin command needs: config, a client of the upstream, and the shared state. */
export interface CliContext {
  config: Config;
  logger: Logger;
  state: StateStore;
  client: ChatbotServiceClient;
  /** The serial number of the bot chosen with --bot (default: the first). */
  serialNumber(botId?: string): string;
  close(): Promise<void>;
}

/**
 * Against a hosted service: its base URL and keys. Against the embedded one: the running
 * gateway (http://127.0.0.1:PORT) with the keys from SERVICE_* or the shared Redis.
 */
export async function openCliContext(): Promise<CliContext> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const state = createStateStore({ redisUrl: config.redisUrl, prefix: config.keyPrefix });
  let baseUrl = config.upstream.baseUrl;
  let secretKey = config.upstream.secretKey ?? '';
  let sessionKey = config.upstream.sessionKey ?? '';
  if (!baseUrl) {
    baseUrl = `http://127.0.0.1:${config.port}`;
    if (state.kind === 'memory' && !(config.service.secretKey && config.service.sessionKey)) {
      throw new Error('The embedded service keeps its generated keys in Redis; without REDIS_URL, set SERVICE_SECRET_KEY and SERVICE_SESSION_KEY for both `npm start` and this command.');
    }
    ({ secretKey, sessionKey } = await resolveServiceKeys(config, state));
  }
  const client = new ChatbotServiceClient({ baseUrl, secretKey, sessionKey, timeoutMs: config.upstream.timeoutMs, paths: config.upstream.paths, uploadConfirmPath: config.upstream.uploadConfirmPath ?? null });
  const bots = gatewayBots(config);
  return {
    config,
    logger,
    state,
    client,
    serialNumber(botId) {
      const bot = botId ? bots.find((b) => b.id === botId) : bots[0];
      if (!bot) throw new Error(`No bot "${botId}" in bots[]; configured: ${bots.map((b) => b.id).join(', ')}.`);
      return bot.serialNumber;
    },
    async close() {
      await client.close();
      await state.close();
    },
  };
}

/** Runs an admin command with a context and closes it, whatever happens. */
export async function withCli<T>(run: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = await openCliContext();
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
