import type { Server } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger.js';
import type { GatewayMetrics } from './metrics.js';
import { requireAdminToken } from './admin-auth.js';

/**
 * A backstop: /readyz answers 503 after this long whatever its check waits for, so a
 * probe never hangs. The checks keep their own shorter deadlines, with a better reason.
 */
export const READY_CHECK_DEADLINE_MS = 2_000;

export interface HttpServerOptions {
  metrics: GatewayMetrics;
  /** Resolves when every dependency answers; rejects with the reason otherwise (503 after READY_CHECK_DEADLINE_MS). */
  ready: () => Promise<void>;
  adminToken?: string;
  /** Where a failed request's error goes (the client only gets a JSON line, never the stack). */
  logger?: Logger;
  /**
   * Express `trust proxy` (http.trustProxy, TRUST_PROXY): when set, X-Forwarded-Proto and -For are
   * believed (req.secure, req.ip). Off by default: anyone could send them.
   */
  trustProxy?: boolean | number | string;
}

/**
 * The one HTTP server of a gateway process (docs/architecture.md): health, metrics,
 * platform routes (webhooks), the admin API and, in embedded mode, the service's /chat
 * routes. Parts are mounted by whoever owns them; this module knows none of them.
 */
export class HttpServer {
  readonly app: Express = express();
  private readonly admin: Router = express.Router();
  /**
   * Everything mounted with mount(). Made here and placed before the 404 and error handlers,
   * so that a part mounted after listen() (once the port is known) is reached like any other.
   */
  private readonly routes: Router = express.Router();
  private server: Server | undefined;
  /** Set by stopping(): /readyz answers 503 from then on, whatever its checks say. */
  private stoppingSince: number | undefined;

  constructor(private readonly options: HttpServerOptions) {
    this.app.disable('x-powered-by');
    this.app.set('trust proxy', options.trustProxy ?? false);
    this.app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    });
    this.app.get('/readyz', async (_req, res) => {
      // A load balancer stops sending here; what it already sent is still served (webhooks refuse new messages themselves).
      if (this.stoppingSince !== undefined) {
        res.status(503).json({
          status: 'stopping',
          reason: 'the process is stopping: answers in progress finish, new messages go to another process',
        });
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the readiness check did not finish within ${READY_CHECK_DEADLINE_MS / 1000} s`)),
          READY_CHECK_DEADLINE_MS,
        );
      });
      try {
        await Promise.race([options.ready(), deadline]);
        res.json({ status: 'ready' });
      } catch (error) {
        res.status(503).json({ status: 'not ready', reason: (error as Error).message });
      } finally {
        clearTimeout(timer);
      }
    });
    this.app.get('/metrics', async (_req, res) => {
      res.set('Content-Type', options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
    });
    this.app.use('/admin', requireAdminToken(options.adminToken), express.json({ limit: '1mb' }), this.admin);
    this.app.use(this.routes);
    this.app.use((req, res) => {
      res.status(404).json({ error: `No route for ${req.method} ${req.path}` });
    });
    this.app.use(this.onError);
  }

  /** Mounts a platform route, the hand-back link or the embedded service; before or after listen(). */
  mount(path: string, handler: RequestHandler | Router | Express): void {
    this.routes.use(path, handler);
  }

  /** Admin routes, mounted under /admin behind the bearer token. */
  get adminRouter(): Router {
    return this.admin;
  }

  /** Without this, express answers with an HTML page that holds the stack trace. */
  private readonly onError: ErrorRequestHandler = (
    error: { status?: unknown; expose?: unknown; message?: unknown },
    req,
    res,
    _next,
  ) => {
    const status = typeof error.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500)
      this.options.logger?.error({ err: error, method: req.method, path: req.path }, 'HTTP request failed');
    if (res.headersSent) return void res.end();
    const message =
      status < 500 && error.expose === true && typeof error.message === 'string'
        ? error.message
        : 'The request failed inside the gateway; the error is in its log.';
    res.status(status).json({ error: message });
  };

  /**
   * The process is stopping (SIGTERM): /readyz answers 503 so that a load balancer or Kubernetes
   * takes it out of rotation. The server keeps serving until close(): the embedded service's
   * /chat routes are still called by the answers finishing, and probes still get an answer.
   */
  stopping(): void {
    this.stoppingSince ??= Date.now();
  }

  async listen(port: number, host: string): Promise<number> {
    this.server = await new Promise<Server>((resolve, reject) => {
      const server = this.app.listen(port, host, (error?: Error) =>
        error ? reject(listenError(error, port, host)) : resolve(server),
      );
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

/** Why the port could not be opened, naming the setting that fixes it. */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new Error(`PORT ${port} is in use (set PORT=… to a free port, or stop what listens on ${port}).`, {
        cause: error,
      });
    case 'EACCES':
      return new Error(`PORT ${port} needs privileges this process does not have (set PORT=… to 1024 or above).`, {
        cause: error,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new Error(
        `HOST ${host} is not an address of this machine (set HOST=127.0.0.1, or 0.0.0.0 for every interface).`,
        { cause: error },
      );
    default:
      return error;
  }
}
