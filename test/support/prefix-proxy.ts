import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy that mounts a server under a path prefix, as nginx's `location /support/ { proxy_pass
 * http://gateway/; }` does: `/support/inbox` reaches the server as `/inbox`, anything outside the prefix is a 404
 * of the proxy's own. The Host header is the server's (nginx's default), so the server cannot tell the public
 * address from the request: only PUBLIC_URL says it. Responses pass through unchanged and unbuffered (an SSE
 * stream flows), redirects included: a Location the server writes must already carry the prefix.
 */
export interface PrefixProxy {
  /** `http://127.0.0.1:<port>`: the public origin; the server is at `${url}${prefix}`. */
  readonly url: string;
  /** The paths requested of the proxy, as the browser wrote them. */
  readonly requested: string[];
  /** Where requests go from now on (the server's base URL, known once it listens). */
  forwardTo(target: string): void;
  close(): Promise<void>;
}

export async function startPrefixProxy(prefix: string): Promise<PrefixProxy> {
  let target: URL | undefined;
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const inside = path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);
    if (!target || !inside) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`the proxy serves only ${prefix}/`);
      return;
    }
    const stripped = path.slice(prefix.length);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: stripped.startsWith('/') ? stripped : `/${stripped}`,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requested,
    forwardTo(next) {
      target = new URL(next);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
