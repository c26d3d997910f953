/**
 * The pipeline of one turn as small composable steps, grammY-style middleware:
 * a step does its part and calls `next()` to hand over to the following one, or
 * returns without calling it to end the turn (a command answered, a limit hit).
 */
import type { TurnContext } from './context.js';

export type Next = () => Promise<void>;
export type Step = (ctx: TurnContext, next: Next) => Promise<void>;

export function compose(steps: readonly Step[]): (ctx: TurnContext) => Promise<void> {
  return (ctx) => {
    const run = async (index: number): Promise<void> => {
      const step = steps[index];
      if (!step) return;
      let called = false;
      await step(ctx, async () => {
        // A step calling next() twice would answer the message twice.
        if (called) throw new Error(`pipeline step #${index} called next() more than once`);
        called = true;
        await run(index + 1);
      });
    };
    return run(0);
  };
}
