import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../../src/http/admin-auth.js';

describe('the admin API bearer token (issue #7 item 11)', () => {
  it('is read whatever the case of the scheme, as RFC 9110 says schemes are', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
      expect(bearerToken(`${scheme} tok-123`)).toBe('tok-123');
  });

  it('is everything after the scheme and its spaces', () => {
    expect(bearerToken('Bearer   tok 123')).toBe('tok 123');
    expect(bearerToken('Bearer\ttok')).toBe('tok');
  });

  it('is missing for another scheme, a scheme without a token, or no header', () => {
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearertok')).toBeNull();
    expect(bearerToken('Bearer ')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
