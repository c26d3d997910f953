/**
 * The fake WhatsApp's door: a WebSocket server on 127.0.0.1, one socket per client, so
 * that the fake library can run in another process (`chatbridge start` in a process test).
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { MAX_FRAME_BYTES, type ClientToWorld, type Hello, type WorldToClient } from './protocol.js';
import type { World } from './world.js';

export interface FakeWhatsAppServer {
  url: string;
  close(): Promise<void>;
}

export async function startWorldServer(world: World): Promise<FakeWhatsAppServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: MAX_FRAME_BYTES });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('connection', (socket: WebSocket) => {
    const send = (message: WorldToClient): void => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const id = world.connect({ push: (event, args) => send({ kind: 'event', event, args }) });
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as ClientToWorld;
      const run = async (): Promise<unknown> =>
        message.method === 'hello'
          ? world.hello(id, message.params[0] as Hello)
          : world.call(id, message.method, message.params);
      run().then(
        // JSON drops an undefined `value`: the library reads its absence as undefined (downloadMedia tells null from undefined).
        (value) => send({ kind: 'result', id: message.id, ok: true, value }),
        (error: unknown) =>
          send({
            kind: 'result',
            id: message.id,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
    });
    socket.on('close', () => world.disconnectPort(id));
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
