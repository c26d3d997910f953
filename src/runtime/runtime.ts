import type { RequestHandler } from 'express';
import type { Config } from '../config/index.js';
import { createGateway, type Gateway } from '../gateway/index.js';
import { installHandoff, reserveHandoffRoutes } from '../handoff/index.js';
import { GatewayMetrics } from '../http/metrics.js';
import { HttpServer } from '../http/server.js';
import type { Logger } from '../logger.js';
import { createServiceApp } from '../service/index.js';
import { createStateStore, type StateStore } from '../state/index.js';
import { ChatbotServiceClient } from '../upstream/index.js';
import { buildAdapters } from './adapters.js';
import { gatewayBots } from './bots.js';
import { resolveServiceKeys } from './service-keys.js';

export interface Runtime {
  /** The port the HTTP server listens on (useful with PORT=0). */
  port: number;
  gateway: Gateway;
  state: StateStore;
  http: HttpServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Called when the console is closed (Ctrl-D): the CLI stops the process. */
  onConsoleClose?: () => void;
}

/** Verifies Redis before anything else, so an unreachable one is reported by its setting. */
async function openState(config: Config, logger: Logger): Promise<StateStore> {
  let lastConnectionError: Error | undefined;
  const state = createStateStore({
    redisUrl: config.redisUrl,
    prefix: config.keyPrefix,
    onConnectionError: (error) => {
      lastConnectionError = error;
      logger.error({ err: error.message }, 'Redis at REDIS_URL (redisUrl) is not reachable; retrying');
    },
  });
  if (state.kind === 'memory') {
    logger.warn('REDIS_URL is not set: state is kept in memory, lost on restart, and cannot be shared between gateway processes.');
    return state;
  }
  try {
    await Promise.race([state.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5000))]);
  } catch (error) {
    await state.close();
    const reason = lastConnectionError?.message ?? (error as Error).message;
    throw new Error(`Redis at REDIS_URL (redisUrl) ${config.redisUrl} is not reachable (${reason}). Start Redis or fix REDIS_URL; unset it to keep state in memory.`, { cause: error });
  }
  return state;
}

/** Mounts the embedded Chatbot Service's /chat routes once its base URL (the listening port) is known. */
function lateServiceMount(http: HttpServer): (handler: RequestHandler) => void {
  let service: RequestHandler | undefined;
  http.mount('/', (req, res, next) => (service && req.path.startsWith('/chat/') ? service(req, res, next) : next()));
  return (handler) => {
    service = handler;
  };
}

/** `chatbridge start`: state, HTTP server, embedded service (unless UPSTREAM_BASE_URL), gateway, adapters. */
export async function startRuntime(config: Config, logger: Logger, options: StartOptions = {}): Promise<Runtime> {
  const state = await openState(config, logger);
  const metrics = new GatewayMetrics();
  const http = new HttpServer({ metrics, ready: () => state.ping(), logger: logger.child({ part: 'http' }), ...(config.admin.token ? { adminToken: config.admin.token } : {}) });
  const embedded = !config.upstream.baseUrl;
  const mountService = embedded ? lateServiceMount(http) : undefined;

  const built = buildAdapters(config, logger, options);
  for (const webhook of built.webhooks) http.mount(webhook.path, webhook.handler);
  reserveHandoffRoutes(http);
  const port = await http.listen(config.port, config.host);
  const selfUrl = `http://127.0.0.1:${port}`;

  let upstreamKeys = { secretKey: config.upstream.secretKey ?? '', sessionKey: config.upstream.sessionKey ?? '' };
  if (mountService) {
    const keys = await resolveServiceKeys(config, state);
    if (keys.generated) {
      logger.info({ secretKey: keys.secretKey, sessionKey: keys.sessionKey }, 'Embedded Chatbot Service keys (set SERVICE_SECRET_KEY / SERVICE_SESSION_KEY to choose your own)');
    }
    mountService(createServiceApp({ state, secretKey: keys.secretKey, sessionKey: keys.sessionKey, publicBaseUrl: selfUrl, engine: config.service.engine, seedDemo: config.service.seedDemo, logger: logger.child({ part: 'service' }) }));
    upstreamKeys = keys;
  } else if (!upstreamKeys.secretKey) {
    throw new Error('UPSTREAM_SECRET_KEY (upstream.secretKey) is required when UPSTREAM_BASE_URL is set.');
  }

  const upstream = new ChatbotServiceClient({
    baseUrl: config.upstream.baseUrl ?? selfUrl,
    secretKey: upstreamKeys.secretKey,
    sessionKey: upstreamKeys.sessionKey,
    timeoutMs: config.upstream.timeoutMs,
    paths: config.upstream.paths,
    uploadConfirmPath: config.upstream.uploadConfirmPath ?? null,
  });
  const gateway = createGateway({
    state,
    upstream,
    bots: gatewayBots(config),
    adapters: built.adapters,
    logger: logger.child({ part: 'gateway' }),
    ffmpegPath: config.media.ffmpegPath,
    observer: metrics.observer(),
  });
  const handoff = await installHandoff({ gateway, state, config, logger, http, selfUrl });
  await gateway.start();
  logger.info({ port, embedded, adapters: built.adapters.map((a) => `${a.platform}:${a.bot}`) }, 'chatbridge is running');

  return {
    port,
    gateway,
    state,
    http,
    async stop() {
      await gateway.stop();
      await handoff.stop();
      await http.close();
      await upstream.close();
      await state.close();
    },
  };
}
