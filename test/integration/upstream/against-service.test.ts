import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service/index.js';
import { MemoryStateStore } from '../../../src/state/index.js';
import type { AskStreamEvent, ListingInput } from '../../../src/upstream/api.js';
import { ChatbotServiceClient, UpstreamError } from '../../../src/upstream/index.js';

/**
 * Every operation of the client against the embedded Chatbot Service over real
 * HTTP: the two halves of the project must agree on the wire.
 */
const SECRET = 'upstream-test-secret';
const SESSION_KEY = 'upstream-test-session';
/** The smallest bytes that sniff as PNG (a header, not a viewable image). */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
]);

let service: RunningService;
let client: ChatbotServiceClient;

beforeAll(async () => {
  service = await startService({ state: new MemoryStateStore(), secretKey: SECRET, sessionKey: SESSION_KEY });
  client = new ChatbotServiceClient({
    baseUrl: service.url,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    uploadConfirmPath: '/chat/User/ConfirmUpload',
  });
});

afterAll(async () => {
  await client.close();
  await service.close();
});

function listingFor(serialNumber: string): ListingInput {
  return {
    SerialNumber: serialNumber,
    SaleType: 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: 'Single Family Residential',
    Bedrooms: 3,
    Bathrooms: 2.5,
    Url: 'https://example.com/maple-12',
    MLSNumber: 'MLS-UP-1',
    YearBuilt: 1998,
    DaysOnMarket: 2,
    LotArea: 800,
    BuildingArea: 2500,
    AreaUnit: 'Square Feet',
    ParkingSpots: 2,
    City: 'Austin',
    State: 'TX',
    Address: '12 Maple Street',
    ZIP: '78701',
    SalePrice: 750000,
    Images: ['https://example.com/1.jpg'],
    ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
  };
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (outcome instanceof UpstreamError) return outcome;
  throw new Error(`expected an UpstreamError, got ${String(outcome)}`);
}

describe('the client against the embedded Chatbot Service', () => {
  it('drives every operation from creating a chatbot to removing it', async () => {
    const serialNumber = await client.addChatbot({ timeZone: 'America/Chicago' });
    expect(serialNumber).toMatch(/^[0-9a-f]{32}$/);

    await client.edit({ serialNumber, Name: 'Maple Realty', WelcomeMessage: 'Welcome to Maple Realty!' });
    const { sessionId } = await client.getSession(serialNumber);
    expect(Number.isInteger(sessionId)).toBe(true);

    const listingId = await client.createListing(listingFor(serialNumber));
    const page = await client.listListings({ SerialNumber: serialNumber, CityName: 'Austin' });
    expect(page.VirtualCount).toBe(1);
    expect(page.List[0]).toMatchObject({ ID: Number(listingId), City: 'Austin', Bedrooms: '3', MLSNumber: 'MLS-UP-1' });

    const answer = await client.ask({ sessionId, content: 'Do you have a house for sale in Austin?' });
    expect(answer.content.length).toBeGreaterThan(0);
    expect(answer.messageId).toBeGreaterThan(0);

    const events: AskStreamEvent[] = [];
    for await (const event of client.askStream({ sessionId, content: 'How many bedrooms does it have?' }))
      events.push(event);
    const final = events.at(-1);
    expect(events.slice(0, -1).every((event) => event.type === 'fragment')).toBe(true);
    expect(final).toMatchObject({ type: 'final', incomplete: false });
    expect(final?.type === 'final' && final.answer.length > 0).toBe(true);

    const models = await client.modelList();
    expect(models.length).toBeGreaterThan(0);
    expect(models[0]).toEqual({ Key: expect.any(String), Value: expect.any(String), Status: expect.any(Boolean) });

    const { fileId } = await client.uploadFile({ bytes: PNG, fileName: 'front.png', contentType: 'image/png' });
    const withImage = await client.ask({ sessionId, content: '', chatAskType: 'Image', fileIds: [fileId] });
    expect(withImage.content.length).toBeGreaterThan(0);

    expect(await client.deleteListings({ SerialNumber: serialNumber, Keys: [listingId], KeyType: 'NewOaks' })).toEqual({
      successCount: 1,
    });
    expect((await client.listListings({ SerialNumber: serialNumber })).List).toEqual([]);

    await client.removeChatbot(serialNumber);
    const gone = await failure(client.getSession(serialNumber));
    expect(gone.operation).toBe('GetSession');
    expect(gone.status).toBeGreaterThanOrEqual(400);
  });

  it('reports a wrong secret key as a typed 401 with the service’s message and a hint', async () => {
    const wrong = new ChatbotServiceClient({ baseUrl: service.url, secretKey: 'not-the-key', sessionKey: SESSION_KEY });
    try {
      const error = await failure(wrong.addChatbot({}));
      expect(error).toMatchObject({ kind: 'http', status: 401, code: 401, operation: 'Add' });
      expect(error.message).toContain('Authorization');
      expect(error.hint).toMatch(/secret key/);
    } finally {
      await wrong.close();
    }
  });

  it('reports a wrong session key on RealEstateList, which takes only the session key', async () => {
    const wrong = new ChatbotServiceClient({ baseUrl: service.url, secretKey: SECRET, sessionKey: 'not-the-key' });
    try {
      const serialNumber = await wrong.addChatbot({});
      const error = await failure(wrong.listListings({ SerialNumber: serialNumber }));
      expect(error).toMatchObject({ kind: 'http', status: 401, operation: 'RealEstateList' });
      expect(error.message).toContain('chatrobot-sessionkey');
    } finally {
      await wrong.close();
    }
  });

  it('reports a streamed ask on an unknown session as a typed error, not an empty answer', async () => {
    const events = client.askStream({ sessionId: 987654321, content: 'hello?' });
    const error = await failure(
      (async () => {
        for await (const _event of events) {
          /* drain */
        }
      })(),
    );
    expect(error.operation).toBe('ClientAsk');
    expect(error.status).toBeGreaterThanOrEqual(400);
  });
});
