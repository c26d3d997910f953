import type { ChatAskType } from '../../upstream/api.js';
import { badRequest, formatSize, ServiceError } from '../envelope.js';
import type { ServiceLimits } from '../options.js';
import type { StoredFileMeta, UploadedFile } from '../repos/files.js';
import type { ChatbotSettings } from '../validation/settings.js';

const ACCEPTED: Record<Exclude<ChatAskType, 'Text'>, { exts: readonly string[]; names: string }> = {
  Image: { exts: ['png', 'jpg', 'webp', 'gif'], names: 'PNG, JPEG, WEBP or non-animated GIF' },
  Video: { exts: ['mp4', 'mkv', 'avi', 'flv', 'mpg'], names: 'MP4, MKV, AVI, FLV or MPEG' },
  Audio: { exts: ['wav'], names: 'WAV' },
};

/** The checks that need no state: which ask types take files, and how many. */
export function checkAskShape(
  askType: ChatAskType,
  content: string | undefined,
  fileIds: number[] | undefined,
  limits: ServiceLimits,
): void {
  const count = fileIds?.length ?? 0;
  if (askType === 'Text' && count > 0) {
    throw badRequest(
      'fileIds is only accepted when chatAskType is Image, Video or Audio; send chatAskType with the files.',
    );
  }
  // Required in every mode; only its emptiness depends on chatAskType (spec: "may be empty when Image, Audio or Video").
  if (content === undefined) throw badRequest('content is required.');
  if (askType === 'Text') {
    if (content.trim() === '') throw badRequest('content must not be empty when chatAskType is Text.');
    return;
  }
  if (count === 0) throw badRequest(`fileIds must hold the uploaded file's id when chatAskType is ${askType}.`);
  if (askType === 'Image' && count > limits.imagesPerAsk) {
    throw badRequest(`fileIds holds ${count} files; chatAskType Image accepts at most ${limits.imagesPerAsk}.`);
  }
  if (askType !== 'Image' && count !== 1)
    throw badRequest(`fileIds must hold exactly one file when chatAskType is ${askType} (it holds ${count}).`);
  if (new Set(fileIds).size !== count) throw badRequest('fileIds must not repeat a file id.');
}

/**
 * The chatbot's own switches: EnableUploadImage for images (and videos, which are
 * visual content too), EnablePushToTalk for audio. Off is a 403 whose message a
 * gateway can show its user as it is.
 */
export function checkMediaEnabled(
  askType: ChatAskType,
  settings: Pick<ChatbotSettings, 'EnableUploadImage' | 'EnablePushToTalk'>,
): void {
  if (askType === 'Text') return;
  if (askType === 'Audio' && !settings.EnablePushToTalk) {
    throw new ServiceError(403, 'This chatbot does not accept voice messages (its EnablePushToTalk setting is off).');
  }
  if (askType !== 'Audio' && !settings.EnableUploadImage) {
    throw new ServiceError(
      403,
      `This chatbot does not accept ${askType === 'Image' ? 'images' : 'videos'} (its EnableUploadImage setting is off).`,
    );
  }
}

/** Format by sniffed content (never the name), then size. */
export function checkFile(
  askType: Exclude<ChatAskType, 'Text'>,
  file: StoredFileMeta,
  limits: ServiceLimits,
): UploadedFile {
  if (file.uploadedAt === undefined || file.size === undefined) {
    throw badRequest(`File ${file.fileId} has no bytes yet: PUT them to its PreUploadUrl before asking.`);
  }
  const accepted = ACCEPTED[askType];
  const detected = file.ext ? file.ext.toUpperCase() : 'an unrecognised format';
  if (!accepted.exts.includes(file.ext ?? '')) {
    throw new ServiceError(
      415,
      `File ${file.fileId} ("${file.fileName}") is ${detected}; chatAskType ${askType} accepts ${accepted.names}.`,
    );
  }
  if (askType === 'Image' && file.animated) {
    throw new ServiceError(
      415,
      `File ${file.fileId} ("${file.fileName}") is an animated GIF; only still images are accepted.`,
    );
  }
  const max = askType === 'Image' ? limits.imageBytes : askType === 'Video' ? limits.videoBytes : limits.audioBytes;
  if (file.size > max) {
    throw new ServiceError(
      413,
      `File ${file.fileId} ("${file.fileName}") is ${formatSize(file.size)}; the limit for ${askType.toLowerCase()} files is ${formatSize(max)}.`,
    );
  }
  return file as UploadedFile;
}
