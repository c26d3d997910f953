import { afterEach, describe, expect, it } from 'vitest';
import type { AskStreamEvent } from '../../../src/upstream/api.js';
import { ChatbotServiceClient, DEFAULT_UPSTREAM_PATHS, UpstreamError } from '../../../src/upstream/index.js';
import {
  sendEnvelope,
  sendFailure,
  sendJson,
  startFakeUpstream,
  type FakeHandler,
  type FakeUpstream,
} from './fake-upstream.js';

const SECRET = 'secret-key-1';
const SESSION = 'session-key-1';
const listing = {
  SerialNumber: 'bot1',
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1.5,
  Url: 'https://example.com/1',
  MLSNumber: 'MLS1',
  YearBuilt: 2001,
  DaysOnMarket: 3,
  LotArea: 100,
  BuildingArea: 90,
  AreaUnit: 'Square Meters',
  ParkingSpots: 1,
} as const;

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
  client = new ChatbotServiceClient({
    baseUrl: upstream.url,
    secretKey: SECRET,
    sessionKey: SESSION,
    retryDelayMs: 10,
    ...options,
  });
  return { upstream, client };
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (outcome instanceof UpstreamError) return outcome;
  throw new Error(`expected an UpstreamError, got ${String(outcome)}`);
}

async function collect(events: AsyncIterable<AskStreamEvent>): Promise<AskStreamEvent[]> {
  const seen: AskStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Answers every documented operation successfully, like the spec's examples. */
const specLikeHandler: FakeHandler = (request, response) => {
  const answers: Record<string, unknown> = {
    [DEFAULT_UPSTREAM_PATHS.edit]: 1,
    [DEFAULT_UPSTREAM_PATHS.getSession]: { SessionID: 77 },
    [DEFAULT_UPSTREAM_PATHS.clientAsk]: { messageid: 9, content: 'Hi!', totalToken: 12, noAnswer: false },
    [DEFAULT_UPSTREAM_PATHS.realEstateCreate]: 'L-1',
    [DEFAULT_UPSTREAM_PATHS.realEstateList]: { List: [], VirtualCount: 0 },
    [DEFAULT_UPSTREAM_PATHS.realEstateDelete]: { SuccessCount: 1 },
    [DEFAULT_UPSTREAM_PATHS.modelList]: [{ Key: '2', Value: 'gpt-4o', Status: true }],
    [DEFAULT_UPSTREAM_PATHS.addChatbot]: '3254a9d0424c4806b9ea3d0763ccf000',
    [DEFAULT_UPSTREAM_PATHS.removeChatbot]: undefined,
  };
  sendEnvelope(response, answers[request.path]);
};

describe('credentials, per the spec’s authentication rules', () => {
  it('sends the raw secret key on secret-key operations, the session key on List, and both on Create and Delete', async () => {
    const { upstream, client } = await setUp(specLikeHandler);
    await client.edit({ serialNumber: 'bot1', Name: 'n' });
    await client.getSession('bot1');
    await client.ask({ sessionId: 77, content: 'hi' });
    await client.modelList();
    await client.addChatbot({});
    await client.removeChatbot('bot1');
    await client.listListings({ SerialNumber: 'bot1' });
    await client.createListing(listing);
    await client.deleteListings({ SerialNumber: 'bot1', Keys: ['L-1'], KeyType: 'NewOaks' });

    const credentials = Object.fromEntries(
      upstream.requests.map((request) => [
        `${request.method} ${request.path}`,
        [request.headers.authorization ?? '-', request.headers['chatrobot-sessionkey'] ?? '-'].join(' '),
      ]),
    );
    expect(credentials).toEqual({
      'POST /chat/Chatbot/Edit': `${SECRET} -`,
      'POST /chat/Chatbot/GetSession': `${SECRET} -`,
      'POST /chat/Chat/ClientAsk': `${SECRET} -`,
      'GET /chat/Chatbot/ModelList': `${SECRET} -`,
      'POST /chat/Chatbot/Add': `${SECRET} -`,
      'POST /chat/Chatbot/Remove': `${SECRET} -`,
      'POST /chat/Chatbot/RealEstateList': `- ${SESSION}`,
      'POST /chat/Chatbot/RealEstateCreate': `${SECRET} ${SESSION}`,
      'POST /chat/Chatbot/RealEstateDelete': `${SECRET} ${SESSION}`,
    });
  });

  it('sends the documented request bodies', async () => {
    const { upstream, client } = await setUp(specLikeHandler);
    await client.getSession('bot1');
    await client.ask({ sessionId: 77, content: 'look', chatAskType: 'Image', fileIds: [5, 6] });
    await client.addChatbot({ timeZone: 'Europe/Rome' });
    expect(upstream.requests.map((request) => JSON.parse(request.body) as unknown)).toEqual([
      { serialNumber: 'bot1' },
      { sessionID: 77, content: 'look', chatAskType: 'Image', stream: false, fileIds: [5, 6] },
      { timeZone: 'Europe/Rome', type: 0 },
    ]);
  });

  it('uses configured paths for white-label hosts', async () => {
    const { upstream, client } = await setUp((request, response) => sendEnvelope(response, { SessionID: 1 }), {
      paths: { getSession: '/api/v2/session' },
    });
    await client.getSession('bot1');
    expect(upstream.requests[0]?.path).toBe('/api/v2/session');
  });

  it('refuses an unknown path name instead of ignoring a typo', () => {
    expect(
      () =>
        new ChatbotServiceClient({
          baseUrl: 'http://127.0.0.1:1',
          secretKey: 's',
          sessionKey: 'k',
          paths: { getSesion: '/x' } as never,
        }),
    ).toThrow(/unknown upstream path "getSesion"/);
  });
});

describe('reading answers', () => {
  it('maps ClientAsk Data to a ChatAnswer, whatever the casing', async () => {
    const { client } = await setUp((request, response) =>
      sendJson(response, 200, {
        data: { MessageID: '31', Content: 'Hello', TotalToken: 4, NoAnswer: true },
        success: true,
        code: 200,
        message: '',
      }),
    );
    expect(await client.ask({ sessionId: 1, content: 'hi' })).toEqual({
      messageId: 31,
      content: 'Hello',
      totalToken: 4,
      noAnswer: true,
    });
  });

  it('reads list items with numbers as strings and absent values as empty strings', async () => {
    const { client } = await setUp((request, response) =>
      sendEnvelope(response, {
        List: [{ ID: 3, City: 'Austin', Bedrooms: 3, Price: '500000', LATITUDE: '30.2', LONGITUDE: null }],
        VirtualCount: 1,
      }),
    );
    const page = await client.listListings({ SerialNumber: 'bot1' });
    expect(page.VirtualCount).toBe(1);
    expect(page.List[0]).toMatchObject({
      ID: 3,
      City: 'Austin',
      Bedrooms: '3',
      Price: '500000',
      ZIP: '',
      LATITUDE: 30.2,
      LONGITUDE: 0,
    });
  });
});

describe('failures become typed UpstreamErrors', () => {
  it('a non-2xx answer keeps its status and the envelope’s Code and Message', async () => {
    const { client } = await setUp((request, response) => sendFailure(response, 401, 401, 'Invalid secret key'));
    const error = await failure(client.getSession('bot1'));
    expect(error).toMatchObject({
      kind: 'http',
      status: 401,
      code: 401,
      message: 'Invalid secret key',
      operation: 'GetSession',
    });
  });

  it('Success false on HTTP 200 is an envelope error', async () => {
    const { client } = await setUp((request, response) =>
      sendFailure(response, 200, 4003, 'Monthly message limit reached'),
    );
    const error = await failure(client.ask({ sessionId: 1, content: 'hi' }));
    expect(error).toMatchObject({
      kind: 'envelope',
      status: 200,
      code: 4003,
      message: 'Monthly message limit reached',
    });
  });

  it('a garbage body is an invalid response', async () => {
    const { client } = await setUp((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>Welcome to nginx</html>');
    });
    expect(await failure(client.modelList())).toMatchObject({ kind: 'invalid-response', operation: 'ModelList' });
  });

  it('Data of the wrong shape is an invalid response', async () => {
    const { client } = await setUp((request, response) => sendEnvelope(response, { SessionID: 'not a number' }));
    expect(await failure(client.getSession('bot1'))).toMatchObject({
      kind: 'invalid-response',
      operation: 'GetSession',
    });
  });

  it('a refused connection is a network error', async () => {
    const { upstream } = await setUp(specLikeHandler);
    const deadUrl = upstream.url;
    await upstream.close();
    const lonely = new ChatbotServiceClient({ baseUrl: deadUrl, secretKey: SECRET, sessionKey: SESSION, retries: 0 });
    try {
      expect(await failure(lonely.getSession('bot1'))).toMatchObject({ kind: 'network', operation: 'GetSession' });
    } finally {
      await lonely.close();
    }
  });

  it('a service that never answers is a timeout', async () => {
    const { client } = await setUp(() => undefined, { timeoutMs: 200 });
    expect(await failure(client.getSession('bot1'))).toMatchObject({ kind: 'timeout', operation: 'GetSession' });
  });

  it('the per-call timeout overrides the client’s', async () => {
    const { client } = await setUp(() => undefined, { timeoutMs: 60_000 });
    expect(await failure(client.modelList({ timeoutMs: 100 }))).toMatchObject({ kind: 'timeout' });
  });

  it('the caller’s AbortSignal aborts a call in flight, and an already aborted one never sends it', async () => {
    let received!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    const { upstream, client } = await setUp(() => received());
    const controller = new AbortController();
    const pending = failure(client.getSession('bot1', { signal: controller.signal }));
    await requestArrived;
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'aborted', operation: 'GetSession' });

    expect(await failure(client.ask({ sessionId: 1, content: 'x' }, { signal: AbortSignal.abort() }))).toMatchObject({
      kind: 'aborted',
    });
    expect(upstream.count(DEFAULT_UPSTREAM_PATHS.clientAsk)).toBe(0);
  });
});

describe('retries', () => {
  /** 503 for the first `failures` requests to each path, then the spec-like answer. */
  function flaky(failures: number): FakeHandler {
    const seen = new Map<string, number>();
    return (request, response) => {
      const count = (seen.get(request.path) ?? 0) + 1;
      seen.set(request.path, count);
      if (count <= failures) sendFailure(response, 503, 503, 'Service busy');
      else specLikeHandler(request, response);
    };
  }

  it('retries the idempotent operations until they succeed', async () => {
    const { upstream, client } = await setUp(flaky(2), { retries: 2 });
    await client.edit({ serialNumber: 'bot1' });
    await client.listListings({ SerialNumber: 'bot1' });
    await client.modelList();
    await client.deleteListings({ SerialNumber: 'bot1', Keys: ['1'], KeyType: 'NewOaks' });
    for (const path of ['edit', 'realEstateList', 'modelList', 'realEstateDelete'] as const) {
      expect(upstream.count(DEFAULT_UPSTREAM_PATHS[path])).toBe(3);
    }
  });

  it('gives up after the configured retries with the last answer’s error', async () => {
    const { upstream, client } = await setUp(flaky(100), { retries: 2 });
    const error = await failure(client.edit({ serialNumber: 'bot1' }));
    expect(error).toMatchObject({ kind: 'http', status: 503, message: 'Service busy' });
    expect(upstream.count(DEFAULT_UPSTREAM_PATHS.edit)).toBe(3);
  });

  it('never retries ClientAsk, GetSession, Create, Add, Remove or the upload', async () => {
    const { upstream, client } = await setUp(flaky(100), { retries: 3 });
    await failure(client.ask({ sessionId: 1, content: 'x' }));
    await failure(collect(client.askStream({ sessionId: 1, content: 'x' })));
    await failure(client.getSession('bot1'));
    await failure(client.createListing(listing));
    await failure(client.addChatbot({}));
    await failure(client.removeChatbot('bot1'));
    await failure(client.uploadFile({ bytes: new Uint8Array([1]), fileName: 'a.png' }));
    expect(upstream.count(DEFAULT_UPSTREAM_PATHS.clientAsk)).toBe(2);
    for (const path of ['getSession', 'realEstateCreate', 'addChatbot', 'removeChatbot', 'getPreUploadUrl'] as const) {
      expect(upstream.count(DEFAULT_UPSTREAM_PATHS[path])).toBe(1);
    }
  });

  it('stops waiting between attempts when the call’s deadline expires', async () => {
    const { client } = await setUp(flaky(100), { retries: 5, retryDelayMs: 60_000, timeoutMs: 300 });
    expect(await failure(client.modelList())).toMatchObject({ kind: 'timeout', operation: 'ModelList' });
  });

  it('does not retry a client error', async () => {
    const { upstream, client } = await setUp(
      (request, response) => sendFailure(response, 400, 400, 'serialNumber is required'),
      { retries: 3 },
    );
    expect(await failure(client.edit({ serialNumber: '' }))).toMatchObject({
      status: 400,
      message: 'serialNumber is required',
    });
    expect(upstream.count(DEFAULT_UPSTREAM_PATHS.edit)).toBe(1);
  });
});
