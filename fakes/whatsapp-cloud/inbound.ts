/**
 * What a user can send, turned into the `messages[]` entry Meta posts (/work/shared/notes/
 * whatsapp-cloud.md, "Inbound message"), with media stored for `GET /{media-id}`. The formats
 * are the ones Meta lists per type; a test that asks for another gets a clear error, since
 * WhatsApp would have converted the file or refused it on the user's phone.
 */
import { createHash } from 'node:crypto';
import type { World } from './world.js';

export interface UserMedia {
  bytes: Buffer;
  mimeType: string;
  /** What GET /{media-id} announces as file_size, when a test wants it to differ from the bytes. */
  declaredSize?: number;
  /**
   * What Meta no longer has when the gateway asks, as happens once media is old: the media id
   * (`GET /{media-id}` answers 400, code 100, "does not exist"), or the file behind its url (the
   * media host answers 404 for every url issued, as it does for an expired one).
   */
  vanished?: 'media-id' | 'file';
}

export interface UserMessage {
  /**
   * The user: their number (wa_id, digits), or their business-scoped user id (`US.1349…`) for a
   * user Meta names by it alone (a username, no number shown): then the message carries
   * `from_user_id` and the contact `user_id`, with no `from` or `wa_id`.
   */
  from: string;
  name?: string;
  text?: string;
  image?: UserMedia & { caption?: string };
  audio?: UserMedia & { voice?: boolean };
  video?: UserMedia & { caption?: string };
  document?: UserMedia & { filename: string; caption?: string };
  buttonReply?: { id: string; title: string; contextId?: string };
  listReply?: { id: string; title: string; description?: string; contextId?: string };
  reaction?: { messageId: string; emoji: string };
  sticker?: true;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: true;
  /** What Meta posts for a message it cannot render to the API (a user's edit or revoke among them): type `unsupported`, error 131051. */
  unsupported?: true;
  /**
   * Meta's notice that the user's business-scoped user id changed from `from` to `newUserId`: a
   * `system` message of type `user_changed_user_id` with no `from` and no contact, the new id in
   * `system.user_id` and both in its body ("User <name> changed from <old> to <new>").
   */
  userIdChanged?: { newUserId: string };
}

/** Meta's business-scoped user id: a country code, a dot, up to 128 letters and digits. */
export const isBusinessScopedId = (id: string): boolean => /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/.test(id);

const KINDS = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'buttonReply',
  'listReply',
  'reaction',
  'sticker',
  'location',
  'contacts',
  'unsupported',
  'userIdChanged',
] as const;

/** Meta's supported media types (the notes, "Media": image jpeg/png, audio aac/mp4/mpeg/amr/ogg, video mp4/3gpp, sticker webp). */
const FORMATS: Record<'image' | 'audio' | 'video', readonly string[]> = {
  image: ['image/jpeg', 'image/png'],
  audio: ['audio/aac', 'audio/mp4', 'audio/mpeg', 'audio/amr', 'audio/ogg'],
  video: ['video/mp4', 'video/3gpp'],
};

/** A sticker's bytes: enough of a WebP header for a sniffer; the bot never reads stickers anyway. */
const STICKER_BYTES = Buffer.from(
  'RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00',
  'latin1',
);

function baseType(mimeType: string): string {
  return mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
}

function store(world: World, media: UserMedia): { id: string; mime_type: string; sha256: string } {
  const id = world.newMediaId();
  const sha256 = createHash('sha256').update(media.bytes).digest('base64');
  if (media.vanished !== 'media-id') {
    world.media.set(id, {
      id,
      bytes: media.bytes,
      mimeType: media.mimeType,
      sha256,
      fileSize: media.declaredSize ?? media.bytes.byteLength,
      ...(media.vanished === 'file' ? { fileGone: true } : {}),
    });
  }
  return { id, mime_type: media.mimeType, sha256 };
}

function checkFormat(kind: keyof typeof FORMATS, mimeType: string): void {
  if (!FORMATS[kind].includes(baseType(mimeType))) {
    throw new Error(
      `fake WhatsApp Cloud: ${kind} as ${mimeType} is not a format Meta delivers (${FORMATS[kind].join(', ')})`,
    );
  }
}

/** The message's own fields (type and its object, context), after from/id/timestamp. */
export function inboundMessage(
  world: World,
  message: UserMessage,
  displayPhoneNumber: string,
): Record<string, unknown> {
  const given = KINDS.filter((kind) => message[kind] !== undefined);
  if (given.length !== 1)
    throw new Error(
      `fake WhatsApp Cloud: userSends takes exactly one of ${KINDS.join(', ')}; got ${given.length ? given.join(', ') : 'none'}`,
    );
  const context = (id: string | undefined): Record<string, unknown> =>
    id ? { context: { from: displayPhoneNumber, id } } : {};
  const { text, image, audio, video, document, buttonReply, listReply, reaction, location } = message;
  if (text !== undefined) return { type: 'text', text: { body: text } };
  if (image) {
    checkFormat('image', image.mimeType);
    return { type: 'image', image: { ...(image.caption ? { caption: image.caption } : {}), ...store(world, image) } };
  }
  if (audio) {
    checkFormat('audio', audio.mimeType);
    // Voice notes are OGG/Opus; Meta names them so in mime_type.
    if (audio.voice && baseType(audio.mimeType) !== 'audio/ogg')
      throw new Error('fake WhatsApp Cloud: a voice note is OGG/Opus (audio/ogg; codecs=opus)');
    return { type: 'audio', audio: { ...store(world, audio), voice: audio.voice ?? false } };
  }
  if (video) {
    checkFormat('video', video.mimeType);
    return { type: 'video', video: { ...(video.caption ? { caption: video.caption } : {}), ...store(world, video) } };
  }
  if (document) {
    return {
      type: 'document',
      document: {
        ...(document.caption ? { caption: document.caption } : {}),
        filename: document.filename,
        ...store(world, document),
      },
    };
  }
  if (buttonReply) {
    return {
      ...context(buttonReply.contextId),
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: buttonReply.id, title: buttonReply.title } },
    };
  }
  if (listReply) {
    const reply = {
      id: listReply.id,
      title: listReply.title,
      ...(listReply.description ? { description: listReply.description } : {}),
    };
    return {
      ...context(listReply.contextId),
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: reply },
    };
  }
  if (reaction) return { type: 'reaction', reaction: { message_id: reaction.messageId, emoji: reaction.emoji } };
  if (message.sticker)
    return {
      type: 'sticker',
      sticker: { ...store(world, { bytes: STICKER_BYTES, mimeType: 'image/webp' }), animated: false },
    };
  if (location) return { type: 'location', location };
  if (message.userIdChanged) {
    const { newUserId } = message.userIdChanged;
    const name = message.name ?? 'User';
    return {
      type: 'system',
      system: {
        body: `User ${name} changed from ${message.from} to ${newUserId}`,
        user_id: newUserId,
        type: 'user_changed_user_id',
      },
    };
  }
  if (message.unsupported) {
    const error = {
      code: 131051,
      title: 'Message type unknown',
      message: 'Message type unknown',
      error_data: { details: 'Message type is currently not supported.' },
    };
    return { type: 'unsupported', errors: [error] };
  }
  return {
    type: 'contacts',
    contacts: [
      {
        name: { formatted_name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
        phones: [{ phone: '+44 20 7946 0000', type: 'CELL', wa_id: '442079460000' }],
      },
    ],
  };
}
