/**
 * The Redis versions chatbridge starts on (src/state/redis/version.ts): 6.2 brought the commands a turn
 * uses (GETEX, LPOP with a count); an older server is refused at start, naming its setting
 * (src/runtime/runtime.ts), rather than failing on the first message.
 */
import { describe, expect, it } from 'vitest';
import { isSupportedRedisVersion, MIN_REDIS_VERSION } from '../../../src/state/index.js';

describe('the Redis versions chatbridge runs on', () => {
  it(`takes ${MIN_REDIS_VERSION} and newer, Valkey's numbering included`, () => {
    for (const version of ['6.2.0', '6.2.14', '7.0.15', '7.4.1', '8.0.2', '10.0.0'])
      expect(isSupportedRedisVersion(version), version).toBe(true);
  });

  it('refuses older ones', () => {
    for (const version of ['6.0.20', '5.0.14', '6.1.9', '4.0.0'])
      expect(isSupportedRedisVersion(version), version).toBe(false);
  });

  it('gives a version it cannot read the benefit of the doubt (a server that reports it oddly still starts)', () => {
    expect(isSupportedRedisVersion('unknown')).toBe(true);
  });
});
