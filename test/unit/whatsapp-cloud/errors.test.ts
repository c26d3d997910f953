/**
 * Meta's refusals as the core's PlatformError kinds: Meta's error.code decides whatever the
 * HTTP status, and the message keeps code, error_subcode and fbtrace_id.
 */
import { describe, expect, it } from 'vitest';
import { GraphUnreachableError, MetaApiError, toPlatformError } from '../../../adapters/whatsapp-cloud/errors.js';
import { describeSent } from '../../../src/contract.js';

const CALL = 'POST /{phone-number-id}/messages';
function meta(httpStatus: number, error: Record<string, unknown>): MetaApiError {
  return MetaApiError.fromResponse(
    CALL,
    httpStatus,
    JSON.stringify({ error: { type: 'OAuthException', fbtrace_id: 'AbCdEfGhIjKlMnOpQrStUvWxYz0', ...error } }),
  );
}

describe('Meta errors as PlatformError kinds', () => {
  it('takes the pair rate limit and the throughput limit as rate-limited whatever the status, with the wait given', () => {
    const pair = toPlatformError(
      meta(400, { code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' }),
      { retryAfterMs: 4_000 },
    );
    expect([pair.kind, pair.retryAfterMs, pair.platformCode]).toEqual(['rate-limited', 4_000, '131056']);
    const throughput = toPlatformError(meta(429, { code: 130429, message: '(#130429) Rate limit hit' }), {
      retryAfterMs: 8_000,
    });
    expect([throughput.kind, throughput.retryAfterMs]).toEqual(['rate-limited', 8_000]);
    expect(toPlatformError(meta(400, { code: 80007, message: 'Rate limit issues' })).kind).toBe('rate-limited');
  });

  it('takes 131047 as the window closed, saying a template is needed, never as a rate limit or an outage', () => {
    const closed = toPlatformError(
      meta(400, {
        code: 131047,
        message: '(#131047) Re-engagement message',
        error_data: {
          details:
            'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        },
      }),
    );
    expect(closed.kind).toBe('window-closed');
    expect(closed.platformCode).toBe('131047');
    expect(closed.message).toMatch(/code 131047/);
    expect(closed.message).toMatch(/template/);
  });

  it('takes Meta failing on its side as unreachable', () => {
    expect(toPlatformError(meta(500, { code: 131000, message: 'Something went wrong' })).kind).toBe('unreachable');
    expect(toPlatformError(meta(400, { code: 131000, message: 'Something went wrong' })).kind).toBe('unreachable');
    expect(toPlatformError(meta(503, { code: 2, message: 'Service temporarily unavailable' })).kind).toBe(
      'unreachable',
    );
    expect(toPlatformError(MetaApiError.fromResponse(CALL, 502, '<html>Bad Gateway</html>')).kind).toBe('unreachable');
    expect(toPlatformError(new GraphUnreachableError(CALL, new Error('connect ECONNREFUSED 127.0.0.1:9'))).kind).toBe(
      'unreachable',
    );
  });

  it('takes a text Meta finds too long as too-long, so that the core splits it shorter', () => {
    const long = toPlatformError(
      meta(400, {
        code: 100,
        message: '(#100) Invalid parameter',
        error_data: { details: "Param text['body'] must be at most 4096 characters long." },
      }),
    );
    expect(long.kind).toBe('too-long');
    expect(
      toPlatformError(
        meta(400, {
          code: 100,
          message: '(#100) Invalid parameter',
          error_data: { details: 'Param to is not a valid WhatsApp phone number.' },
        }),
      ).kind,
    ).toBe('other');
  });

  it("names the setting when the token is refused, and keeps Meta's code, subcode and fbtrace_id in any other refusal", () => {
    const token = toPlatformError(
      meta(401, { code: 190, message: 'Invalid OAuth access token - Cannot parse access token' }),
    );
    expect(token.kind).toBe('unauthorized');
    expect(token.message).toMatch(/WHATSAPP_CLOUD_ACCESS_TOKEN/);
    const other = toPlatformError(
      meta(400, { code: 131026, error_subcode: 2494010, message: '(#131026) Message Undeliverable' }),
    );
    expect(other.kind).toBe('other');
    expect(other.message).toContain('code 131026');
    expect(other.message).toContain('error_subcode 2494010');
    expect(other.message).toContain('fbtrace_id AbCdEfGhIjKlMnOpQrStUvWxYz0');
    expect(other.message).toContain('HTTP 400');
  });
});

describe('a failed Graph API call names itself', () => {
  const token = 'EAAG-secret-access-token';
  const text = `Your viewing is at 14:00 at 12 Elm Street, ${'then the rest of the answer '.repeat(10)}`;

  it("names Meta's call and what was sent (the recipient, the text's start and length), never the token or the whole text", () => {
    const sent = describeSent({ to: '4915112345678', text, buttons: 2 });
    const error = toPlatformError(meta(400, { code: 131009, message: '(#131009) Parameter value is not valid' }), {
      sent,
    });

    expect(error.method).toBe(CALL);
    expect(error.sent).toBe(`to 4915112345678, text "Your viewing is at 1…" (${text.length} chars), 2 buttons`);
    const logged = JSON.stringify({ ...error, message: error.message });
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('12 Elm Street');
  });

  it('names the call that got no answer', () => {
    const error = toPlatformError(new GraphUnreachableError(CALL, new Error('connect ECONNREFUSED')), {
      sent: describeSent({ to: '4915112345678' }),
    });
    expect([error.kind, error.method, error.sent]).toEqual(['unreachable', CALL, 'to 4915112345678']);
  });
});
