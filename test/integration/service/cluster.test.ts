/**
 * The embedded service on a real 3-master Redis Cluster (issue #13): every step that
 * writes several keys at once (a listing and its cache token, a delete, a chatbot's
 * removal, an answer's history and session renewal, an upload's bytes and metadata) is
 * one MULTI, which a cluster accepts only when its keys share a slot. Each test walks
 * one of them through the public API, on the test cluster (REDIS_CLUSTER_NODES, or the
 * one the global setup starts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcKeys } from '../../../src/service/state-keys.js';
import { NO_CLUSTER_REASON, testRedisClusterNodes } from '../../support/redis.js';
import { media } from './media-fixtures.js';
import { startTestService, type TestService } from './harness.js';

interface Page {
  List: { ID: number; MLSNumber: string }[];
  VirtualCount: number;
}

const hasCluster = testRedisClusterNodes().length > 0;
if (!hasCluster) console.warn(`The embedded service on a Redis Cluster: skipped (${NO_CLUSTER_REASON})`);

let service: TestService;

beforeAll(async () => {
  if (hasCluster) service = await startTestService({ topology: 'cluster', limits: { imageBytes: 1024 } });
});
afterAll(() => service?.close());

const list = (query: Record<string, unknown>) =>
  service.call<Page>('/chat/Chatbot/RealEstateList', query, { auth: 'session' });
const ask = (body: Record<string, unknown>) => service.call<{ content: string }>('/chat/Chat/ClientAsk', body);

describe.skipIf(!hasCluster)('the embedded service on a Redis Cluster', () => {
  it("creates, lists, filters and deletes a chatbot's listings", async () => {
    const serialNumber = await service.newChatbot();
    for (const [MLSNumber, City] of [
      ['A', 'Austin'],
      ['B', 'Denver'],
      ['C', 'Austin'],
    ] as const) {
      await service.createListing(serialNumber, { MLSNumber, City, Url: `https://h/${MLSNumber}` });
    }
    expect((await list({ SerialNumber: serialNumber })).body.Data!.List.map((item) => item.MLSNumber)).toEqual([
      'A',
      'B',
      'C',
    ]);
    expect(
      (await list({ SerialNumber: serialNumber, CityName: 'austin' })).body.Data!.List.map((item) => item.MLSNumber),
    ).toEqual(['A', 'C']);

    const deleted = await service.call(
      '/chat/Chatbot/RealEstateDelete',
      { SerialNumber: serialNumber, Keys: ['A', 'B'], KeyType: 'MLSNumber' },
      { auth: 'session' },
    );
    expect(deleted.body.Data).toEqual({ SuccessCount: 2 });
    expect((await list({ SerialNumber: serialNumber })).body.Data!.List.map((item) => item.MLSNumber)).toEqual(['C']);
  });

  it('removes a chatbot with its listings, after which it is unknown', async () => {
    const serialNumber = await service.newChatbot();
    await service.createListing(serialNumber);
    expect((await service.call('/chat/Chatbot/Remove', { serialNumber })).body).toMatchObject({ Success: true });
    expect((await list({ SerialNumber: serialNumber })).status).toBe(404);
    expect((await service.call('/chat/Chatbot/GetSession', { serialNumber })).status).toBe(404);
  });

  it('answers in a session, keeps its history and enforces the rate and monthly limits', async () => {
    const serialNumber = await service.newChatbot({ RateLimitCount: 2, RateLimitTime: 3600, MessageLimit: 3 });
    await service.createListing(serialNumber, { City: 'Austin', MLSNumber: 'TX-1' });
    const sessionID = await service.newSession(serialNumber);
    expect((await ask({ sessionID, content: 'homes in Austin' })).body.Data!.content).toMatch(/^I found 1 listing/);
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(429);
    const history = await service.state.listRange(svcKeys.history(sessionID), 0, -1);
    expect(history.map((entry) => (JSON.parse(entry) as { role: string }).role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);

    const otherSession = await service.newSession(serialNumber);
    expect((await ask({ sessionID: otherSession, content: 'hi' })).status).toBe(200);
    const capped = await ask({ sessionID: otherSession, content: 'hi' });
    expect(capped.body).toMatchObject({
      Code: 429,
      Message: expect.stringMatching(/used its 3 messages for this month/) as unknown,
    });
  });

  it('takes an upload, confirms it and answers a question about the image', async () => {
    const serialNumber = await service.newChatbot();
    const sessionID = await service.newSession(serialNumber);
    const fileId = await service.upload(media.png(), 'house.png');
    expect((await service.call('/chat/User/ConfirmUpload', { FileStoreId: String(fileId) })).body).toMatchObject({
      Success: true,
      Data: { FileStoreId: String(fileId), ContentType: 'image/png' },
    });
    expect((await ask({ sessionID, content: 'what is this?', chatAskType: 'Image', fileIds: [fileId] })).status).toBe(
      200,
    );
  });
});
