/**
 * Extension points for features built outside the core (the human handoff):
 * stop a turn before it is answered, look at each answer, react to failures.
 */
import type { AskFinal } from '../upstream/api.js';
import type { TurnContext } from './context.js';
import type { Step } from './pipeline.js';

/** 'stop' ends the turn silently (the message is already in the transcript), e.g. while a person has taken over. */
export type BeforeAskHook = (ctx: TurnContext) => Promise<'continue' | 'stop'> | 'continue' | 'stop';
/** Like BeforeAskHook, but runs before commands and button actions too (a paused conversation answers none). */
export type BeforeCommandsHook = BeforeAskHook;
export type AfterAnswerHook = (final: AskFinal, ctx: TurnContext) => Promise<void> | void;

export interface UpstreamFailure {
  error: unknown;
  /** Failures in a row in this conversation, this one included (reset by the next answer). */
  consecutiveFailures: number;
}
/** Runs after the apology was sent. */
export type UpstreamFailureHook = (failure: UpstreamFailure, ctx: TurnContext) => Promise<void> | void;

export interface GatewayHooks {
  beforeCommands: BeforeCommandsHook[];
  beforeAsk: BeforeAskHook[];
  afterAnswer: AfterAnswerHook[];
  onUpstreamFailure: UpstreamFailureHook[];
}

/** Registration functions as exposed on the gateway; each returns its own removal. */
export interface HookRegistry {
  beforeCommands(hook: BeforeCommandsHook): () => void;
  beforeAsk(hook: BeforeAskHook): () => void;
  afterAnswer(hook: AfterAnswerHook): () => void;
  onUpstreamFailure(hook: UpstreamFailureHook): () => void;
}

export function createHooks(initial: Partial<GatewayHooks> = {}): { hooks: GatewayHooks; registry: HookRegistry } {
  const hooks: GatewayHooks = {
    beforeCommands: [...(initial.beforeCommands ?? [])],
    beforeAsk: [...(initial.beforeAsk ?? [])],
    afterAnswer: [...(initial.afterAnswer ?? [])],
    onUpstreamFailure: [...(initial.onUpstreamFailure ?? [])],
  };
  const adder = <K extends keyof GatewayHooks>(kind: K) => (hook: GatewayHooks[K][number]) => {
    (hooks[kind] as GatewayHooks[K][number][]).push(hook);
    return () => {
      const list = hooks[kind] as GatewayHooks[K][number][];
      const at = list.indexOf(hook);
      if (at >= 0) list.splice(at, 1);
    };
  };
  return {
    hooks,
    registry: {
      beforeCommands: adder('beforeCommands'),
      beforeAsk: adder('beforeAsk'),
      afterAnswer: adder('afterAnswer'),
      onUpstreamFailure: adder('onUpstreamFailure'),
    },
  };
}

/** The pipeline step that lets every beforeAsk hook veto the answer, in registration order. */
export function beforeAskStep(hooks: GatewayHooks): Step {
  return vetoStep(hooks, 'beforeAsk');
}

/** The step before commands: every beforeCommands hook may end the turn before any command or button runs. */
export function beforeCommandsStep(hooks: GatewayHooks): Step {
  return vetoStep(hooks, 'beforeCommands');
}

function vetoStep(hooks: GatewayHooks, kind: 'beforeCommands' | 'beforeAsk'): Step {
  return async (ctx, next) => {
    for (const hook of [...hooks[kind]]) {
      if ((await hook(ctx)) === 'stop') {
        ctx.logger.debug(`a ${kind} hook stopped the turn`);
        return;
      }
    }
    await next();
  };
}
