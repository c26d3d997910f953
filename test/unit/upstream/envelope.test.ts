import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { caseInsensitiveObject, intLike } from '../../../src/upstream/case-insensitive.js';
import { dataOrThrow, parseData, readEnvelope } from '../../../src/upstream/envelope.js';
import { UpstreamError } from '../../../src/upstream/errors.js';

function thrown(action: () => unknown): UpstreamError {
  try {
    action();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError, nothing was thrown');
}

describe('reading the response envelope', () => {
  it('reads Data, Success, Code, Message and Version', () => {
    expect(readEnvelope('{"Data":{"SessionID":5},"Version":"1.0.0","Success":true,"Code":200,"Message":""}')).toEqual({
      data: { SessionID: 5 },
      success: true,
      code: 200,
      message: null,
      version: '1.0.0',
    });
  });

  it('reads the field names in any casing', () => {
    expect(readEnvelope('{"data":7,"success":false,"CODE":429,"message":"slow down"}')).toMatchObject({
      data: 7,
      success: false,
      code: 429,
      message: 'slow down',
    });
  });

  it('derives a missing Success from Code, and counts an envelope with neither as failed', () => {
    expect(readEnvelope('{"Data":1,"Code":200}')?.success).toBe(true);
    expect(readEnvelope('{"Data":1,"Code":500}')?.success).toBe(false);
    expect(readEnvelope('{"Data":1}')?.success).toBe(false);
  });

  it('is null for what is not a JSON object', () => {
    expect(readEnvelope('<html>oops</html>')).toBeNull();
    expect(readEnvelope('[1,2]')).toBeNull();
    expect(readEnvelope('')).toBeNull();
  });
});

describe('turning a response into Data or an UpstreamError', () => {
  it('returns Data of a successful envelope', () => {
    expect(dataOrThrow('Edit', 200, '{"Data":1,"Success":true,"Code":200,"Message":""}')).toBe(1);
  });

  it('reports Success false as an envelope error with its Code and Message', () => {
    const error = thrown(() =>
      dataOrThrow('ClientAsk', 200, '{"Success":false,"Code":4001,"Message":"Session expired"}'),
    );
    expect(error).toMatchObject({
      kind: 'envelope',
      status: 200,
      code: 4001,
      message: 'Session expired',
      operation: 'ClientAsk',
    });
  });

  it('reports a non-2xx status as an http error, keeping the envelope Message and Code when there is one', () => {
    const error = thrown(() =>
      dataOrThrow('Edit', 401, '{"Success":false,"Code":401,"Message":"Invalid Authorization"}'),
    );
    expect(error).toMatchObject({ kind: 'http', status: 401, code: 401, message: 'Invalid Authorization' });
    expect(error.hint).toMatch(/secret key/);
  });

  it('describes a non-2xx status without an envelope by its status and body', () => {
    const error = thrown(() => dataOrThrow('RealEstateList', 502, '<h1>Bad Gateway</h1>'));
    expect(error).toMatchObject({ kind: 'http', status: 502, code: null });
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('Bad Gateway');
    expect(error.transient).toBe(true);
  });

  it('reports a 2xx body that is not an envelope as an invalid response', () => {
    const error = thrown(() => dataOrThrow('ModelList', 200, 'not json at all'));
    expect(error).toMatchObject({ kind: 'invalid-response', status: 200 });
    expect(error.transient).toBe(false);
  });

  it('reports Data of the wrong shape as an invalid response naming the field', () => {
    const schema = caseInsensitiveObject({ SessionID: intLike });
    const error = thrown(() => parseData('GetSession', 200, schema, { SessionID: 'abc' }));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('SessionID');
  });
});

describe('case-insensitive objects', () => {
  const schema = caseInsensitiveObject({ messageid: intLike, content: z.string() });

  it('accept the documented fields in any casing and numeric strings for integers', () => {
    expect(schema.parse({ MessageID: '12', Content: 'hi' })).toEqual({ messageid: 12, content: 'hi' });
  });

  it('prefer the documented spelling when a body carries two', () => {
    expect(schema.parse({ messageid: 1, MessageId: 2, content: '' })).toEqual({ messageid: 1, content: '' });
  });
});
