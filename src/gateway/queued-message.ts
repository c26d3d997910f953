/**
 * A message as it waits in the Redis queue. The queue must survive the process
 * that accepted the message, so everything is plain JSON, except attachments: the
 * platform gave us a download closure, which only lives in the accepting process
 * (kept in `LocalAttachments`). A message answered elsewhere (after a crash, or
 * accepted by another gateway process) has its attachments' metadata only.
 */
import { AttachmentUnavailableError } from './media/index.js';
import type { Inbound, InboundAttachment } from './types.js';

type AttachmentInfo = Omit<InboundAttachment, 'fetch'>;

export interface QueuedMessage {
  /** Random id, to find the message's attachments in the accepting process. */
  id: string;
  /** The gateway process that accepted it. */
  origin: string;
  acceptedAt: number;
  inbound: Omit<Inbound, 'attachments'> & { attachments: AttachmentInfo[] };
}

export function toQueuedMessage(inbound: Inbound, id: string, origin: string, acceptedAt: number): QueuedMessage {
  const attachments = inbound.attachments.map(({ fetch: _fetch, ...info }) => info);
  return { id, origin, acceptedAt, inbound: { ...inbound, attachments } };
}

export function parseQueuedMessage(raw: string): QueuedMessage | null {
  try {
    const parsed = JSON.parse(raw) as QueuedMessage;
    const ok = typeof parsed.id === 'string' && typeof parsed.inbound?.conversation?.id === 'string' && Array.isArray(parsed.inbound.attachments);
    return ok ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * How long the accepting process keeps a message's download closures when no
 * drain of its own settles the message (another process answered it). Platform
 * download links do not live much longer anyway (Telegram: about an hour).
 */
export const LOCAL_ATTACHMENTS_TTL_MS = 60 * 60_000;

/** The download closures of the messages this process accepted and has not answered yet. */
export class LocalAttachments {
  private readonly byId = new Map<string, { attachments: InboundAttachment[]; keptAt: number }>();

  keep(id: string, attachments: InboundAttachment[]): void {
    const now = Date.now();
    for (const [key, kept] of this.byId) if (now - kept.keptAt > LOCAL_ATTACHMENTS_TTL_MS) this.byId.delete(key);
    if (attachments.length > 0) this.byId.set(id, { attachments, keptAt: now });
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** The Inbound to answer: with the live attachments when this process accepted it. */
  restore(message: QueuedMessage): Inbound {
    const live = this.byId.get(message.id)?.attachments;
    const attachments = live ?? message.inbound.attachments.map(unavailable);
    return { ...message.inbound, attachments };
  }
}

function unavailable(info: AttachmentInfo): InboundAttachment {
  return {
    ...info,
    fetch: () =>
      Promise.reject(
        new AttachmentUnavailableError(
          'This file was received by a gateway process that stopped before answering, and only that process could download it.',
        ),
      ),
  };
}
