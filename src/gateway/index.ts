/** The platform-neutral gateway core: public surface. */
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export type { GatewayObserver } from './observer.js';
export type { GatewayBot, GatewayServices, TurnContext } from './context.js';
export { CommandRegistry, parseCommand, type ButtonAction, type Command } from './commands/registry.js';
export { splitSuggestions } from './commands/builtin.js';
export type { AfterAnswerListener, TurnEvent, TurnEventMap, TurnEventSource, TurnListener, UpstreamFailure, UpstreamFailureListener } from './events.js';
export { compose, PIPELINE_POSITIONS, type Next, type PipelinePosition, type PipelineSteps, type Step } from './pipeline.js';
export type { TurnRead, TurnReadSource } from './turn-start.js';
export { DEFAULT_GATEWAY_POLICY, resolvePolicy, type GatewayPolicy } from './policy.js';
export { conversationTag, gatewayKeys, pendingMembers } from './keys.js';
export { ChatbotSettingsMirror } from './settings.js';
export { SessionMap } from './sessions.js';
export { TranscriptStore, type TranscriptEntry, type TranscriptRole } from './transcript.js';
export { replies } from './replies.js';
export { sendReply, type ReplyExtras } from './reply.js';
export { describeAttachment, FAILURE_COUNT_TTL_MS } from './turn.js';
export * from '../contract.js';
