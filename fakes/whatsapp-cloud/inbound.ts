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
   * With a text or a file: it replies to this message (a wamid the business sent, or one of the
   * user's): `context: {from, id}`, `from` being who wrote the quoted message.
   */
  replyTo?: string;
  /**
   * The user edits a message of theirs (its wamid, within Meta's 15 minutes): a text's new body, or a
   * file's new caption. On a Coexistence number `{type: "edit", edit: {original_message_id, message}}`,
   * the message as it reads now; elsewhere `unsupported` with `unsupported.type: "edit"`.
   */
  edit?: { messageId: string; text: string };
  /** The user deletes a message of theirs for everyone (within two days): `{type: "revoke", revoke: {original_message_id}}`, or `unsupported`. */
  revoke?: { messageId: string };
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
  'edit',
  'revoke',
] as const;

/** Meta's limits on a user's changes (its edit and revoke webhook references). */
export const USER_EDIT_WINDOW_MS = 15 * 60_000;
export const USER_REVOKE_WINDOW_MS = 2 * 24 * 60 * 60_000;

/** How the fake posts what a user sends. */
export interface InboundOptions {
  displayPhoneNumber: string;
  /** The number is on the WhatsApp Business app too: Meta posts a user's edits and revokes as such. */
  coexistence: boolean;
}

/** Meta's words for a message it cannot render to the API; `type` says what it was, when Meta says. */
function unsupported(type?: string): Record<string, unknown> {
  const error = {
    code: 131051,
    title: 'Message type unknown',
    message: 'Message type unknown',
    error_data: { details: 'Message type is currently not supported.' },
  };
  return { type: 'unsupported', errors: [error], ...(type ? { unsupported: { type } } : {}) };
}

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
export function inboundMessage(world: World, message: UserMessage, options: InboundOptions): Record<string, unknown> {
  const given = KINDS.filter((kind) => message[kind] !== undefined);
  if (given.length !== 1)
    throw new Error(
      `fake WhatsApp Cloud: userSends takes exactly one of ${KINDS.join(', ')}; got ${given.length ? given.join(', ') : 'none'}`,
    );
  const fields = contentOf(world, message, options);
  if (message.replyTo === undefined) return fields;
  if (!['text', 'image', 'audio', 'video', 'document'].includes(String(fields.type)))
    throw new Error('fake WhatsApp Cloud: replyTo goes with a text or a file');
  return { context: replyContext(world, message.replyTo, options.displayPhoneNumber), ...fields };
}

/** `context` of a reply: the quoted message's wamid, and who wrote it. */
function replyContext(world: World, wamid: string, displayPhoneNumber: string): { from: string; id: string } {
  if (world.isSent(wamid)) return { from: displayPhoneNumber, id: wamid };
  const inbound = world.inboundMessage(wamid);
  if (!inbound) throw new Error(`fake WhatsApp Cloud: replyTo: no message ${wamid} in the chat`);
  return { from: inbound.from, id: wamid };
}

/** A user's message of theirs that they change: theirs, and within Meta's window for the change. */
function ownMessage(world: World, message: UserMessage, wamid: string, windowMs: number, change: string) {
  const original = world.inboundMessage(wamid);
  if (!original || original.from !== message.from)
    throw new Error(`fake WhatsApp Cloud: ${change}: ${wamid} is not a message of ${message.from}`);
  if (world.now() - original.at > windowMs)
    throw new Error(`fake WhatsApp Cloud: ${change}: past Meta's ${windowMs / 60_000} minutes, WhatsApp offers none`);
  return original;
}

/** The edited message as it reads now: a text's body, or a file's caption, replaced. */
function editOf(world: World, message: UserMessage, options: InboundOptions): Record<string, unknown> {
  const { messageId, text } = message.edit!;
  const original = ownMessage(world, message, messageId, USER_EDIT_WINDOW_MS, 'edit');
  const type = String(original.content.type);
  const object = original.content[type] as Record<string, unknown> | undefined;
  if (!object || !['text', 'image', 'video', 'document'].includes(type))
    throw new Error(`fake WhatsApp Cloud: edit: a ${type} message has no text to edit`);
  const edited = {
    ...original.content,
    [type]: type === 'text' ? { ...object, body: text } : { ...object, caption: text },
  };
  world.reviseInbound(messageId, edited);
  if (!options.coexistence) return unsupported('edit');
  return { type: 'edit', edit: { original_message_id: messageId, message: edited } };
}

function contentOf(world: World, message: UserMessage, options: InboundOptions): Record<string, unknown> {
  const { displayPhoneNumber } = options;
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
  if (message.unsupported) return unsupported();
  if (message.edit) return editOf(world, message, options);
  if (message.revoke) {
    const { messageId } = message.revoke;
    ownMessage(world, message, messageId, USER_REVOKE_WINDOW_MS, 'revoke');
    if (!options.coexistence) return unsupported('revoke');
    return { type: 'revoke', revoke: { original_message_id: messageId } };
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
