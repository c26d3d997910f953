import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { UpstreamError, toUpstreamError } from '../../../src/upstream/errors.js';

describe('mapping failures to UpstreamError', () => {
  it('keeps an UpstreamError as it is', () => {
    const original = new UpstreamError({ kind: 'envelope', operation: 'Edit', message: 'nope', code: 500 });
    expect(toUpstreamError(original, 'Edit', 'timeout')).toBe(original);
  });

  it('calls a failure after our deadline fired a timeout, naming the operation and the limit', () => {
    const error = toUpstreamError(new undiciErrors.RequestAbortedError(), 'ClientAsk', 'timeout', 1500);
    expect(error).toMatchObject({ kind: 'timeout', operation: 'ClientAsk', status: null, code: null });
    expect(error.message).toBe('ClientAsk timed out after 1500 ms');
    expect(error.transient).toBe(true);
  });

  it('calls a failure after the caller aborted an abort, not a network error', () => {
    const error = toUpstreamError(new undiciErrors.RequestAbortedError(), 'GetSession', 'aborted');
    expect(error.kind).toBe('aborted');
    expect(error.transient).toBe(false);
  });

  it('calls anything else a network error, keeping the system error code and the cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = toUpstreamError(refused, 'ModelList', null);
    expect(error).toMatchObject({ kind: 'network', operation: 'ModelList' });
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.cause).toBe(refused);
    expect(error.hint).toMatch(/UPSTREAM_BASE_URL/);
  });

  it('counts 429 and 5xx as transient and other statuses as not', () => {
    const withStatus = (status: number) => new UpstreamError({ kind: 'http', operation: 'Edit', message: 'x', status });
    expect(withStatus(429).transient).toBe(true);
    expect(withStatus(503).transient).toBe(true);
    expect(withStatus(400).transient).toBe(false);
  });
});
