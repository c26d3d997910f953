import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded `/v1/chat/completions` request. */
export interface RecordedCompletion {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    temperature?: number;
    stream?: boolean;
    messages: {
      role: string;
      content:
        string | { type: string; text?: string; image_url?: { url: string }; input_audio?: { format: string } }[];
    }[];
  };
}

export interface FakeOpenAi {
  /** Base URL including `/v1`, as OpenAI clients expect it. */
  baseUrl: string;
  requests: RecordedCompletion[];
  /** The reply's text fragments for the next requests (default: "Fake reply to: <last user text>" in words). */
  reply(fragments: string[] | null): void;
  /** Makes the next request fail with this HTTP status. */
  failNext(status: number, message: string): void;
  close(): Promise<void>;
}

function lastUserText(body: RecordedCompletion['body']): string {
  const content = body.messages.at(-1)?.content ?? '';
  return typeof content === 'string'
    ? content
    : content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join(' ');
}

/**
 * A local stand-in for an OpenAI-compatible server: `POST /v1/chat/completions`
 * with `stream: true` answers the way OpenAI does (SSE `data:` chunks with
 * `choices[0].delta.content`, a usage chunk when asked, then `data: [DONE]`).
 */
export async function startFakeOpenAi(options: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const requests: RecordedCompletion[] = [];
  let fragments: string[] | null = null;
  let failure: { status: number; message: string } | null = null;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedCompletion['body'] & {
      stream_options?: { include_usage?: boolean };
    };
    requests.push({ headers: req.headers, body });
    if (failure) {
      const { status, message } = failure;
      failure = null;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message } }));
      return;
    }
    const parts = fragments ?? `Fake reply to: ${lastUserText(body)}`.split(/(?<= )/);
    const id = `chatcmpl-${requests.length}`;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const part of parts) res.write(chunk({ content: part }));
    res.write(chunk({}, 'stop'));
    if (body.stream_options?.include_usage) {
      const usage = { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (next) => {
      fragments = next;
    },
    failNext: (status, message) => {
      failure = { status, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
