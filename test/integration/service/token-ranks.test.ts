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

describe("the token counter's ranks (issue #12: idle memory)", () => {
  it("are loaded once, at the start of a service whose engine counts every answer, not on a user's first message", async () => {
    // The builtin engine reports no usage: the ranks are built at start (the build holds the event loop ~0.6 s).
    await expect.poll(() => ranks.loads, { timeout: 10_000 }).toBe(1);
    const serialNumber = await service.newChatbot();
    const sessionID = await service.newSession(serialNumber);

    // The builtin engine reports no usage, so its answers are counted.
    const first = await service.call<{ totalToken: number }>('/chat/Chat/ClientAsk', {
      sessionID,
      content: 'Do you have homes in Austin?',
    });
    const second = await service.call<{ totalToken: number }>('/chat/Chat/ClientAsk', {
      sessionID,
      content: 'And in Denver?',
    });
    expect(first.body.Data!.totalToken).toBeGreaterThan(0);
    expect(second.body.Data!.totalToken).toBeGreaterThan(0);
    expect(ranks.loads).toBe(1);
  });
});
