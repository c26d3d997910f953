/**
 * The oldest Redis chatbridge runs on: GETEX (a session read and renewed in one command) and LPOP
 * with a count (the queue advance) came in 6.2. The runtime refuses an older server at start.
 */
export const MIN_REDIS_VERSION = '6.2.0';

/** True when `version` ("7.0.15") is MIN_REDIS_VERSION or newer; an unreadable one is given the benefit of the doubt. */
export function isSupportedRedisVersion(version: string): boolean {
  const parts = version.split('.').map(Number);
  if (parts.length < 2 || parts.some((part) => !Number.isInteger(part))) return true;
  const minimum = MIN_REDIS_VERSION.split('.').map(Number);
  for (let i = 0; i < minimum.length; i++) {
    const [have = 0, need = 0] = [parts[i], minimum[i]];
    if (have !== need) return have > need;
  }
  return true;
}
