import { describe, expect, it } from 'vitest';
import { mayBurst, settledAt, takeBurst, type BurstRules } from '../../../../src/gateway/turn/burst.js';
import { isCommandLike } from '../../../../src/gateway/commands/index.js';
import type { QueuedMessage } from '../../../../src/gateway/drain/index.js';
import type { InboundAttachment } from '../../../../src/contract.js';

const rules: BurstRules = {
  policy: { burstMs: 1_500, burstMaxWaitMs: 6_000, quoteMaxChars: 500 },
  standsAlone: isCommandLike,
};
const NOW = 1_700_000_000_000;

let next = 0;
function queued(
  text: string,
  options: {
    at?: number;
    user?: string;
    files?: Omit<InboundAttachment, 'fetch'>[];
    deleted?: true;
    action?: string;
  } = {},
): QueuedMessage {
  next++;
  return {
    id: `m${next}`,
    origin: 'process-a',
    acceptedAt: options.at ?? NOW - 5_000,
    inbound: {
      conversation: { bot: 'main', platform: 'telegram', id: '42' },
      user: { id: options.user ?? 'u1' },
      text,
      attachments: options.files ?? [],
      isGroup: false,
      addressed: true,
      platformMessageId: `p${next}`,
      sentAt: options.at ?? NOW - 5_000,
      ...(options.action ? { action: { id: 'a', value: options.action } } : {}),
    },
    ...(options.deleted ? { deleted: true as const } : {}),
  };
}
const entries = (...messages: QueuedMessage[]) => messages.map((message) => JSON.stringify(message));
const texts = (take: ReturnType<typeof takeBurst>) => take.messages.map((message) => message.inbound.text);

describe('a burst: what one turn answers of the queue', () => {
  it('takes the messages that waited together, in order, as one', () => {
    const take = takeBurst(
      entries(queued('hi'), queued("I'm looking for"), queued('a 3 bedroom in Austin')),
      rules,
      NOW,
    );
    expect(texts(take)).toEqual(['hi', "I'm looking for", 'a 3 bedroom in Austin']);
    expect(take.answered).toHaveLength(3);
    expect(take.openUntil).toBeUndefined();
  });

  it('stops before a command and never merges one: it is answered on its own, next', () => {
    const first = takeBurst(entries(queued('hi'), queued('/listings'), queued('more')), rules, NOW);
    expect(texts(first)).toEqual(['hi']);
    const second = takeBurst(entries(queued('/listings'), queued('more')), rules, NOW);
    expect(texts(second)).toEqual(['/listings']);
  });

  it('stops before a button press', () => {
    expect(texts(takeBurst(entries(queued('hi'), queued('', { action: 'listings:2' })), rules, NOW))).toEqual(['hi']);
  });

  it("never merges another user's message (a group)", () => {
    const take = takeBurst(entries(queued('hi'), queued('hello', { user: 'u2' })), rules, NOW);
    expect(texts(take)).toEqual(['hi']);
  });

  it('says the burst may still grow while its newest message is younger than burstMs', () => {
    const take = takeBurst(
      entries(queued('hi', { at: NOW - 2_000 }), queued('I am looking', { at: NOW - 500 })),
      rules,
      NOW,
    );
    expect(take.openUntil).toBe(NOW - 500 + 1_500);
  });

  it('waits no longer than burstMaxWaitMs from its first message, however it grows', () => {
    const take = takeBurst(entries(queued('a', { at: NOW - 5_900 }), queued('b', { at: NOW - 100 })), rules, NOW);
    expect(take.openUntil).toBe(NOW - 5_900 + 6_000);
    expect(
      takeBurst(entries(queued('a', { at: NOW - 6_000 }), queued('b', { at: NOW - 100 })), rules, NOW).openUntil,
    ).toBeUndefined();
  });

  it('takes deleted messages along and answers none of them', () => {
    const take = takeBurst(
      entries(queued('hi', { deleted: true }), queued('there'), queued('x', { deleted: true })),
      rules,
      NOW,
    );
    expect(texts(take)).toEqual(['there']);
    expect(take.answered).toHaveLength(3);
    const none = takeBurst(entries(queued('oops', { deleted: true })), rules, NOW);
    expect(none.messages).toEqual([]);
    expect(none.answered).toHaveLength(1);
  });

  it('joins photos to photos, but never a voice note to a photo (one question, one kind of media)', () => {
    const photo = { kind: 'image' as const };
    const voice = { kind: 'voice' as const };
    expect(
      texts(takeBurst(entries(queued('', { files: [photo] }), queued('this one', { files: [photo] })), rules, NOW)),
    ).toEqual(['', 'this one']);
    expect(
      texts(takeBurst(entries(queued('', { files: [photo] }), queued('', { files: [voice] })), rules, NOW)),
    ).toEqual(['']);
    expect(texts(takeBurst(entries(queued('', { files: [voice] }), queued('and this text')), rules, NOW))).toEqual([
      '',
      'and this text',
    ]);
  });

  it('stops before text the service would refuse as too long together', () => {
    const long = 'x'.repeat(15_000);
    expect(texts(takeBurst(entries(queued(long), queued(long)), rules, NOW))).toHaveLength(1);
  });

  it('takes the head alone when bursts are off (burstMs 0)', () => {
    const off = { ...rules, policy: { ...rules.policy, burstMs: 0 } };
    const take = takeBurst(entries(queued('hi'), queued('there')), off, NOW);
    expect(texts(take)).toEqual(['hi']);
    expect(take.answered).toHaveLength(1);
    expect(mayBurst(queued('hi'), off)).toBe(false);
  });

  it('waits before the first read only for a message that may start a burst', () => {
    expect(mayBurst(queued('hi'), rules)).toBe(true);
    expect(mayBurst(queued('/help'), rules)).toBe(false);
    expect(settledAt(queued('hi', { at: NOW }), rules, NOW)).toBe(NOW + 1_500);
  });
});
