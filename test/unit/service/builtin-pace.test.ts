import { describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../../../src/service/engines/builtin.js';
import { estimatedTokens, paced } from '../../../src/service/engines/pace.js';
import type { AnswerRequest } from '../../../src/service/engines/types.js';
import type { Listing } from '../../../src/service/validation/listing.js';
import { defaultSettings } from '../../../src/service/validation/settings.js';

const home = (id: number, city: string): Listing => ({
  ID: id,
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1,
  Url: `https://homes.example/${id}`,
  MLSNumber: `M-${id}`,
  YearBuilt: 2000,
  DaysOnMarket: 1,
  LotArea: 0,
  BuildingArea: 900,
  AreaUnit: 'Square Feet',
  ParkingSpots: 1,
  City: city,
  Address: `${id} Long Street Name`,
  SalePrice: 400_000 + id,
});

const request = (question: string, signal = new AbortController().signal): AnswerRequest => ({
  chatbot: { serialNumber: 's', type: 0, createdAt: '', settings: defaultSettings() },
  model: 'builtin',
  question,
  askType: 'Text',
  files: [],
  listings: [1, 2, 3, 4, 5, 6].map((id) => home(id, 'Austin')),
  history: async () => [],
  signal,
});

/** Records the pauses the engine asks for instead of waiting them (an injected clock). */
function recordingSleep() {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms: number) => void pauses.push(ms) };
}

async function drain(engine: BuiltinEngine, req: AnswerRequest): Promise<string[]> {
  const fragments: string[] = [];
  for await (const fragment of engine.answer(req)) fragments.push(fragment);
  return fragments;
}

describe("the builtin engine's pace", () => {
  it('streams a long answer as many fragments with a pause before each but the first, at tokensPerSecond', async () => {
    const { pauses, sleep } = recordingSleep();
    const fragments = await drain(new BuiltinEngine({ tokensPerSecond: 40, sleep }), request('homes in Austin'));
    const text = fragments.join('');
    expect(text.length).toBeGreaterThan(500);
    expect(fragments.length).toBeGreaterThan(20);
    expect(pauses).toHaveLength(fragments.length - 1);
    // The pauses add up to the answer's tokens (after the first fragment) at 40 per second.
    const total = pauses.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeCloseTo((estimatedTokens(text.slice(fragments[0]!.length)) / 40) * 1000, 3);
  });

  it('a faster pace asks for proportionally shorter pauses', async () => {
    const slow = recordingSleep();
    const fast = recordingSleep();
    await drain(new BuiltinEngine({ tokensPerSecond: 20, sleep: slow.sleep }), request('homes in Austin'));
    await drain(new BuiltinEngine({ tokensPerSecond: 80, sleep: fast.sleep }), request('homes in Austin'));
    expect(slow.pauses.map((ms) => ms / 4)).toEqual(fast.pauses);
  });

  it('pace 0 yields the whole answer without a single pause', async () => {
    const { pauses, sleep } = recordingSleep();
    const fragments = await drain(new BuiltinEngine({ tokensPerSecond: 0, sleep }), request('homes in Austin'));
    expect(fragments.join('')).toMatch(/^I found 6 listings/);
    expect(pauses).toEqual([]);
  });

  it('stops when the client goes away, without an error', async () => {
    const controller = new AbortController();
    let pausesSeen = 0;
    const sleep = async (_ms: number, signal: AbortSignal) => {
      pausesSeen += 1;
      if (pausesSeen === 3) controller.abort();
      signal.throwIfAborted();
    };
    const fragments = await drain(
      new BuiltinEngine({ tokensPerSecond: 40, sleep }),
      request('homes in Austin', controller.signal),
    );
    expect(fragments).toHaveLength(3);
  });

  it('keeps every character: the fragments joined are the text', async () => {
    const parts: string[] = [];
    for await (const part of paced(['a ', 'b\n', 'c'], 1000, new AbortController().signal, async () => undefined))
      parts.push(part);
    expect(parts.join('')).toBe('a b\nc');
  });
});
