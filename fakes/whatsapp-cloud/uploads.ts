/**
 * `POST /{phone-number-id}/media`: a business uploads a file to send it by its media id
 * (/work/shared/notes/whatsapp-cloud.md, "Media"). Multipart fields `messaging_product`
 * (whatsapp), `file` and `type`; the answer is `{id}`. Meta reads the type from the file part's
 * own Content-Type: a part sent without one arrives as application/octet-stream and is refused
 * with Meta's words, which list the types it takes (issues fbsamples/whatsapp-api-examples#10,
 * MissaelAnda/laravel-whatsapp#4). Sizes by type, from Meta's media page as the notes copy it.
 *
 * And what a media message may name: an uploaded id of a type that fits the message (a photo
 * for `image`, any file for `document`).
 */
import { createHash } from 'node:crypto';
import { CloudApiError, META_CODES, invalidParameter } from './errors.js';
import type { StoredMedia, World } from './world.js';

const KB = 1024;
const MB = 1024 * KB;

/** Meta's upload types, in the order its refusal lists them, with the largest file of each. */
export const UPLOAD_LIMITS: Readonly<Record<string, number>> = {
  'audio/aac': 16 * MB,
  'audio/mp4': 16 * MB,
  'audio/mpeg': 16 * MB,
  'audio/amr': 16 * MB,
  'audio/ogg': 16 * MB,
  'audio/opus': 16 * MB,
  'application/vnd.ms-powerpoint': 100 * MB,
  'application/msword': 100 * MB,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 100 * MB,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 100 * MB,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 100 * MB,
  'application/pdf': 100 * MB,
  'text/plain': 100 * MB,
  'application/vnd.ms-excel': 100 * MB,
  'image/jpeg': 5 * MB,
  'image/png': 5 * MB,
  // A sticker: 100 KB still, 500 KB animated; the upload cannot tell which, so the larger.
  'image/webp': 500 * KB,
  'video/mp4': 16 * MB,
  'video/3gpp': 16 * MB,
};

function baseType(mimeType: string): string {
  return mimeType.split(';')[0]!.trim().toLowerCase();
}

function sizeText(bytes: number): string {
  return bytes >= MB ? `${bytes / MB}MB` : `${bytes / KB}KB`;
}

/** The stored media of an upload, or the error Meta answers. `contentType`: the request's, with its boundary. */
export async function upload(world: World, contentType: string, body: Buffer): Promise<StoredMedia> {
  if (!/^multipart\/form-data\b/i.test(contentType))
    throw invalidParameter('The media upload takes multipart/form-data (fields messaging_product, file, type).');
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalidParameter('The multipart body could not be read.');
  }
  const product = form.get('messaging_product');
  if (product === null) throw invalidParameter('The parameter messaging_product is required.');
  if (product !== 'whatsapp')
    throw invalidParameter(`Param messaging_product must be one of {WHATSAPP} - got "${String(product)}".`);
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw invalidParameter('The parameter file is required.');
  const type = baseType(file.type || 'application/octet-stream');
  const limit = UPLOAD_LIMITS[type];
  if (limit === undefined) {
    throw new CloudApiError(META_CODES.invalidParameter, undefined, {
      message:
        `(#100) Param file must be a file with one of the following types: ${Object.keys(UPLOAD_LIMITS).join(', ')}. ` +
        `Received file of type '${type}'.`,
    });
  }
  const bytes = Buffer.from(await file.arrayBuffer());
  // Meta documents the limits, not the words of this refusal: these are the fake's, under Meta's code for a failed upload.
  if (bytes.byteLength > limit)
    throw new CloudApiError(
      META_CODES.mediaUpload,
      `Media file size too big. Max file size we currently support for ${type}: ${sizeText(limit)}; this one is ${bytes.byteLength} bytes.`,
    );
  const media: StoredMedia = {
    id: world.newMediaId(),
    bytes,
    mimeType: type,
    sha256: createHash('sha256').update(bytes).digest('base64'),
    fileSize: bytes.byteLength,
    uploaded: true,
    ...(file.name ? { fileName: file.name } : {}),
  };
  world.media.set(media.id, media);
  world.changed();
  return media;
}

/** Which stored types each media message shows (a document shows any file). */
const FITS: Readonly<Record<string, (mimeType: string) => boolean>> = {
  image: (type) => type === 'image/jpeg' || type === 'image/png',
  video: (type) => type.startsWith('video/'),
  audio: (type) => type.startsWith('audio/'),
  sticker: (type) => type === 'image/webp',
  document: () => true,
};

/** The uploaded media a message names by id, checked against the message type; refused as Meta's upload error otherwise. */
export function mediaForMessage(world: World, type: string, id: string): StoredMedia {
  const media = world.media.get(id);
  if (!media?.uploaded) throw invalidParameter(`Param ${type}['id'] is not a valid media ID of this phone number.`);
  if (!(FITS[type] ?? (() => false))(media.mimeType))
    throw new CloudApiError(
      META_CODES.mediaUpload,
      `Media ${id} is ${media.mimeType}, which a message of type ${type} cannot show.`,
    );
  return media;
}
