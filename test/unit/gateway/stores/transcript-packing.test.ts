/**
 * A transcript's entries are packed into compressed chunks once a process has written enough of them (issue 32: Redis
 * memory per idle conversation), off the answer's path; a reader sees the same transcript before and after, in order,
 * capped as before, whichever process packed it. Real Redis, and the memory store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayKeys } from '../../../../src/gateway/state-keys.js';
import { TranscriptStore, type TranscriptEntry } from '../../../../src/gateway/stores/transcript.js';
import { packEntries } from '../../../../src/gateway/stores/transcript-pack.js';
import type { ConversationRef } from '../../../../src/contract.js';
import { MemoryStateStore, type StateStore } from '../../../../src/state/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';

const redis = isolatedRedisStore('transcript-packing', { checkSlots: true });
afterAll(() => redis.cleanup());

const TTL = 90 * 24 * 60 * 60_000;
let conversations = 0;
const newConversation = (): ConversationRef => ({ bot: 'main', platform: 'packing', id: `c${++conversations}` });

/** A user's question and the bot's answer, in words that differ from turn to turn as real ones do. */
const turn = (n: number): TranscriptEntry[] => [
  { at: 1_700_000_000_000 + n * 2, role: 'user', text: `Is the house number ${n} on Maple Street still for sale?` },
  {
    at: 1_700_000_000_001 + n * 2,
    role: 'bot',
    text:
      `Yes, house ${n} is available. It has ${(n % 4) + 2} bedrooms, a garden facing south and a garage; ` +
      `the asking price is $${(300 + n * 7).toLocaleString('en')},000 and viewings are on weekdays after ${n % 12} pm.`,
  },
];

for (const [name, state] of [
  ['Redis', redis],
  ['the memory store', new MemoryStateStore()],
] as [string, StateStore][]) {
  describe(`a transcript packed into chunks (${name})`, () => {
    const store = (packEntries: number, maxEntries = 200) =>
      new TranscriptStore(state, { maxEntries, ttlMs: TTL, packEntries });

    it('reads the same entries, in order, after its writer packed them, and after more were written', async () => {
      const transcript = store(8);
      const conversation = newConversation();
      for (let n = 0; n < 4; n++) await transcript.append(conversation, ...turn(n));
      await transcript.packer.idle();
      expect(await state.listRange(gatewayKeys.transcript(conversation), 0, -1)).toEqual([]);
      expect(await state.listRangeBytes(gatewayKeys.transcriptPacks(conversation), 0, -1)).toHaveLength(1);
      const all = [0, 1, 2, 3].flatMap(turn);
      expect(await transcript.read(conversation)).toEqual(all);

      await transcript.append(conversation, ...turn(4));
      expect(await transcript.read(conversation)).toEqual([...all, ...turn(4)]);
      expect(await transcript.read(conversation, 3)).toEqual([...turn(3).slice(1), ...turn(4)]);
      // Another process, which packs nothing itself, reads it all the same.
      expect(await store(0).read(conversation)).toEqual([...all, ...turn(4)]);
    });

    it('keeps the newest entries up to the cap, packed or not', async () => {
      const transcript = store(4, 10);
      const conversation = newConversation();
      for (let n = 0; n < 15; n++) {
        await transcript.append(conversation, ...turn(n));
        await transcript.packer.idle();
      }
      const expected = [...Array(15).keys()].flatMap(turn).slice(-10);
      expect(await transcript.read(conversation)).toEqual(expected);
    });

    it('packs nothing when packing is off', async () => {
      const transcript = store(0);
      const conversation = newConversation();
      for (let n = 0; n < 6; n++) await transcript.append(conversation, ...turn(n));
      await transcript.packer.idle();
      expect(await state.listRangeBytes(gatewayKeys.transcriptPacks(conversation), 0, -1)).toEqual([]);
      expect(await transcript.read(conversation)).toHaveLength(12);
    });
  });
}

describe('a packed chunk', () => {
  it('is much smaller than the entries it holds (four answers and their questions)', () => {
    const entries = [0, 1, 2, 3].flatMap(turn);
    const json = entries.reduce((bytes, entry) => bytes + Buffer.byteLength(JSON.stringify(entry)), 0);
    expect(packEntries(entries).length).toBeLessThan(json / 2);
  });
});
