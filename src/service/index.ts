import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createServiceApp, prepareService } from './app.js';
import { seedDemoData } from './demo.js';
import { errorEnvelope } from './envelope.js';
import type { ServiceOptions } from './options.js';

export { createServiceApp, prepareService } from './app.js';
export {
  DEMO_SERIAL_NUMBER,
  demoChatbotSettings,
  embeddedSettingsReader,
  seedDemoData,
  serviceSettingDefaults,
} from './demo.js';
export { generateServiceKeys, type ServiceKeys } from './keys.js';
export { API_VERSION } from './envelope.js';
export { DEFAULT_LIMITS, type EngineOptions, type ServiceLimits, type ServiceOptions } from './options.js';
export { svcKeys } from './state-keys.js';

export interface RunningService {
  /** `http://host:port`, no trailing slash. */
  url: string;
  app: express.Express;
  close(): Promise<void>;
}

/**
 * The service on its own HTTP server (the `chatbridge service` command, tests,
 * benchmarks). Every path, not only `/chat/...`, answers with the envelope.
 */
export async function startService(
  options: ServiceOptions & { port?: number; host?: string },
): Promise<RunningService> {
  // Seeded before listening, so a failure stops the start with its reason.
  if (options.seedDemo) await seedDemoData(options.state);
  await prepareService(options);
  const app = express();
  app.disable('x-powered-by');
  app.use(createServiceApp({ ...options, seedDemo: false }));
  app.use((req, res) => {
    res
      .status(404)
      .json(
        errorEnvelope(404, `There is no endpoint ${req.method} ${req.path}; the service's paths start with /chat/.`),
      );
  });

  const host = options.host ?? '127.0.0.1';
  const server = app.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    app,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
