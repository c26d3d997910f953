/**
 * The pipeline of one turn as small composable steps, grammY-style middleware:
 * a step does its part and calls `next()` to hand over to the following one, or
 * returns without calling it to end the turn (a command answered, a limit hit).
 *
 * Steps sit at named positions, in this order:
 *   record → beforeCommands → commands → beforeAsk → limits → session → ask
 * The core puts its own steps at record, commands, limits (the message's length,
 * then the allowance), session and ask; a feature built outside the core (the
 * human handoff) adds its steps with `use(position, step)`, e.g. at beforeCommands
 * to keep a paused conversation quiet, and gets their removal back. Within one
 * position, steps run in the order they were added. The ask step ends the
 * pipeline: a step added after it never runs.
 */
import type { TurnContext } from './turn-context.js';

export type Next = () => Promise<void>;
export type Step = (ctx: TurnContext, next: Next) => Promise<void>;

/** The positions of the pipeline, first to last. */
export const PIPELINE_POSITIONS = [
  'record',
  'beforeCommands',
  'commands',
  'beforeAsk',
  'limits',
  'session',
  'ask',
] as const;
export type PipelinePosition = (typeof PIPELINE_POSITIONS)[number];

/** What the gateway exposes of its pipeline: adding a step at a position. */
export interface PipelineSteps {
  /** Adds `step` at `position` (after the steps already there); returns its removal. */
  use(position: PipelinePosition, step: Step): () => void;
}

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

interface Positioned {
  position: PipelinePosition;
  step: Step;
}

export class Pipeline implements PipelineSteps {
  private readonly entries: Positioned[] = [];
  /** Composed again after each change; a turn already running keeps the steps it started with. */
  private composed: ((ctx: TurnContext) => Promise<void>) | undefined;

  use(position: PipelinePosition, step: Step): () => void {
    if (!PIPELINE_POSITIONS.includes(position)) {
      throw new Error(`Unknown pipeline position "${String(position)}"; use one of: ${PIPELINE_POSITIONS.join(', ')}.`);
    }
    const entry: Positioned = { position, step };
    this.entries.push(entry);
    this.composed = undefined;
    return () => {
      const at = this.entries.indexOf(entry);
      if (at < 0) return;
      this.entries.splice(at, 1);
      this.composed = undefined;
    };
  }

  /** Runs one turn through every step, position by position. */
  run(ctx: TurnContext): Promise<void> {
    this.composed ??= this.compose();
    return this.composed(ctx);
  }

  private compose(): (ctx: TurnContext) => Promise<void> {
    const ordered = PIPELINE_POSITIONS.flatMap((position) =>
      this.entries.filter((entry) => entry.position === position),
    );
    return compose(
      ordered.map(({ position, step }) => (position === 'ask' ? step : noteWhereTheTurnEnded(position, step))),
    );
  }
}

/** A turn that ends before the ask step says at which position (a paused conversation, a command, a limit). */
function noteWhereTheTurnEnded(position: PipelinePosition, step: Step): Step {
  return async (ctx, next) => {
    let handedOver = false;
    await step(ctx, () => {
      handedOver = true;
      return next();
    });
    if (!handedOver) ctx.logger.debug({ position }, 'a pipeline step ended the turn');
  };
}
