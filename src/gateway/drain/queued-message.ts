/**
 * A message as it waits in the Redis queue. The queue must survive the process
 * that accepted the message, so everything is plain JSON, except attachments: the
 * platform gave us a download closure, which only lives in the accepting process
 * (kept in `LocalAttachments`). A message answered elsewhere (after a crash, or
 * accepted by another gateway process) has its attachments' metadata and `ref`,
 * from which the serving adapter rebuilds the download (`Adapter.restoreAttachment`).
 */
import { AttachmentUnavailableError } from '../media/index.js';
import type { Adapter, Inbound, InboundAttachment } from '../../contract.js';

type AttachmentInfo = Omit<InboundAttachment, 'fetch'>;

export interface QueuedMessage {
  /** Random id, to find the message's attachments in the accepting process. */
  id: string;
  /** The gateway process that accepted it. */
  origin: string;
  acceptedAt: number;
  inbound: Omit<Inbound, 'attachments'> & { attachments: AttachmentInfo[] };
  /** Deleted by the user before its answer started (intake/revise.ts): kept in its place, answered by nobody. */
  deleted?: true;
  /** Edited by the user before its answer started: `inbound` is the edited message. */
  edited?: true;
}

export function toQueuedMessage(inbound: Inbound, id: string, origin: string, acceptedAt: number): QueuedMessage {
  // Everything but the closure, `ref` included: it is what lets another process fetch the file.
  const attachments = inbound.attachments.map(({ fetch: _fetch, ...info }) => info);
  return { id, origin, acceptedAt, inbound: { ...inbound, attachments } };
}

export function parseQueuedMessage(raw: string): QueuedMessage | null {
  try {
    const parsed = JSON.parse(raw) as QueuedMessage;
    const ok =
      typeof parsed.id === 'string' &&
      typeof parsed.inbound?.conversation?.id === 'string' &&
      Array.isArray(parsed.inbound.attachments);
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

  /**
   * The Inbound to answer: with the live attachments when this process accepted it;
   * otherwise rebuilt by `adapter` (the one serving the message's conversation here)
   * from each attachment's `ref`. Only an attachment with neither is unavailable, and
   * the user is asked to send it again.
   */
  restore(message: QueuedMessage, adapter?: Pick<Adapter, 'restoreAttachment'>): Inbound {
    const live = this.byId.get(message.id)?.attachments;
    const attachments = live ?? message.inbound.attachments.map((info) => restoreOne(info, adapter));
    return { ...message.inbound, attachments };
  }
}

function restoreOne(info: AttachmentInfo, adapter: Pick<Adapter, 'restoreAttachment'> | undefined): InboundAttachment {
  const { ref, ...rest } = info;
  if (ref === undefined || !adapter?.restoreAttachment) return unavailable(info);
  try {
    return adapter.restoreAttachment(ref, rest);
  } catch (error) {
    // A ref the adapter cannot turn back into a file fails this attachment only, not the turn.
    return unavailable(info, error);
  }
}

function unavailable(info: AttachmentInfo, cause?: unknown): InboundAttachment {
  return {
    ...info,
    fetch: () =>
      Promise.reject(
        new AttachmentUnavailableError(
          'This file was received by a gateway process that stopped before answering, and no process here can download it again.',
          cause === undefined ? undefined : { cause },
        ),
      ),
  };
}
