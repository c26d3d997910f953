/**
 * What the core reports as it works, for metrics (Prometheus in the runtime) or
 * anything else that counts. Every callback is optional and must not throw.
 */
import type { ConversationRef } from '../contract.js';

export interface GatewayObserver {
  /** A user message was queued (after dedupe and the queue cap). */
  accepted?(conversation: ConversationRef): void;
  /** An answer's final text reached the platform. */
  answered?(
    conversation: ConversationRef,
    info: { renderer: string; rateLimitedUpdates: number; seconds: number },
  ): void;
  /** A Chatbot Service call failed (`operation` as the client names it, e.g. "ClientAsk"). */
  upstreamFailed?(operation: string): void;
  /**
   * A turn's reply was refused because the platform's reply window had closed (PlatformError
   * 'window-closed': WhatsApp Cloud's 24 hours); it is not sent again.
   */
  windowClosed?(conversation: ConversationRef): void;
}
