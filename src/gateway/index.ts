/** The platform-neutral gateway core: public surface. */
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export type { GatewayObserver } from './observer.js';
export type { GatewayBot, GatewayServices, TurnContext } from './turn/turn-context.js';
export { CommandRegistry, parseCommand, type ButtonAction, type Command } from './commands/registry.js';
export { splitSuggestions } from './commands/builtin.js';
export type { AfterAnswerListener, TurnEvent, TurnEventMap, TurnEventSource, TurnListener, UpstreamFailure, UpstreamFailureListener } from './turn/turn-events.js';
export { compose, PIPELINE_POSITIONS, type Next, type PipelinePosition, type PipelineSteps, type Step } from './turn/pipeline.js';
export type { TurnRead, TurnReadSource } from './turn/first-batch.js';
export { DEFAULT_GATEWAY_POLICY, resolvePolicy, type GatewayPolicy } from './gateway-policy.js';
export { conversationTag, gatewayKeys, pendingMembers } from './state-keys.js';
export { ChatbotSettingsMirror } from './turn/chatbot-settings.js';
export { SessionMap } from './turn/session-map.js';
export { TranscriptStore, type TranscriptEntry, type TranscriptRole } from './turn/transcript.js';
export { replies } from './reply/reply-texts.js';
export { sendReply, type ReplyExtras } from './reply/send-reply.js';
export { describeAttachment, FAILURE_COUNT_TTL_MS } from './turn/run-turn.js';
export * from '../contract.js';
