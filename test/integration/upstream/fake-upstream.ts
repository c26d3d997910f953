import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP peer that answers like the Chatbot Service would, scripted per
 * test, to provoke what the real service will not do on demand: stalls, 5xx,
 * garbage, slow streams. It records every request it saw.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  body: string;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Requests seen for one path. */
  count(path: string): number;
  close(): Promise<void>;
}

export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const bytes = Buffer.concat(parts);
      const recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        bytes,
        body: bytes.toString('utf8'),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => requests.filter((request) => request.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export function sendEnvelope(response: ServerResponse, data: unknown): void {
  sendJson(response, 200, { Data: data, Version: '1.0.0', Success: true, Code: 200, Message: '' });
}

export function sendFailure(response: ServerResponse, status: number, code: number, message: string): void {
  sendJson(response, status, { Version: '1.0.0', Success: false, Code: code, Message: message });
}
