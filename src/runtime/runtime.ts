import { redisSetting, redisTopology, type Config } from '../config/index.js';
import type { Adapter, PlatformModule } from '../contract.js';
import { createGateway, QueueLayout, type Gateway } from '../gateway/index.js';
import { installHandoff, type OperatorPage } from '../handoff/index.js';
import { requireAdminToken } from '../http/admin-auth.js';
import { GatewayMetrics } from '../http/metrics.js';
import { HttpServer } from '../http/server.js';
import { redactSecrets, type Logger } from '../logger.js';
import { createServiceApp, prepareService, seedDemoData, type ServiceKeys } from '../service/index.js';
import {
  createStateStore,
  describeTopology,
  isSupportedRedisVersion,
  MIN_REDIS_VERSION,
  RedisStateStore,
  type StateStore,
} from '../state/index.js';
import { ChatbotServiceClient } from '../upstream/index.js';
import { buildAdapters } from './adapters.js';
import { buildDoors } from './doors.js';
import { embeddedDemoSettings, gatewayBots, wireSettings } from './bots.js';
import { PLATFORMS } from './platforms.js';
import { readinessCheck, unconnectedAdapters } from './readiness.js';
import { resolveServiceKeys, restoreServiceKeys, SERVICE_KEYS_COMMAND } from './service-keys.js';
import { SEED_MARKER_KEY, StateLossWatch } from './state-watch.js';

export interface Runtime {
  /** The port the HTTP server listens on (useful with PORT=0). */
  port: number;
  gateway: Gateway;
  state: StateStore;
  http: HttpServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Called when a local platform (the console) is closed (Ctrl-D, :quit, end of piped input) once its messages are answered: the CLI stops the process. */
  onLocalClosed?: () => void;
  /** Where the log goes while a local platform is open (the CLI sends it there), named in the console's greeting. */
  localLogFile?: string;
  /** The platforms to serve; default this build's (adapters/index.ts). `config` must have been loaded with the same list. */
  platforms?: readonly PlatformModule[];
}

/** Verifies Redis before anything else, so an unreachable one is reported by its setting. */
async function openState(config: Config, logger: Logger): Promise<StateStore> {
  let lastConnectionError: Error | undefined;
  const topology = redisTopology(config);
  const setting = redisSetting(topology);
  const state = createStateStore({
    topology,
    prefix: config.keyPrefix,
    onConnectionError: (error) => {
      lastConnectionError = error;
      logger.error({ err: error.message }, `Redis at ${setting} is not reachable; retrying`);
    },
  });
  if (!topology) {
    logger.warn(
      'REDIS_URL is not set: state is kept in memory, lost on restart, and cannot be shared between gateway processes.',
    );
    return state;
  }
  const where = describeTopology(topology);
  try {
    await Promise.race([
      state.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5000)),
    ]);
  } catch (error) {
    await state.close();
    const reason = lastConnectionError?.message ?? (error as Error).message;
    throw new Error(
      `${where}, set by ${setting}, is not reachable (${reason}). Start Redis or fix ${setting}; unset it to keep state in memory.`,
      { cause: error },
    );
  }
  if (state instanceof RedisStateStore) {
    const version = await state.serverVersion();
    if (!isSupportedRedisVersion(version)) {
      await state.close();
      throw new Error(
        `${where}, set by ${setting}, runs Redis ${version}; ` +
          `chatbridge needs Redis ${MIN_REDIS_VERSION} or newer (GETEX, LPOP with a count). ` +
          `Upgrade it, or point ${setting} at a newer one.`,
      );
    }
  }
  logger.info({ redis: topology.kind }, `State in ${where}`);
  return state;
}

/**
 * Generated keys are secrets: the log (often shipped elsewhere) never holds them. They are
 * kept in Redis and printed by SERVICE_KEYS_COMMAND; in-memory state has no other process
 * to read them from, so there they are shown only to a person at a terminal.
 */
function logGeneratedKeys(logger: Logger, state: StateStore, keys: ServiceKeys, logOnTerminal: boolean): void {
  const chooseOwn = 'set SERVICE_SECRET_KEY and SERVICE_SESSION_KEY to choose your own';
  if (state.kind === 'redis') {
    logger.info(
      { readWith: SERVICE_KEYS_COMMAND },
      `Generated the embedded Chatbot Service keys and kept them in Redis; print them with \`${SERVICE_KEYS_COMMAND}\` (or ${chooseOwn})`,
    );
  } else if (logOnTerminal) {
    logger.info(
      { secretKey: keys.secretKey, sessionKey: keys.sessionKey },
      `Embedded Chatbot Service keys of this process (in-memory state: new ones on every start; ${chooseOwn})`,
    );
  } else {
    logger.info(
      `Generated embedded Chatbot Service keys for this process only (in-memory state); to call the service from elsewhere, ${chooseOwn}`,
    );
  }
}

async function seedDemo(state: StateStore, logger: Logger, config: Config): Promise<void> {
  logger.info(await seedDemoData(state, { settings: embeddedDemoSettings(config) }), 'demo chatbot ready');
}

/** Every route the adapters declare (webhooks, the WhatsApp QR page …), on the gateway's one port; admin-only ones behind the admin token. */
function mountAdapterRoutes(
  http: HttpServer,
  adapters: readonly Pick<Adapter, 'routes'>[],
  adminToken: string | undefined,
): void {
  for (const adapter of adapters) {
    for (const route of adapter.routes ?? []) {
      if (route.access !== 'admin') {
        http.mount(route.path, route.handler);
        continue;
      }
      const guard = requireAdminToken(adminToken, {
        what: `${route.path} (an admin page)`,
        browserHint: `sign in to the inbox and open /inbox${route.path}`,
      });
      http.mount(route.path, (req, res, next) =>
        guard(req, res, (error?: unknown) => (error ? next(error) : route.handler(req, res, next))),
      );
    }
  }
}

/** The adapters' admin pages, which the inbox serves to signed-in operators who may see their bot. */
function operatorPagesOf(adapters: readonly Adapter[]): OperatorPage[] {
  return adapters.flatMap((adapter) =>
    (adapter.routes ?? [])
      .filter((route) => route.access === 'admin')
      .map((route) => ({
        path: route.path,
        bot: adapter.bot,
        title: route.title ?? route.path,
        handler: route.handler,
      })),
  );
}

/** `chatbridge start`: state, HTTP server, embedded service (unless UPSTREAM_BASE_URL), gateway, adapters. */
export async function startRuntime(config: Config, logger: Logger, options: StartOptions = {}): Promise<Runtime> {
  const state = await openState(config, logger);
  const metrics = new GatewayMetrics();
  const platforms = options.platforms ?? PLATFORMS;
  const built = buildAdapters(config, logger, {
    platforms,
    state,
    onLocalClosed: options.onLocalClosed,
    localLogFile: options.localLogFile,
    metrics: (platform, bot) => metrics.forPlatform(platform, bot),
  });
  metrics.watchPlatforms(built.adapters);
  const http = new HttpServer({
    metrics,
    ready: readinessCheck(state, built.adapters, redisSetting(redisTopology(config))),
    logger: logger.child({ part: 'http' }),
    trustProxy: config.http.trustProxy,
    ...(config.admin.token ? { adminToken: config.admin.token } : {}),
  });
  const embedded = !config.upstream.baseUrl;
  // Created once the gateway exists (it seeds the gateway's settings mirror); a check before start() is a no-op.
  const watch: { current?: StateLossWatch } = {};

  const doors = buildDoors(config, logger, { platforms, adapters: built.adapters, state });
  mountAdapterRoutes(http, [...built.adapters, ...[...doors.values()].flat()], config.admin.token);
  // The slowest step of a start (the builtin engine's token ranks), done before the port opens:
  // webhooks that arrive once it is open wait for the adapters' start, and this shortens that wait.
  if (embedded) await prepareService(config.service);
  // Unset, a local demo (the console open) stays on this machine; a headless gateway serves webhooks and probes on every interface.
  const port = await http.listen(config.port, config.host ?? (built.localOpen ? '127.0.0.1' : '0.0.0.0'));
  const selfUrl = `http://127.0.0.1:${port}`;

  let upstreamKeys = { secretKey: config.upstream.secretKey ?? '', sessionKey: config.upstream.sessionKey ?? '' };
  /** Generated keys of the embedded service, kept in state (put back there after a state loss). */
  let storedKeys: ServiceKeys | undefined;
  if (embedded) {
    const keys = await resolveServiceKeys(config, state);
    // While a local platform is open the log goes to a file (main.ts): no keys there, even in memory.
    if (keys.generated) logGeneratedKeys(logger, state, keys, Boolean(process.stderr.isTTY) && !built.localOpen);
    if (!(config.service.secretKey && config.service.sessionKey)) storedKeys = keys;
    // Whether configured or generated, the keys are redacted from every log line.
    redactSecrets(logger, keys.secretKey, keys.sessionKey);
    const serviceLogger = logger.child({ part: 'service' });
    // Seeded here rather than by the app, so that the state watch below seeds it again the same way.
    if (config.service.seedDemo) await seedDemo(state, serviceLogger, config);
    // Made once its base URL (the listening port) is known. Each request first waits until the
    // state is seeded (see StateLossWatch; a check before the watch exists is a no-op).
    const service = createServiceApp({
      state,
      secretKey: keys.secretKey,
      sessionKey: keys.sessionKey,
      publicBaseUrl: selfUrl,
      engine: config.service.engine,
      seedDemo: false,
      logger: serviceLogger,
    });
    http.mount('/', (req, res, next) => {
      if (!req.path.startsWith('/chat/')) return next();
      (watch.current?.check() ?? Promise.resolve()).then(() => service(req, res, next), next);
    });
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
  const bots = gatewayBots(config);
  // Before anything of this start marks the store as used (the seed marker): a store no gateway used needs no older layout.
  const queueLayout = await QueueLayout.settle(state, async () => (await state.get(SEED_MARKER_KEY)) !== null);
  if (queueLayout.keepsLegacy)
    logger.info(
      'conversation locks are also kept as earlier versions keep them, for replicas of such a version; once none runs, ' +
        '`chatbridge migrate-state` ends it (README: Upgrading)',
    );
  const gateway = createGateway({
    queueLayout,
    state,
    upstream,
    bots,
    adapters: built.adapters,
    logger: logger.child({ part: 'gateway' }),
    ffmpegPath: config.media.ffmpegPath,
    observer: metrics.observer(),
    // Only the settings given: the rest keep the core's defaults.
    policy: Object.fromEntries(Object.entries(config.gateway).filter(([, value]) => value !== undefined)),
  });
  // The embedded service's settings are read from the service (the composition root wires it: the core never imports src/service).
  wireSettings(gateway.settings, { embedded, state, bots });
  const handoff = await installHandoff({
    gateway,
    state,
    config,
    logger,
    http,
    selfUrl,
    platforms,
    bots,
    operatorPages: operatorPagesOf(built.adapters),
    doors,
    listListings: (query) => upstream.listListings(query),
  });
  // Before the adapters start: a local platform asks its host only once started.
  built.host.bind(gateway, handoff.controller);
  // Resolves once each platform connected or failed a first time (then it keeps trying; see /readyz).
  await gateway.start();
  const stateWatch = new StateLossWatch({
    state,
    logger,
    async seed() {
      await queueLayout.reassert();
      for (const bot of bots) if (bot.settings) await gateway.settings.seed(bot.serialNumber, bot.settings);
      if (embedded && config.service.seedDemo) await seedDemo(state, logger.child({ part: 'service' }), config);
      if (storedKeys) await restoreServiceKeys(state, storedKeys);
    },
  });
  watch.current = stateWatch;
  await stateWatch.start();
  const connecting = unconnectedAdapters(built.adapters);
  logger.info(
    {
      port,
      embedded,
      adapters: built.adapters.map((a) => `${a.platform}:${a.bot}`),
      ...(connecting.length ? { connecting } : {}),
    },
    'chatbridge is running',
  );

  return {
    port,
    gateway,
    state,
    http,
    /**
     * In this order: out of the load balancer's rotation (/readyz 503); the adapters stop taking
     * messages (a webhook refuses with 503, so the platform redelivers it, to another replica;
     * polling stops fetching) and the answers in progress finish within gateway.stopGraceMs, then
     * every conversation lock is released (another replica takes those with messages left at
     * once, not after the lock's lifetime); the HTTP server closes only then (the embedded
     * service answers through it), and Redis last.
     */
    async stop() {
      http.stopping();
      logger.info(
        { graceMs: gateway.policy.stopGraceMs },
        'stopping: not ready any more, taking no new messages, letting the answers in progress finish',
      );
      stateWatch.stop();
      await gateway.stop();
      await handoff.stop();
      await http.close();
      await upstream.close();
      await state.close();
      logger.info('stopped');
    },
  };
}
