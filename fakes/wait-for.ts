/** What a fake's world emits when anything a test may wait for changed. */
export interface ChangeSource {
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

/**
 * Resolves once `predicate` holds: checked at every change of the fake's world and,
 * since a predicate may also look at state outside the fake (a test sink), every 25 ms.
 * Rejects with what was awaited after `timeoutMs`, or with the predicate's own error.
 */
export function waitForChange(
  fake: string,
  world: ChangeSource,
  predicate: () => boolean,
  { timeoutMs = 5000, what }: { timeoutMs?: number; what?: string } = {},
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = (): void => {
      let satisfied: boolean;
      try {
        satisfied = predicate();
      } catch (error) {
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (satisfied) {
        finish();
        resolve();
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${fake}: ${what ?? 'condition'} not reached within ${timeoutMs} ms`));
    }, timeoutMs);
    const poll = setInterval(check, 25);
    const finish = (): void => {
      clearTimeout(timer);
      clearInterval(poll);
      world.off('change', check);
    };
    world.on('change', check);
    check();
  });
}
