/**
 * The fake's Socket Mode endpoint (docs/platforms.md §B.4): the URL that
 * apps.connections.open hands out upgrades to a WebSocket that says `hello`,
 * then carries envelopes `{envelope_id, type, payload}` the app must ack with
 * `{envelope_id, payload?}`. Acks are recorded in the world.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { World } from './world.js';

export type EnvelopeType = 'events_api' | 'interactive' | 'slash_commands';

export interface Envelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: unknown;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

/** Slack pings its Socket Mode clients; @slack/socket-mode drops a connection that hears none for 30 s. */
const SERVER_PING_INTERVAL_MS = 10_000;
export const SOCKET_PATH = '/socket-mode';

export class SocketModeEndpoint {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly open = new Set<WebSocket>();
  private ticket = 0;
  private envelopeCounter = 0;
  private readonly pinger: NodeJS.Timeout;
  /** Connections accepted so far (a reconnect adds one). */
  connectionsOpened = 0;

  constructor(
    server: Server,
    private readonly world: World,
    private readonly appId: string,
  ) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!req.url?.startsWith(SOCKET_PATH)) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    this.pinger = setInterval(() => {
      for (const ws of this.open) ws.ping();
    }, SERVER_PING_INTERVAL_MS);
    this.pinger.unref();
  }

  /** A fresh connection URL, as apps.connections.open returns (each with its own ticket, like Slack's). */
  url(baseHttpUrl: string): string {
    return `${baseHttpUrl.replace(/^http/, 'ws')}${SOCKET_PATH}?ticket=fake-${++this.ticket}&app_id=${this.appId}`;
  }

  private accept(ws: WebSocket): void {
    this.open.add(ws);
    this.connectionsOpened++;
    ws.on('close', () => {
      this.open.delete(ws);
      this.world.changed();
    });
    ws.on('message', (data) => {
      let message: { envelope_id?: unknown; payload?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      if (typeof message.envelope_id !== 'string') return;
      const hasPayload = message.payload !== undefined && Object.keys(message.payload as object).length > 0;
      this.world.socketAcks.push({
        envelope_id: message.envelope_id,
        ...(hasPayload ? { payload: message.payload } : {}),
      });
      this.world.changed();
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.open.size,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    this.world.changed();
  }

  openConnections(): number {
    return this.open.size;
  }

  /** Sends an envelope on the newest open connection (Slack sends each envelope on one connection); returns its id. */
  push(type: EnvelopeType, payload: unknown, options: { retryAttempt?: number; envelopeId?: string } = {}): string {
    const ws = [...this.open].at(-1);
    if (!ws)
      throw new Error(
        'fake Slack: no Socket Mode connection is open (has the app started and called apps.connections.open?)',
      );
    const envelope: Envelope = {
      envelope_id: options.envelopeId ?? `env-${String(++this.envelopeCounter).padStart(6, '0')}`,
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
      ...(type === 'events_api'
        ? { retry_attempt: options.retryAttempt ?? 0, retry_reason: options.retryAttempt ? 'timeout' : '' }
        : {}),
    };
    ws.send(JSON.stringify(envelope));
    return envelope.envelope_id;
  }

  /** Slack asks every client to reconnect (`disconnect` message, reason refresh_requested), or drops the sockets outright. */
  disconnectAll(how: 'refresh_requested' | 'terminate' = 'refresh_requested'): void {
    for (const ws of this.open) {
      if (how === 'terminate') ws.terminate();
      else
        ws.send(
          JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-fake' } }),
        );
    }
  }

  close(): void {
    clearInterval(this.pinger);
    for (const ws of this.open) ws.terminate();
    this.wss.close();
  }
}
