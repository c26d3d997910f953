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

describe('toPlatformError: messages that cannot change any more', () => {
  it('reads "message can\'t be edited" (past the 48 h a bot has) as not-editable, so the relay goes on in a new message', () => {
    expect(toPlatformError(refusal("Bad Request: message can't be edited"), 'editMessageText').kind).toBe(
      'not-editable',
    );
  });

  it('still reads a message that is gone as not-found', () => {
    expect(toPlatformError(refusal('Bad Request: message to edit not found'), 'editMessageText').kind).toBe(
      'not-found',
    );
  });
});
