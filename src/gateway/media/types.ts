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
  /** One per attachment, e.g. "photo (image/jpeg, 120 KB)". */
  notes: string[];
}

export function isMediaRefusal(result: PreparedMedia | MediaRefusal): result is MediaRefusal {
  return 'reason' in result;
}

/** The three kinds of media the service takes; each maps to one ClientAsk mode. */
export type MediaClass = 'image' | 'audio' | 'video';
