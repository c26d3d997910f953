/**
 * A scripted Chatbot Service for tests: the hosted service is a system outside chatbridge,
 * like a chat platform, so tests meet it through a fake that speaks its wire protocol
 * (docs/chatbot-service-api.md) on 127.0.0.1, and the gateway talks to it through the real
 * upstream client (src/upstream): HTTP, keys, envelope and the decoding of the stream included.
 * Its answers are the fragments a test scripts; its faults are the ones a test needs: down,
 * answers held (before they start, or half-way), sessions forgotten, a question refused with
 * a Code, an answer broken off mid-stream.
 *
 *   const service = await startScriptedChatbotService({ answer: (ask) => ({ fragments: [`You said: ${ask.content}`] }) });
 *   const upstream = new ChatbotServiceClient({ baseUrl: service.url, secretKey: service.secretKey, sessionKey: service.sessionKey });
 *
 * Tests that only need real answers use the embedded service (src/service) instead.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scriptedServiceListener } from './routes.js';
import { ScriptedServiceWorld, type ScriptedServiceOptions } from './world.js';

export { listingItem } from './listings.js';
export type {
  AnswerScript,
  HeldAnswer,
  RecordedAsk,
  RecordedUpload,
  ScriptedReply,
  ScriptedServiceOptions,
  ServiceFailure,
} from './world.js';

export class ScriptedChatbotService extends ScriptedServiceWorld {
  private readonly server: Server;
  private address: string | null = null;

  constructor(options: ScriptedServiceOptions) {
    super(options);
    this.server = createServer(scriptedServiceListener(this));
    this.server.on('connection', (socket) => {
      // Down: the connection is reset as it opens, as by a host whose service is not running.
      if (!this.down) return;
      this.failedCalls++;
      socket.resetAndDestroy();
    });
  }

  /** `http://127.0.0.1:<port>`: the base URL for the upstream client. */
  get url(): string {
    if (this.address === null)
      throw new Error('the scripted Chatbot Service is not listening; start it with startScriptedChatbotService()');
    return this.address;
  }

  async listen(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.closeAllConnections();
      this.server.close((error) => (error ? reject(error) : resolve()));
    });
  }
}

export async function startScriptedChatbotService(options: ScriptedServiceOptions): Promise<ScriptedChatbotService> {
  const service = new ScriptedChatbotService(options);
  await service.listen();
  return service;
}
