import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskStreamEvent } from '../../../src/upstream/api.js';
import { ChatbotServiceClient, UpstreamError } from '../../../src/upstream/index.js';
import { sendEnvelope, sendFailure, startFakeUpstream, type FakeHandler, type FakeUpstream } from './fake-upstream.js';

let upstream: FakeUpstream | undefined;
let client: ChatbotServiceClient | undefined;

afterEach(async () => {
  await client?.close();
  await upstream?.close();
  client = undefined;
  upstream = undefined;
});

async function setUp(
  handler: FakeHandler,
  options: Partial<ConstructorParameters<typeof ChatbotServiceClient>[0]> = {},
) {
  upstream = await startFakeUpstream(handler);
  client = new ChatbotServiceClient({ baseUrl: upstream.url, secretKey: 's', sessionKey: 'k', ...options });
  return { upstream, client };
}

async function collect(events: AsyncIterable<AskStreamEvent>): Promise<AskStreamEvent[]> {
  const seen: AskStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

async function streamFailure(
  events: AsyncIterable<AskStreamEvent>,
): Promise<{ error: UpstreamError; before: AskStreamEvent[] }> {
  const before: AskStreamEvent[] = [];
  try {
    for await (const event of events) before.push(event);
  } catch (error) {
    if (error instanceof UpstreamError) return { error, before };
    throw error;
  }
  throw new Error('expected the stream to fail with an UpstreamError');
}

const final = { QuestionID: 1, AnswerID: 2, Answer: 'Grüße aus 🏠!', TotalToken: 7 };
const sseBody = `: hello\n\ndata: {"content":"Grüße"}\n\ndata: {"content":" aus 🏠!"}\n\ndata: ${JSON.stringify(final)}\n\ndata: [DONE]\n\n`;
const expected: AskStreamEvent[] = [
  { type: 'fragment', content: 'Grüße' },
  { type: 'fragment', content: ' aus 🏠!' },
  {
    type: 'final',
    questionId: 1,
    answerId: 2,
    answer: 'Grüße aus 🏠!',
    totalToken: 7,
    noAnswer: null,
    incomplete: false,
  },
];

/** Writes `body` in pieces of `size` bytes with a pause after each, cutting through multi-byte characters. */
function slowly(contentType: string, body: string, size: number): FakeHandler {
  return async (request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    const bytes = Buffer.from(body);
    for (let offset = 0; offset < bytes.length; offset += size) {
      response.write(bytes.subarray(offset, offset + size));
      await delay(2);
    }
    response.end();
  };
}

describe('askStream', () => {
  it('asks with stream true and reads an SSE answer written slowly in small pieces', async () => {
    const { upstream, client } = await setUp(slowly('text/event-stream', sseBody, 3));
    expect(await collect(client.askStream({ sessionId: 5, content: 'hi' }))).toEqual(expected);
    expect(JSON.parse(upstream.requests[0]?.body ?? '')).toMatchObject({ sessionID: 5, stream: true });
    expect(upstream.requests[0]?.headers.accept).toContain('text/event-stream');
  });

  it('reads bare JSON lines', async () => {
    const body = `{"content":"Grüße"}\n{"content":" aus 🏠!"}\n${JSON.stringify(final)}\n`;
    const { client } = await setUp(slowly('application/x-ndjson', body, 5));
    expect(await collect(client.askStream({ sessionId: 5, content: 'hi' }))).toEqual(expected);
  });

  it('ends with an incomplete final holding the fragments when the service hangs up early', async () => {
    const { client } = await setUp(
      slowly('text/event-stream', 'data: {"content":"Half an"}\n\ndata: {"content":" answer"}\n\n', 7),
    );
    expect((await collect(client.askStream({ sessionId: 5, content: 'hi' }))).at(-1)).toMatchObject({
      type: 'final',
      answer: 'Half an answer',
      incomplete: true,
    });
  });

  it('fails with a timeout when the stream goes silent for longer than the idle timeout', async () => {
    const { client } = await setUp(
      (request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: {"content":"Hel"}\n\n');
      },
      { streamIdleTimeoutMs: 150 },
    );
    const { error, before } = await streamFailure(client.askStream({ sessionId: 5, content: 'hi' }));
    expect(before).toEqual([{ type: 'fragment', content: 'Hel' }]);
    expect(error).toMatchObject({ kind: 'timeout', operation: 'ClientAsk' });
  });

  it('does not count the time the consumer spends between events as silence', async () => {
    const { client } = await setUp(slowly('text/event-stream', sseBody, 1000), { streamIdleTimeoutMs: 100 });
    const seen: AskStreamEvent[] = [];
    for await (const event of client.askStream({ sessionId: 5, content: 'hi' })) {
      seen.push(event);
      await delay(250);
    }
    expect(seen).toEqual(expected);
  });

  it('closes the request when the consumer stops reading', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const { client } = await setUp((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"content":"one"}\n\n');
      response.on('close', () => closed());
    });
    for await (const event of client.askStream({ sessionId: 5, content: 'hi' })) {
      expect(event).toEqual({ type: 'fragment', content: 'one' });
      break;
    }
    await connectionClosed;
  });

  it('fails with the envelope’s Message when the service answers with an error envelope', async () => {
    const { client } = await setUp((request, response) =>
      sendFailure(response, 429, 429, 'Too many messages, wait a minute'),
    );
    const { error } = await streamFailure(client.askStream({ sessionId: 5, content: 'hi' }));
    expect(error).toMatchObject({ kind: 'http', status: 429, code: 429, message: 'Too many messages, wait a minute' });
  });

  it('fails when an error object arrives inside the stream', async () => {
    const { client } = await setUp(
      slowly(
        'text/event-stream',
        'data: {"content":"a"}\n\ndata: {"Success":false,"Code":500,"Message":"model failed"}\n\n',
        9,
      ),
    );
    const { error, before } = await streamFailure(client.askStream({ sessionId: 5, content: 'hi' }));
    expect(before).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'envelope', code: 500, message: 'model failed' });
  });

  it('gives one final when a host ignores stream true and answers with one JSON envelope', async () => {
    const { client } = await setUp((request, response) =>
      sendEnvelope(response, { messageid: 4, content: 'All at once', totalToken: 3 }),
    );
    expect(await collect(client.askStream({ sessionId: 5, content: 'hi' }))).toEqual([
      {
        type: 'final',
        questionId: null,
        answerId: 4,
        answer: 'All at once',
        totalToken: 3,
        noAnswer: false,
        incomplete: false,
      },
    ]);
  });

  it('refuses an HTML page as an invalid response', async () => {
    const { client } = await setUp((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Sign in</body></html>');
    });
    const { error } = await streamFailure(client.askStream({ sessionId: 5, content: 'hi' }));
    expect(error.kind).toBe('invalid-response');
  });
});

describe('uploadFile', () => {
  function uploadHandler(fileStoreId: unknown, putStatus = 200): FakeHandler {
    return (request, response) => {
      if (request.path === '/chat/User/GetPreUploadUrl') {
        const host = request.headers.host ?? '';
        sendEnvelope(response, {
          FileStoreId: fileStoreId,
          PreUploadUrl: `http://${host}/bucket/abc.png?X-Amz-Expires=600&sig=1`,
        });
      } else if (request.path.startsWith('/bucket/')) {
        response.writeHead(putStatus);
        response.end(putStatus === 200 ? '' : '<Error><Code>AccessDenied</Code></Error>');
      } else {
        sendEnvelope(response, true);
      }
    };
  }
  const png = { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), fileName: 'photo.png', contentType: 'image/png' };

  it('gets a pre-upload URL, PUTs the bytes there, confirms, and returns the id as a number', async () => {
    const { upstream, client } = await setUp(uploadHandler('34317'), { uploadConfirmPath: '/chat/User/ConfirmUpload' });
    expect(await client.uploadFile(png)).toEqual({ fileId: 34317 });
    const [reserve, put, confirm] = upstream.requests;
    expect(JSON.parse(reserve?.body ?? '')).toEqual({ fileName: 'photo.png' });
    expect(reserve?.headers.authorization).toBe('s');
    expect(put).toMatchObject({ method: 'PUT', path: '/bucket/abc.png?X-Amz-Expires=600&sig=1' });
    expect(put?.headers['content-type']).toBe('image/png');
    expect(put?.headers.authorization).toBeUndefined();
    expect([...(put?.bytes ?? [])]).toEqual([...png.bytes]);
    expect(confirm?.path).toBe('/chat/User/ConfirmUpload');
    expect(JSON.parse(confirm?.body ?? '')).toEqual({ FileStoreId: '34317' });
  });

  it('skips the confirm step when no confirm path is configured, and accepts a numeric FileStoreId', async () => {
    const { upstream, client } = await setUp(uploadHandler(12));
    expect(await client.uploadFile(png)).toEqual({ fileId: 12 });
    expect(upstream.requests.map((request) => request.method)).toEqual(['POST', 'PUT']);
  });

  it('refuses a FileStoreId that is not an integer, since ClientAsk could not use it', async () => {
    const { client } = await setUp(uploadHandler('abc-123'));
    await expect(client.uploadFile(png)).rejects.toMatchObject({
      kind: 'invalid-response',
      operation: 'GetPreUploadUrl',
    });
  });

  it('reports a refused PUT as an UploadPut error with its status', async () => {
    const { client } = await setUp(uploadHandler('1', 403));
    await expect(client.uploadFile(png)).rejects.toMatchObject({ kind: 'http', operation: 'UploadPut', status: 403 });
  });
});
