import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a local server (e.g. the fake Bot API), which a test
 * closes to make the server unreachable (connections refused, open ones reset)
 * and opens again, on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  /** e.g. `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Refuses new connections and resets the open ones. */
  cut(): Promise<void>;
  /** Accepts connections again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(
  target: { host?: string; port: number },
  options: { port?: number } = {},
): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = options.port ?? 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (typeof address === 'object' && address) port = address.port;
        server = next;
        resolve();
      });
    });
  const cut = async () => {
    const running = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    cut,
    restore: () => (server ? Promise.resolve() : listen()),
    close: cut,
  };
}
