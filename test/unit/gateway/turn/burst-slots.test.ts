import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/recording-adapter.js';

describe('a burst settling holds no answer slot', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('answers another conversation while a burst is still being written, with one slot in the process', async () => {
    harness = await startHarness({ policy: { maxAnswersInFlight: 1, burstMs: 1_500, burstMaxWaitMs: 6_000 } });
    const { adapter, service } = harness;
    await adapter.say('writer', 'hi');
    // Someone else asks while the first person is still writing their burst, bubble after bubble.
    await adapter.say('asker', 'a quick question');
    let bubbles = 0;
    const writing = setInterval(() => void adapter.say('writer', `and ${++bubbles}`), 700);
    try {
      await eventually(() => expect(adapter.textsIn('asker')).toEqual(['You said: a quick question']), 5_000);
      // Answered while the burst still grew: the writer's one answer has not come yet.
      expect(adapter.textsIn('writer')).toEqual([]);
    } finally {
      clearInterval(writing);
    }
    await eventually(() => expect(adapter.textsIn('writer')).toHaveLength(1), 10_000);
    expect(service.asks.filter((ask) => ask.content.startsWith('hi'))).toHaveLength(1);
  });
});
