/** The platform-neutral gateway core: public surface (what src/handoff, src/http and src/runtime use). */
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export type { GatewayObserver } from './observer.js';
export { CommandRegistry, parseCommand, splitSuggestions, type ButtonAction, type Command } from './commands/index.js';
export {
  ChatbotSettingsMirror,
  compose,
  describeAttachment,
  FAILURE_COUNT_TTL_MS,
  PIPELINE_POSITIONS,
  SessionMap,
  TranscriptStore,
  type AfterAnswerListener,
  type GatewayBot,
  type GatewayServices,
  type Next,
  type PipelinePosition,
  type PipelineSteps,
  type Step,
  type TranscriptEntry,
  type TranscriptFile,
  type TranscriptRole,
  type TurnContext,
  type TurnEvent,
  type TurnEventMap,
  type TurnEventSource,
  type TurnListener,
  type TurnRead,
  type TurnReadSource,
  type UpstreamFailure,
  type UpstreamFailureListener,
} from './turn/index.js';
export { DEFAULT_GATEWAY_POLICY, resolvePolicy, type GatewayPolicy } from './gateway-policy.js';
export { conversationTag, gatewayKeys, pendingMembers } from './state-keys.js';
export { replies, sendReply, type ReplyExtras } from './reply/index.js';
export * from '../contract.js';
