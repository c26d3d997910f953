/** The platform-neutral gateway core: public surface (what src/handoff, src/http and src/runtime use). */
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export type { GatewayObserver } from './observer.js';
export { CommandRegistry, parseCommand, splitSuggestions, type ButtonAction, type Command } from './commands/index.js';
export {
  compose,
  PIPELINE_POSITIONS,
  type AfterAnswerListener,
  type GatewayBot,
  type GatewayServices,
  type Next,
  type PipelinePosition,
  type PipelineSteps,
  type Step,
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
export {
  ChatbotSettingsMirror,
  describeAttachment,
  SessionMap,
  TranscriptStore,
  PACK_QUALITY,
  packEntries,
  unpackEntries,
  type TranscriptEntry,
  type TranscriptFile,
  type TranscriptRole,
} from './stores/index.js';
export { DEFAULT_GATEWAY_POLICY, resolvePolicy, SESSION_IDLE_TTL_MS, type GatewayPolicy } from './gateway-policy.js';
export {
  conversationMember,
  conversationTag,
  gatewayKeys,
  parseConversationMember,
  pendingMembers,
  queueOwners,
} from './state-keys.js';
export { OWNER_FIELDS_ONLY, QUEUE_LAYOUT_KEY, QueueLayout } from './drain/index.js';
export { sendReply, type FileToSend, type ReplyExtras } from './reply/index.js';
/**
 * The sentences a user reads (the handoff's among them, `handoff`), in English; `replies` is the
 * same object under the name the gateway's replies are known by in tests and callers. A conversation
 * reads its chatbot's language: `ctx.texts()` in a turn, `gateway.textsFor(conversation)` outside one.
 */
export { formatBytes, userTexts, userTexts as replies, type UserTexts } from './user-texts.js';
export {
  checkTextOverrides,
  LANGUAGES,
  languageOf,
  TEXT_KEYS,
  userTextsFor,
  type Language,
  type TextKey,
  type TextOverrideProblem,
  type TextOverrides,
} from './texts/index.js';
export * from '../contract.js';
