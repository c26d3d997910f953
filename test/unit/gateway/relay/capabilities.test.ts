/**
 * What a platform can do is declared once: by the optional methods of its outbound.
 * The core reads the methods (outbound-methods.ts), and an adapter says what differs
 * per conversation by offering another outbound there (Adapter.outboundFor).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../../../adapters/console/index.js';
import { canDraft, canEdit, canStreamNatively, outboundIn } from '../../../../src/gateway/reply/outbound-methods.js';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import type { Adapter } from '../../../../src/contract.js';
import { LONG_ANSWER, answerStream, conversation, fragmentsOf, request } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

describe('capabilities derived from the outbound methods', () => {
  it('an outbound can edit, draft or stream natively exactly when it has that method', () => {
    const platform = new RecordingPlatform();
    const plain = platform.offering({ edit: false });
    const everything = platform.offering({ draft: true, startStream: true });

    expect([canEdit(plain), canDraft(plain), canStreamNatively(plain)]).toEqual([false, false, false]);
    expect([canEdit(everything), canDraft(everything), canStreamNatively(everything)]).toEqual([true, true, true]);
  });

  it.each([
    ['draft', { draft: true, startStream: true }],
    ['native', { startStream: true }],
    ['edit', {}],
    ['buffered', { edit: false }],
  ] as const)('the relay streams by %s when that is the richest method offered', async (renderer, methods) => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), methods));

    expect(result.renderer).toBe(renderer);
  });

  it("the adapter's outbound for a conversation is used where it offers one (e.g. no drafts in a group)", () => {
    const platform = new RecordingPlatform();
    const full = platform.offering({ draft: true });
    const group = platform.offering();
    const adapter: Pick<Adapter, 'outbound' | 'outboundFor'> = {
      outbound: full,
      outboundFor: (_conversation, isGroup) => (isGroup ? group : full),
    };

    expect(canDraft(outboundIn(adapter, conversation, false))).toBe(true);
    expect(canDraft(outboundIn(adapter, conversation, true))).toBe(false);
    expect(outboundIn({ outbound: full }, conversation, true)).toBe(full);
  });

  it('the console redraws answers (edit) on a terminal only; piped, each answer is printed once', () => {
    const piped = createConsoleAdapter({ bot: 'main', input: new PassThrough(), output: new PassThrough() });
    const terminal = createConsoleAdapter({
      bot: 'main',
      input: new PassThrough(),
      output: Object.assign(new PassThrough(), { isTTY: true }),
    });

    expect(canEdit(piped.outbound)).toBe(false);
    expect(canEdit(terminal.outbound)).toBe(true);
  });
});
