/**
 * The turn stage: one queued message through the pipeline (record → beforeCommands → commands →
 * beforeAsk → limits → session → ask), its first batch of Redis reads, and its outcome for the
 * drain. What other stages use.
 */
export { askStep } from './ask-step.js';
export { limitsStep } from './allowance-step.js';
export { TurnReads, type TurnRead, type TurnReadSource } from './first-batch.js';
export { messageLengthStep } from './message-length-step.js';
export {
  compose,
  Pipeline,
  PIPELINE_POSITIONS,
  type Next,
  type PipelinePosition,
  type PipelineSteps,
  type Step,
} from './pipeline.js';
export { recordMessageStep } from './run-turn.js';
export { sessionStep } from './session-step.js';
export type { GatewayBot, GatewayServices, TurnContext } from './turn-context.js';
export {
  TurnEvents,
  type AfterAnswerListener,
  type CommittedListener,
  type TurnEvent,
  type TurnEventMap,
  type TurnEventSource,
  type TurnListener,
  type UpstreamFailure,
  type UpstreamFailureListener,
} from './turn-events.js';
export { TurnRunner, type ConversationServing } from './turn-runner.js';
