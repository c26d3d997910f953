/**
 * The e-mail's signed link into the inbox: whoever holds it may sign in (after pressing a button)
 * for the conversations of the conversation's chatbot, until it expires. Signed with a key derived
 * from the handoff secret for this purpose only, so a hand-back token is no inbox token and an
 * inbox token hands nothing back.
 */
import type { ConversationRef } from '../../contract.js';
import { formatConversationId, parseConversationId } from '../conversation-id.js';
import { purposeKey, signToken, verifyToken } from '../link/index.js';
import type { InboxLinkSigner } from '../pause/index.js';

export interface InboxLinkClaim {
  conversation: ConversationRef;
  expiresAt: number;
  /** The address the mail went to (lower case): an operator account's signs that operator in. */
  to?: string;
}

export type VerifiedInboxToken = ({ ok: true } & InboxLinkClaim) | { ok: false; reason: 'invalid' | 'expired' };

/** Where the link lands (GET: a page with a button; POST: the sign-in). */
export const INBOX_LINK_PATH = '/inbox/link';

export class InboxLinks implements InboxLinkSigner {
  private readonly key: Buffer;

  constructor(
    secret: string,
    /** `https://bots.example.com` or `http://127.0.0.1:8080`. */
    private readonly baseUrl: string,
  ) {
    this.key = purposeKey(secret, 'inbox');
  }

  sign(claim: InboxLinkClaim): string {
    return signToken(this.key, {
      p: 'inbox',
      c: formatConversationId(claim.conversation),
      e: claim.expiresAt,
      ...(claim.to ? { t: claim.to.trim().toLowerCase() } : {}),
    });
  }

  url(claim: InboxLinkClaim): string {
    return `${this.baseUrl.replace(/\/+$/, '')}${INBOX_LINK_PATH}?token=${encodeURIComponent(this.sign(claim))}`;
  }

  /** The link an e-mail carries, valid for `hours` from `now`, with when it expires. */
  forMail(
    conversation: ConversationRef,
    hours: number,
    now = Date.now(),
    to?: string,
  ): { inboxUrl: string; inboxLinkExpiresAt: number } {
    // Whole milliseconds, at least one: hours may be fractional (tests use minutes' worth).
    const expiresAt = now + Math.max(1, Math.round(hours * 60 * 60_000));
    return { inboxUrl: this.url({ conversation, expiresAt, ...(to ? { to } : {}) }), inboxLinkExpiresAt: expiresAt };
  }

  verify(token: string, now = Date.now()): VerifiedInboxToken {
    const payload = verifyToken(this.key, token);
    const conversation =
      payload?.p === 'inbox' && typeof payload.c === 'string' ? parseConversationId(payload.c) : null;
    if (!payload || !conversation || typeof payload.e !== 'number') return { ok: false, reason: 'invalid' };
    if (payload.e <= now) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      conversation,
      expiresAt: payload.e,
      ...(typeof payload.t === 'string' ? { to: payload.t } : {}),
    };
  }
}
