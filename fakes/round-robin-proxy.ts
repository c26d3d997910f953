/**
 * A tiny HTTP load balancer for the replica tests and benchmark: each request goes
 * to the next backend in turn. A backend that cannot be reached (killed, stopped)
 * gets the request's answer 502, as nginx or a cloud load balancer answer, so that
 * the platform (Telegram, Slack) delivers it again; the next request goes to the
 * next backend. No health checks: a dead backend keeps its turn, as in the first
 * seconds before a real load balancer notices, which is the harder case. It lives
 * in fakes/ (outside test/) so that bench/replicas.ts can use it too.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  readonly port: number;
  /** e.g. `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The backends' ports, in turn order; may be replaced at any time. */
  setBackends(ports: readonly number[]): void;
  /** Requests answered 502 because their backend could not be reached. */
  readonly badGateways: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: readonly number[] = []): Promise<RoundRobinProxy> {
  let ports = [...backends];
  let next = 0;
  let badGateways = 0;

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    if (ports.length === 0) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"no backend"}');
      return;
    }
    const port = ports[next++ % ports.length]!;
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      badGateways++;
      if (res.headersSent) return void res.destroy();
      res
        .writeHead(502, { 'content-type': 'application/json' })
        .end(`{"error":"backend 127.0.0.1:${port} unreachable"}`);
    });
    req.pipe(upstream);
  };

  const server: Server = createServer(forward);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    setBackends(list) {
      ports = [...list];
    },
    get badGateways() {
      return badGateways;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
