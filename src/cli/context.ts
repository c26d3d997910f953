import { redisSetting, redisTopology, type Config } from '../config/index.js';
import { createLogger, type Logger } from '../logger.js';
import { resolveServiceKeys } from '../runtime/service-keys.js';
import { gatewayBots } from '../runtime/bots.js';
import { loadGatewayConfig } from '../runtime/platforms.js';
import { createStateStore, describeTopology, type StateStore } from '../state/index.js';
import { ChatbotServiceClient, UpstreamError } from '../upstream/index.js';

/** What an admin command needs: config, a client of the upstream, and the shared state. */
export interface CliContext {
  config: Config;
  logger: Logger;
  state: StateStore;
  client: ChatbotServiceClient;
  /** The service called: a hosted one (UPSTREAM_BASE_URL), or the embedded one inside the gateway running here. */
  upstream: { embedded: boolean; baseUrl: string };
  /** The serial number of the bot chosen with --bot (default: the first). */
  serialNumber(botId?: string): string;
  close(): Promise<void>;
}

/** What the admin commands need on the default set-up, said once for every way they can fail there. */
export const EMBEDDED_NEEDS =
  'The admin commands (ask, settings, listings, models, sessions) call the embedded Chatbot Service inside a running gateway ' +
  '(`chatbridge start` on this machine, same PORT) with its keys: read from Redis (the same REDIS_URL as the gateway), or set SERVICE_SECRET_KEY and ' +
  'SERVICE_SESSION_KEY to the same values for both. With a hosted Chatbot Service, set UPSTREAM_BASE_URL and UPSTREAM_SECRET_KEY instead.';

/** How long a command waits for Redis to answer before saying it is unreachable (it would otherwise retry forever). */
const REDIS_ANSWER_DEADLINE_MS = 5_000;

/** The shared state, checked to answer first: an unreachable REDIS_URL is named, not waited on. */
async function openCliState(config: Config): Promise<StateStore> {
  let connectionError: Error | undefined;
  const topology = redisTopology(config);
  const state = createStateStore({
    topology,
    prefix: config.keyPrefix,
    onConnectionError: (error) => (connectionError = error),
  });
  if (!topology) return state;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      state.ping(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`no answer within ${REDIS_ANSWER_DEADLINE_MS / 1000} s`)),
            REDIS_ANSWER_DEADLINE_MS,
          )),
      ),
    ]);
    return state;
  } catch (error) {
    await state.close();
    const setting = redisSetting(topology);
    throw new CliError(
      `${describeTopology(topology)}, set by ${setting}, ` +
        `is not reachable (${connectionError?.message ?? (error as Error).message}); start it or fix ${setting}.`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** A failure of an admin command, said for the set-up in use (the upstream client's hints are written for a hosted service). */
export class CliError extends Error {}

/**
 * Against a hosted service: its base URL and keys. Against the embedded one: the running
 * gateway (http://127.0.0.1:PORT) with the keys from SERVICE_* or the shared Redis.
 */
export async function openCliContext(): Promise<CliContext> {
  const config = loadGatewayConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const state = await openCliState(config);
  let baseUrl = config.upstream.baseUrl;
  let secretKey = config.upstream.secretKey ?? '';
  let sessionKey = config.upstream.sessionKey ?? '';
  if (!baseUrl) {
    baseUrl = `http://127.0.0.1:${config.port}`;
    if (state.kind === 'memory' && !(config.service.secretKey && config.service.sessionKey)) {
      await state.close();
      throw new CliError(
        `REDIS_URL is not set, so the running gateway's generated keys cannot be read from here. ${EMBEDDED_NEEDS}`,
      );
    }
    ({ secretKey, sessionKey } = await resolveServiceKeys(config, state));
  }
  const client = new ChatbotServiceClient({
    baseUrl,
    secretKey,
    sessionKey,
    timeoutMs: config.upstream.timeoutMs,
    paths: config.upstream.paths,
    uploadConfirmPath: config.upstream.uploadConfirmPath ?? null,
  });
  const bots = gatewayBots(config);
  return {
    config,
    logger,
    state,
    client,
    upstream: { embedded: !config.upstream.baseUrl, baseUrl },
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
  } catch (error) {
    throw explainUpstreamError(error, ctx.upstream);
  } finally {
    await ctx.close();
  }
}

/** The embedded service's failures in its own terms: no gateway running, or keys that are not its keys. */
export function explainUpstreamError(error: unknown, upstream: CliContext['upstream']): unknown {
  if (!upstream.embedded || !(error instanceof UpstreamError)) return error;
  if (error.kind === 'network') {
    return new CliError(`No gateway answers at ${upstream.baseUrl} (${error.message}). ${EMBEDDED_NEEDS}`, {
      cause: error,
    });
  }
  if (error.status === 401 || error.status === 403 || error.code === 401 || error.code === 403) {
    return new CliError(
      `The gateway at ${upstream.baseUrl} refused the keys (${error.message}): it runs with other keys. ${EMBEDDED_NEEDS}`,
      { cause: error },
    );
  }
  return error;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
