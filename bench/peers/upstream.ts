/**
 * The Chatbot Service stand-in chatbridge talks to over HTTP in the peers
 * benchmark: GetSession, and ClientAsk streamed as docs/chatbot-service-api.md
 * §6 describes (one `data:` JSON object per fragment, then the final object),
 * every fragment at once, no pause. The peers get the same chunks in process,
 * so this is work chatbridge does that they do not (decoding a real stream).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedService {
  readonly url: string;
  /** ClientAsk requests answered so far. */
  asked(): number;
  close(): Promise<void>;
}

function envelope(response: ServerResponse, data: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ Data: data, Version: '1.0.0', Success: true, Code: 200, Message: '' }));
}

export async function startScriptedService(chunks: readonly string[]): Promise<ScriptedService> {
  const answer = chunks.join('');
  // The stream is the same for every question: written once, sent as one buffer.
  const stream = Buffer.from(
    chunks.map((content) => `data: ${JSON.stringify({ content })}\n\n`).join('') +
      `data: ${JSON.stringify({ QuestionID: 1, AnswerID: 2, Answer: answer, TotalToken: 150, noAnswer: false })}\n\n`,
  );
  let asked = 0;
  let nextSession = 1;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '';
      if (path.endsWith('/GetSession')) return envelope(response, { SessionID: nextSession++ });
      if (path.endsWith('/ClientAsk')) {
        asked++;
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.end(stream);
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      response.end(
        JSON.stringify({ Success: false, Code: 404, Message: `the bench's service has no ${path}`, Version: '1.0.0' }),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked: () => asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
