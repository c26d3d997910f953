/**
 * What `chatbridge start` adds to a gateway beyond createGateway (src/runtime/runtime.ts):
 * the human handoff (its pause check runs in every turn) and the metrics observer. A bench
 * that leaves them out measures fewer Redis round trips per answer than production makes.
 * The HTTP server is built but never listens: the handoff only mounts its routes on it.
 */
import { buildConfigSchema } from '../../src/config/index.js';
import type { Gateway } from '../../src/gateway/index.js';
import { installHandoff, type InstalledHandoff } from '../../src/handoff/index.js';
import { GatewayMetrics } from '../../src/http/metrics.js';
import { HttpServer } from '../../src/http/server.js';
import { silentLogger } from '../../src/logger.js';
import type { StateStore } from '../../src/state/index.js';

export interface ProductionWiring {
  /** Pass to createGateway({ observer }), as the runtime does. */
  metrics: GatewayMetrics;
  /** Installs the handoff on the gateway (after createGateway, before start); returns its stop. */
  install(gateway: Gateway, state: StateStore): Promise<() => Promise<void>>;
  /** The handoff once installed (its digests, its schedule), for a bench that drives them. */
  readonly handoff: InstalledHandoff | undefined;
}

export function productionWiring(bot: { id: string; serialNumber: string }): ProductionWiring {
  const metrics = new GatewayMetrics();
  let installed: InstalledHandoff | undefined;
  return {
    metrics,
    get handoff() {
      return installed;
    },
    async install(gateway, state) {
      // The defaults of an empty config file, as `chatbridge start` would load them (no SMTP: mails wait in the outbox).
      const config = buildConfigSchema([]).parse({ bots: [{ id: bot.id, serialNumber: bot.serialNumber }] });
      const http = new HttpServer({ metrics, ready: () => Promise.resolve(), logger: silentLogger() });
      const handoff = await installHandoff({ gateway, state, config, logger: silentLogger(), http });
      installed = handoff;
      return () => handoff.stop();
    },
  };
}
