import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from './harness.js';

// The real ranks, counted as they are loaded: decoded they cost ~80 MB of a gateway's memory.
const ranks = vi.hoisted(() => ({ loads: 0 }));
vi.mock('js-tiktoken/ranks/cl100k_base', async (importOriginal) => {
  ranks.loads++;
  return importOriginal();
});

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('the token counter\'s ranks (issue #12: idle memory)', () => {
  it('are not loaded by a service that has not counted a token yet, and are loaded once by its first count', async () => {
    const serialNumber = await service.newChatbot();
    const sessionID = await service.newSession(serialNumber);
    expect(ranks.loads).toBe(0);

    // The builtin engine reports no usage, so its answers are counted.
    const first = await service.call<{ totalToken: number }>('/chat/Chat/ClientAsk', { sessionID, content: 'Do you have homes in Austin?' });
    const second = await service.call<{ totalToken: number }>('/chat/Chat/ClientAsk', { sessionID, content: 'And in Denver?' });
    expect(first.body.Data!.totalToken).toBeGreaterThan(0);
    expect(second.body.Data!.totalToken).toBeGreaterThan(0);
    expect(ranks.loads).toBe(1);
  });
});
