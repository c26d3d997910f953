/**
 * The map from a conversation to its Chatbot Service session. A session is made
 * with GetSession on first contact and kept so the chatbot remembers the
 * conversation across gateway restarts, until the conversation has been idle for
 * policy.sessionIdleTtlMs (each turn's first batch renews it, turn/first-batch.ts); the
 * next message then starts a new one, as for a new conversation. /reset forgets it.
 * Only the holder of the conversation's lock creates one, so two sessions are
 * never made at once.
 */
import type { AtomicCommand, StateStore } from '../../state/index.js';
import type { ChatbotServiceApi, CallOptions } from '../../upstream/api.js';
import { gatewayKeys } from '../state-keys.js';
import { SESSION_IDLE_TTL_MS } from '../gateway-policy.js';
import type { ConversationRef } from '../../contract.js';

export interface EnsureOptions extends CallOptions {
  /**
   * Writes a new session id with the caller's own transaction (the turn's end) instead of
   * now: a turn cut off before it commits asks GetSession again, and the session it made
   * is simply not used.
   */
  commit?: (write: AtomicCommand) => void;
}

export class SessionMap {
  constructor(
    private readonly state: StateStore,
    private readonly upstream: ChatbotServiceApi,
    /** How long an unused session id is kept (policy.sessionIdleTtlMs). */
    private readonly idleTtlMs: number = SESSION_IDLE_TTL_MS,
  ) {}

  async get(conversation: ConversationRef): Promise<number | null> {
    return parseSessionId(await this.state.get(gatewayKeys.session(conversation)));
  }

  /**
   * The conversation's session id: `known` when the caller already read the key
   * (in a batch), otherwise read now; GetSession when there is none.
   */
  async ensure(
    conversation: ConversationRef,
    serialNumber: string,
    known?: string | null,
    options?: EnsureOptions,
  ): Promise<number> {
    const existing = known === undefined ? await this.get(conversation) : parseSessionId(known);
    if (existing !== null) return existing;
    const { sessionId } = await this.upstream.getSession(serialNumber, options);
    const write = this.writeCommand(conversation, sessionId);
    if (options?.commit) options.commit(write);
    else await this.state.set(write.key, write.value, { ttlMs: this.idleTtlMs });
    return sessionId;
  }

  private writeCommand(conversation: ConversationRef, sessionId: number): AtomicCommand & { op: 'set' } {
    return { op: 'set', key: gatewayKeys.session(conversation), value: String(sessionId), ttlMs: this.idleTtlMs };
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
