import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindFields, parseBody } from '../../../src/service/validation/bind.js';
import { isAnimatedGif } from '../../../src/service/media/gif.js';
import { signUploadToken, verifyUploadToken } from '../../../src/service/upload-token.js';
import { completionsUrl } from '../../../src/service/engines/openai.js';
import type { ServiceError } from '../../../src/service/envelope.js';

describe('case-insensitive binding', () => {
  it('maps any casing onto the canonical name, drops nulls and unknown fields', () => {
    expect(bindFields({ SERIALNUMBER: 'a', extra: 1, Name: null }, ['serialNumber', 'Name'])).toEqual({
      serialNumber: 'a',
    });
  });
});

describe('validation messages name the field', () => {
  const schema = z.object({
    Count: z.number().int().min(1),
    Kind: z.enum(['a', 'b']),
    Tags: z.array(z.string()).optional(),
  });
  const messageOf = (body: unknown): string => {
    try {
      parseBody(schema, body);
      return 'accepted';
    } catch (error) {
      return (error as ServiceError).message;
    }
  };

  it.each([
    [{ Kind: 'a' }, 'Count is required.'],
    [{ Count: 'x', Kind: 'a' }, 'Count must be a number.'],
    [{ Count: 1.5, Kind: 'a' }, 'Count must be a whole number.'],
    [{ Count: 0, Kind: 'a' }, 'Count must be at least 1.'],
    [{ Count: 1, Kind: 'c' }, 'Kind must be one of "a", "b".'],
    [{ Count: 1, Kind: 'a', Tags: [1] }, 'Tags[0] must be a string.'],
    ['text', 'The request body must be a JSON object.'],
    [{ count: 2, KIND: 'b' }, 'accepted'],
  ])('%j → %s', (body, message) => {
    expect(messageOf(body)).toBe(message);
  });
});

describe('animated GIF detection', () => {
  const frame = [0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
  const gif = (frames: number, globalTable = true) =>
    Buffer.from([
      ...Buffer.from('GIF89a'),
      1,
      0,
      1,
      0,
      globalTable ? 0x80 : 0,
      0,
      0,
      ...(globalTable ? [0, 0, 0, 0xff, 0xff, 0xff] : []),
      ...Array.from({ length: frames }, () => frame).flat(),
      0x3b,
    ]);

  it('sees one frame as still and several as animated', () => {
    expect(isAnimatedGif(gif(1))).toBe(false);
    expect(isAnimatedGif(gif(2))).toBe(true);
    expect(isAnimatedGif(gif(2, false))).toBe(true);
  });

  it('does not crash on truncated input', () => {
    expect(isAnimatedGif(gif(2).subarray(0, 20))).toBe(false);
    expect(isAnimatedGif(Buffer.from('GIF'))).toBe(false);
  });
});

describe('upload tokens', () => {
  it('round-trip, and refuse another key, a changed id and an expired time', () => {
    const token = signUploadToken(42, 2_000, 'key');
    expect(verifyUploadToken(token, 'key', 1_000)).toBe(42);
    expect(() => verifyUploadToken(token, 'other', 1_000)).toThrow('not valid');
    expect(() => verifyUploadToken(token.replace(/^42/, '43'), 'key', 1_000)).toThrow('not valid');
    expect(() => verifyUploadToken(token, 'key', 3_000)).toThrow('expired');
  });
});

describe('completions URL', () => {
  it.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['http://localhost:11434', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:8000/v1/', 'http://localhost:8000/v1/chat/completions'],
  ])('%s → %s', (base, url) => {
    expect(completionsUrl(base)).toBe(url);
  });
});
