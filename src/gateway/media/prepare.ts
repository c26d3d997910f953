import type { UploadInput } from '../../upstream/api.js';
import type { Capabilities, InboundAttachment } from '../../contract.js';
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  TranscoderUnavailableError,
  UndecodableAudioError,
} from './errors.js';
import { MEDIA_LIMITS, WAV_SAMPLE_RATE, type MediaLimits } from './limits.js';
import { formatBytes, userTexts, type MediaNoun, type UserTexts } from '../user-texts.js';
import {
  ASK_TYPE,
  checkCombination,
  checkFormat,
  classOf,
  declaredClass,
  enabledClasses,
  isEnabled,
  nounFor,
  serviceLimit,
  type MediaSettings,
} from './media-policy.js';
import { sniffMedia, type SniffedMedia } from './sniff.js';
import { toWav } from './transcode.js';
import { isUnreadFile, type MediaClass, type MediaRefusal, type PreparedMedia } from './types.js';

export interface PrepareContext {
  settings: MediaSettings;
  capabilities: Pick<Capabilities, 'maxDownloadBytes'>;
  /** Uploads one file to the service (GetPreUploadUrl → PUT → confirm) and returns its id. */
  upload: (file: UploadInput) => Promise<{ fileId: number }>;
  limits?: Partial<MediaLimits>;
  /** ffmpeg for audio that is not OGG/Opus or WAV; default "ffmpeg" on PATH. */
  ffmpegPath?: string;
  signal?: AbortSignal;
  /** The refusals' sentences, in the chatbot's language (default English). */
  texts?: UserTexts['media'];
}

/** 16-bit mono: the bytes of one second of the WAV the audio limit is counted in. */
const WAV_BYTES_PER_SECOND = WAV_SAMPLE_RATE * 2;

interface Fetched {
  attachment: InboundAttachment;
  bytes: Uint8Array;
  sniffed: SniffedMedia;
  mediaClass: MediaClass;
}

const refuse = (reason: MediaRefusal['reason'], message: string): MediaRefusal => ({ reason, message });

/**
 * Turns a message's attachments into ClientAsk fileIds, or into one refusal to
 * reply with. Order: policy on what the platform declared (no download yet) →
 * size-capped download → sniff → policy on the real bytes → voice/audio to WAV →
 * upload. Nothing is uploaded unless every attachment passed, so a refused
 * message leaves no orphan files. A file that cannot be read (gone from the
 * platform, too large) is set aside in `unread` and the others go on: the
 * message's question still deserves its answer. When no file could be read, that
 * is the refusal. Upload errors (service down) are thrown as is.
 */
export async function prepareAttachments(
  attachments: InboundAttachment[],
  context: PrepareContext,
): Promise<PreparedMedia | MediaRefusal> {
  if (attachments.length === 0) return { chatAskType: 'Text', fileIds: [], notes: [], unread: [] };
  const limits: MediaLimits = { ...MEDIA_LIMITS, ...context.limits };
  const texts = context.texts ?? userTexts.media;

  const early = checkDeclared(attachments, context, limits);
  if (early) return early;

  // A file that cannot be read (gone, too large) is left out, and the rest of the message answered.
  const unread: MediaRefusal[] = [];
  const candidates: InboundAttachment[] = [];
  for (const attachment of attachments) {
    if (attachment.size !== undefined && attachment.size > downloadCap(attachment, context, limits))
      unread.push(tooLargeToFetch(attachment, context, limits, attachment.size));
    else candidates.push(attachment);
  }
  const fetched: Fetched[] = [];
  for (const attachment of candidates) {
    const result = await fetchAndSniff(attachment, context, limits);
    if ('reason' in result && isUnreadFile(result)) unread.push(result);
    else if ('reason' in result) return result;
    else fetched.push(result);
  }
  const mixed = checkCombination(
    fetched.map((file) => file.mediaClass),
    limits,
    texts,
  );
  if (mixed) return mixed;

  const kept: Fetched[] = [];
  const payloads: Uint8Array[] = [];
  for (const file of fetched) {
    const payload = file.mediaClass === 'audio' ? await convertAudio(file, context, limits) : file.bytes;
    if ('reason' in payload && isUnreadFile(payload)) unread.push(payload);
    else if ('reason' in payload) return payload;
    else {
      kept.push(file);
      payloads.push(payload);
    }
  }
  if (kept.length === 0 && unread.length > 0) return allUnread(unread);

  const uploads = kept.map((file, index) => {
    const isWav = file.mediaClass === 'audio';
    return context.upload({
      bytes: payloads[index] ?? file.bytes,
      fileName: `${file.mediaClass}-${index + 1}.${isWav ? 'wav' : file.sniffed.ext}`,
      contentType: isWav ? 'audio/wav' : file.sniffed.mime,
    });
  });
  const fileIds = (await Promise.all(uploads)).map((uploaded) => uploaded.fileId);
  const [first] = kept;
  return {
    chatAskType: first ? ASK_TYPE[first.mediaClass] : 'Text',
    fileIds,
    notes: kept.map(noteFor),
    unread,
  };
}

/** No file of the message could be read: one refusal saying why for each (the same sentence once). */
function allUnread(unread: MediaRefusal[]): MediaRefusal {
  const [first] = unread;
  const sentences = [...new Set(unread.map((refusal) => refusal.message))];
  return { reason: first?.reason ?? 'unavailable', message: sentences.join(' ') };
}

/** Everything that can be refused from the platform's announcement alone, before any byte is fetched. */
function checkDeclared(
  attachments: InboundAttachment[],
  context: PrepareContext,
  limits: MediaLimits,
): MediaRefusal | undefined {
  const texts = context.texts ?? userTexts.media;
  const known: MediaClass[] = [];
  for (const attachment of attachments) {
    const declared = declaredClass(attachment.kind);
    if (declared === 'sticker') return refuse('unsupported', texts.sticker);
    if (declared && !isEnabled(declared, context.settings)) return refuse('disabled', texts.disabled[declared]);
    if (!declared && enabledClasses(context.settings).length === 0) return refuse('disabled', texts.nothingAccepted);
    if (declared) known.push(declared);
  }
  const combination = checkCombination(known, limits, texts);
  if (combination) return combination;
  return undefined;
}

/** The most bytes worth downloading: the service's limit for the kind, and what the platform lets us download. */
function downloadCap(attachment: InboundAttachment, context: PrepareContext, limits: MediaLimits): number {
  return Math.min(serviceCapOf(attachment, context, limits), context.capabilities.maxDownloadBytes);
}

function serviceCapOf(attachment: InboundAttachment, context: PrepareContext, limits: MediaLimits): number {
  const declared = declaredClass(attachment.kind);
  if (declared && declared !== 'sticker') return serviceLimit(declared, limits);
  // A document can turn out to be any class this chatbot accepts.
  return Math.max(0, ...enabledClasses(context.settings).map((mediaClass) => serviceLimit(mediaClass, limits)));
}

function tooLargeToFetch(
  attachment: InboundAttachment,
  context: PrepareContext,
  limits: MediaLimits,
  size?: number,
): MediaRefusal {
  const texts = context.texts ?? userTexts.media;
  const serviceCap = serviceCapOf(attachment, context, limits);
  const platformCap = context.capabilities.maxDownloadBytes;
  const declared = declaredClass(attachment.kind);
  if (platformCap < serviceCap) {
    const noun = declared && declared !== 'sticker' ? nounFor(declared, attachment.kind) : 'file';
    return refuse('too-large', tooLargeToDownload(texts, noun, platformCap, size));
  }
  if (declared && declared !== 'sticker') {
    const noun = nounFor(declared, attachment.kind);
    return refuse(
      'too-large',
      size === undefined
        ? texts.tooLarge(noun, declared, serviceCap)
        : texts.tooLargeOfSize(noun, declared, serviceCap, size),
    );
  }
  return refuse(
    'too-large',
    size === undefined ? texts.tooLargeFile(serviceCap) : texts.tooLargeFileOfSize(serviceCap, size),
  );
}

/** The platform would not give the file: said with its reason (gone, over the platform's limit, or failed). */
function unavailable(
  attachment: InboundAttachment,
  error: AttachmentUnavailableError,
  context: PrepareContext,
): MediaRefusal {
  const texts = context.texts ?? userTexts.media;
  const declared = declaredClass(attachment.kind);
  const noun = declared && declared !== 'sticker' ? nounFor(declared, attachment.kind) : 'file';
  if (error.reason === 'too-large')
    return refuse('too-large', tooLargeToDownload(texts, noun, context.capabilities.maxDownloadBytes, attachment.size));
  return refuse('unavailable', error.reason === 'gone' ? texts.gone(noun) : texts.unavailable(noun));
}

async function fetchAndSniff(
  attachment: InboundAttachment,
  context: PrepareContext,
  limits: MediaLimits,
): Promise<Fetched | MediaRefusal> {
  const cap = downloadCap(attachment, context, limits);
  let bytes: Uint8Array;
  try {
    bytes = await attachment.fetch({ maxBytes: cap, signal: context.signal });
  } catch (error) {
    if (error instanceof AttachmentTooLargeError) {
      // The declared size was wrong or missing, so the only size we know is "more than the cap".
      const known = attachment.size !== undefined && attachment.size > cap ? attachment.size : undefined;
      return tooLargeToFetch(attachment, context, limits, known);
    }
    if (error instanceof AttachmentUnavailableError) return unavailable(attachment, error, context);
    throw error;
  }
  // An adapter that ignored maxBytes must not get past the limit either.
  if (bytes.length > cap) return tooLargeToFetch(attachment, context, limits, bytes.length);

  const texts = context.texts ?? userTexts.media;
  const sniffed = await sniffMedia(bytes);
  const mediaClass = classOf(sniffed, attachment.kind);
  if (!mediaClass) {
    const accepted = enabledClasses(context.settings);
    return refuse(
      'unsupported',
      sniffed.ext === 'bin' ? texts.notMedia(accepted) : texts.notMediaOfType(sniffed.ext, accepted),
    );
  }
  if (!isEnabled(mediaClass, context.settings)) return refuse('disabled', texts.disabled[mediaClass]);
  const format = checkFormat(sniffed, mediaClass, texts);
  if (format) return format;
  const limit = serviceLimit(mediaClass, limits);
  if (bytes.length > limit) {
    return refuse(
      'too-large',
      texts.tooLargeOfSize(nounFor(mediaClass, attachment.kind), mediaClass, limit, bytes.length),
    );
  }
  return { attachment, bytes, sniffed, mediaClass };
}

async function convertAudio(
  file: Fetched,
  context: PrepareContext,
  limits: MediaLimits,
): Promise<Uint8Array | MediaRefusal> {
  const texts = context.texts ?? userTexts.media;
  const noun = nounFor('audio', file.attachment.kind);
  try {
    return await toWav(file.bytes, file.sniffed, {
      ffmpegPath: context.ffmpegPath,
      signal: context.signal,
      maxWavBytes: limits.audioBytes,
    });
  } catch (error) {
    if (error instanceof TranscoderUnavailableError)
      return refuse('transcoder-missing', texts.transcoderMissing(file.sniffed.ext));
    if (error instanceof UndecodableAudioError) return refuse('unsupported', texts.undecodableAudio(noun));
    if (error instanceof AttachmentTooLargeError)
      return refuse('too-large', texts.tooLong(noun, Math.floor(limits.audioBytes / (WAV_BYTES_PER_SECOND * 60))));
    throw error;
  }
}

function tooLargeToDownload(texts: UserTexts['media'], noun: MediaNoun, limit: number, size?: number): string {
  return size === undefined ? texts.tooLargeToDownload(noun, limit) : texts.tooLargeToDownloadOfSize(noun, limit, size);
}

function noteFor(file: Fetched): string {
  const duration =
    file.attachment.durationSeconds === undefined ? '' : `, ${Math.round(file.attachment.durationSeconds)} s`;
  return `${nounFor(file.mediaClass, file.attachment.kind)} (${file.sniffed.mime}, ${formatBytes(file.bytes.length)}${duration})`;
}
