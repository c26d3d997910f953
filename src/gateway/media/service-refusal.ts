/**
 * The service refusing a file the gateway's policy let through: a hosted chatbot
 * whose copy of the settings did not know uploads are off there, or a limit the
 * service keeps lower than documented. The user gets one clear sentence with the
 * service's reason instead of "could not answer this message".
 */
import type { AttachmentKind, InboundAttachment } from '../../contract.js';
import { UpstreamError } from '../../upstream/errors.js';
import { userTexts, type MediaNoun, type UserTexts } from '../user-texts.js';

const MEDIA_OPERATIONS = new Set(['ClientAsk', 'GetPreUploadUrl', 'UploadPut', 'UploadConfirm']);
/** Statuses that mean "not this file" (bad request, forbidden, too large, wrong type, unprocessable). */
const REFUSAL_STATUSES = new Set([400, 403, 413, 415, 422]);

const NOUN: Partial<Record<AttachmentKind, MediaNoun>> = {
  image: 'photo',
  voice: 'voice message',
  audio: 'audio file',
  video: 'video',
};

/** The reply for a refusal of the message's files by the service, or null when the error is something else. */
export function serviceMediaRefusal(
  attachments: readonly InboundAttachment[],
  error: unknown,
  texts: UserTexts['media'] = userTexts.media,
): string | null {
  if (attachments.length === 0 || !(error instanceof UpstreamError) || error.transient) return null;
  if (!MEDIA_OPERATIONS.has(error.operation)) return null;
  const status = error.code !== null && error.code >= 400 ? error.code : error.status;
  if (status === null || !REFUSAL_STATUSES.has(status)) return null;
  const noun = NOUN[attachments[0]!.kind] ?? 'file';
  const reason = error.message.trim().replace(/\.?$/, '.');
  return texts.refusedByService(noun, reason);
}
