import type { ChatAskType } from '../../upstream/api.js';

export type RefusalReason =
  'disabled' | 'too-large' | 'unsupported' | 'mixed' | 'too-many' | 'transcoder-missing' | 'unavailable';

/** Why a message's media cannot be forwarded, with the sentence to reply in the chat. */
export interface MediaRefusal {
  reason: RefusalReason;
  /** A friendly sentence for the user that names the limit or what to send instead. */
  message: string;
}

/** Media ready for ClientAsk: the mode, the uploaded file ids, and lines for the transcript. */
export interface PreparedMedia {
  chatAskType: ChatAskType;
  fileIds: number[];
  /** One per attachment sent, e.g. "photo (image/jpeg, 120 KB)". */
  notes: string[];
  /**
   * Files that could not be read (gone from the platform, or too large), one refusal each. The
   * message is answered without them: its text and the other files are asked, and the user is told
   * why each was left out (with nothing else to ask, the refusals are the whole reply).
   */
  unread: MediaRefusal[];
}

export function isMediaRefusal(result: PreparedMedia | MediaRefusal): result is MediaRefusal {
  return 'reason' in result;
}

/**
 * A refusal of the file itself, not of what the user asked: it could not be read (gone from the
 * platform, or too large to take). The message's text is still a question and is answered without it.
 */
export function isUnreadFile(refusal: MediaRefusal): boolean {
  return refusal.reason === 'unavailable' || refusal.reason === 'too-large';
}

/** The three kinds of media the service takes; each maps to one ClientAsk mode. */
export type MediaClass = 'image' | 'audio' | 'video';
