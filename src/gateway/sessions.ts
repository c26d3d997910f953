/**
 * The map from a conversation to its Chatbot Service session. A session is made
 * with GetSession on first contact and kept (no expiry) so the chatbot remembers
 * the conversation across gateway restarts; /reset forgets it. Only the holder of
 * the conversation's lock creates one, so two sessions are never made at once.
 */
import type { StateStore } from '../state/index.js';
import type { ChatbotServiceApi, CallOptions } from '../upstream/api.js';
import { gatewayKeys } from './keys.js';
import type { ConversationRef } from '../contract.js';

export class SessionMap {
  constructor(
    private readonly state: StateStore,
    private readonly upstream: ChatbotServiceApi,
  ) {}

  async get(conversation: ConversationRef): Promise<number | null> {
    return parseSessionId(await this.state.get(gatewayKeys.session(conversation)));
  }

  /**
   * The conversation's session id: `known` when the caller already read the key
   * (in a batch), otherwise read now; GetSession when there is none.
   */
  async ensure(conversation: ConversationRef, serialNumber: string, known?: string | null, options?: CallOptions): Promise<number> {
    const existing = known === undefined ? await this.get(conversation) : parseSessionId(known);
    if (existing !== null) return existing;
    const { sessionId } = await this.upstream.getSession(serialNumber, options);
    await this.state.set(gatewayKeys.session(conversation), String(sessionId));
    return sessionId;
  }

  /** Forgets the session; the next message starts a new one. True when there was one. */
  async reset(conversation: ConversationRef): Promise<boolean> {
    return (await this.state.del(gatewayKeys.session(conversation))) > 0;
  }
}

function parseSessionId(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
