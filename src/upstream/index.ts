/** The typed client of the Chatbot Service API. */
export type * from './api.js';
export { ChatbotServiceClient, type ChatbotServiceClientOptions } from './client.js';
export { UpstreamError, type UpstreamErrorKind } from './errors.js';
export { DEFAULT_UPSTREAM_PATHS, type UpstreamOperation, type UpstreamPaths } from './paths.js';
export {
  createStreamDecoder,
  type DecodedStreamEvent,
  type StreamDecoder,
  type StreamDecoderOptions,
  type StreamErrorEvent,
} from './stream-decoder.js';
export { readEnvelope, type Envelope } from './envelope.js';
export { CLIENT_ASK_CONTENT_MAX_CHARS, clientAskContentLength, isClientAskContentTooLong } from './limits.js';
