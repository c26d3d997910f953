import type { Server } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger.js';
import type { GatewayMetrics } from './metrics.js';
import { requireAdminToken } from './admin-auth.js';

export interface HttpServerOptions {
  metrics: GatewayMetrics;
  /** Resolves when every dependency answers; rejects with the reason otherwise. */
  ready: () => Promise<void>;
  adminToken?: string;
  /** Where a failed request's error goes (the client only gets a JSON line, never the stack). */
  logger?: Logger;
}

/**
 * The one HTTP server of a gateway process (DESIGN.md §7): health, metrics,
 * platform webhooks, the admin API and, in embedded mode, the service's /chat routes.
 * Parts are mounted by whoever owns them; this module knows none of them.
 */
export class HttpServer {
  readonly app: Express = express();
  private readonly admin: Router = express.Router();
  private server: Server | undefined;

  constructor(private readonly options: HttpServerOptions) {
    this.app.disable('x-powered-by');
    this.app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    });
    this.app.get('/readyz', async (_req, res) => {
      try {
        await options.ready();
        res.json({ status: 'ready' });
      } catch (error) {
        res.status(503).json({ status: 'not ready', reason: (error as Error).message });
      }
    });
    this.app.get('/metrics', async (_req, res) => {
      res.set('Content-Type', options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
    });
    this.app.use('/admin', requireAdminToken(options.adminToken), express.json({ limit: '1mb' }), this.admin);
  }

  /** Mounts a platform webhook or the embedded service (before start). */
  mount(path: string, handler: RequestHandler | Router | Express): void {
    this.app.use(path, handler);
  }

  /** Admin routes, mounted under /admin behind the bearer token. */
  get adminRouter(): Router {
    return this.admin;
  }

  async listen(port: number, host: string): Promise<number> {
    this.app.use((req, res) => {
      res.status(404).json({ error: `No route for ${req.method} ${req.path}` });
    });
    // Without this, express answers with an HTML page that holds the stack trace.
    const onError: ErrorRequestHandler = (error: { status?: unknown; expose?: unknown; message?: unknown }, req, res, _next) => {
      const status = typeof error.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
      if (status >= 500) this.options.logger?.error({ err: error, method: req.method, path: req.path }, 'HTTP request failed');
      if (res.headersSent) return void res.end();
      const message = status < 500 && error.expose === true && typeof error.message === 'string'
        ? error.message
        : 'The request failed inside the gateway; the error is in its log.';
      res.status(status).json({ error: message });
    };
    this.app.use(onError);
    this.server = await new Promise<Server>((resolve, reject) => {
      const server = this.app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
