import { GrammyError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { toPlatformError } from '../../../adapters/telegram/errors.js';

const refusal = (description: string) =>
  new GrammyError('call failed', { ok: false, error_code: 400, description }, 'editMessageText', {});

describe('toPlatformError', () => {
  it.each([
    'Bad Request: message is too long',
    // editMessageText words it the way the MTProto layer does.
    'Bad Request: MESSAGE_TOO_LONG',
  ])('reads "%s" as too-long, so the relay splits shorter instead of leaving a stale message', (description) => {
    expect(toPlatformError(refusal(description), 'editMessageText').kind).toBe('too-long');
  });
});
