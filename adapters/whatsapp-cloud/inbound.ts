/**
 * A message of Meta's webhook → the core's `Inbound`, or the reason it is not answered. One
 * conversation per user: `from` (their wa_id), or `from_user_id` (their business-scoped user id)
 * for a user Meta names only by that (conversation.ts; index.ts maps a changed id to the
 * conversation it had); the wamid is the dedupe key of a redelivery.
 *
 *   text                      the words; a command word (`help`, `listings Austin`) becomes /help…
 *   image, video, audio,      a file the core fetches when it needs it (media.ts); the caption is
 *   document, sticker         the text; a voice note (audio.voice) is 'voice', converted to WAV
 *   interactive, button       a reply button or list row pressed: a core button's value comes back
 *                             as `action`, a suggested question is asked as text (interactive.ts)
 *   location, contacts,       the core answers with what the bot can read (an attachment it
 *   order                     cannot read, as for any such file)
 *   reaction                  not answered: an emoji on a message in the chat (the bot's answer,
 *                             mostly) is an acknowledgement, not a question; "I can't read this
 *                             kind of file" would be wrong, and any answer noise
 *   edit, revoke              never a new question: a change to a message sent before (revisions.ts)
 *   anything else             not answered: `unsupported` (a user's edit or revoke arrives so on a
 *                             number Meta sends no `edit`/`revoke` for), `system` (index.ts reads
 *                             `user_changed_user_id`), types Meta adds later
 *
 * A text or a file that replies to a message names it in `context.id`; the bot's own messages are
 * found by that id (sent-texts.ts) and carried as `quoted`.
 */
import {
  textForCore,
  type AttachmentKind,
  type CommandWords,
  type Inbound,
  type InboundAttachment,
} from '../../src/contract.js';
import { isBusinessScopedId, isPhoneId } from './conversation.js';
import type { CloudMessage, CloudMessageContent } from './events.js';
import type { GraphClient } from './graph.js';
import { ACTION_ID_PREFIX, SUGGESTION_ID_PREFIX } from './interactive.js';
import { documentKind, mediaAttachment, unreadableAttachment } from './media.js';

export const PLATFORM = 'whatsapp-cloud';

export interface InboundContext {
  bot: string;
  graph: GraphClient;
  words: CommandWords;
}

export type Ignored = { ignored: string };

/** Kinds the chatbot cannot read and that carry no file: the user is told what it can read. */
const UNREADABLE = new Set(['location', 'contacts', 'order']);

type Body = Pick<Inbound, 'text' | 'attachments'> & Partial<Pick<Inbound, 'action'>>;

function mediaOf(message: CloudMessage, context: InboundContext): Body | Ignored {
  const type = message.type as 'image' | 'video' | 'audio' | 'document' | 'sticker';
  const media = message[type];
  if (!media) return { ignored: `a ${type} message without its ${type} object` };
  const kinds: Record<typeof type, AttachmentKind> = {
    image: 'image',
    video: 'video',
    audio: message.audio?.voice ? 'voice' : 'audio',
    document: documentKind(media.mime_type),
    sticker: 'sticker',
  };
  const attachment = mediaAttachment(context.graph, kinds[type], {
    id: media.id,
    ...(media.mime_type ? { mimeType: media.mime_type } : {}),
    ...(type === 'document' && message.document?.filename ? { fileName: message.document.filename } : {}),
  });
  // A caption is never a command: "help" under a photo is a question about the photo.
  return { text: (media.caption ?? '').trim(), attachments: [attachment] };
}

/** A reply button or list row pressed: ours carry what they mean in their id (interactive.ts). */
function replyOf(message: CloudMessage, reply: { id: string; title: string }): Body {
  if (reply.id.startsWith(ACTION_ID_PREFIX)) {
    return {
      text: reply.title,
      attachments: [],
      action: { id: message.id, value: reply.id.slice(ACTION_ID_PREFIX.length) },
    };
  }
  if (reply.id.startsWith(SUGGESTION_ID_PREFIX))
    return { text: reply.id.slice(SUGGESTION_ID_PREFIX.length), attachments: [] };
  // Someone else's buttons (a template's): what the user pressed is what they say.
  return { text: reply.title, attachments: [] };
}

function bodyOf(message: CloudMessage, context: InboundContext): Body | Ignored {
  switch (message.type) {
    case 'text':
      if (message.text === undefined) return { ignored: 'a text message without text' };
      return { text: textForCore(message.text.body.trim(), context.words), attachments: [] };
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return mediaOf(message, context);
    case 'interactive': {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      return reply
        ? replyOf(message, reply)
        : { ignored: `an interactive message of type "${message.interactive?.type ?? '?'}"` };
    }
    case 'button': {
      const pressed = message.button?.text ?? message.button?.payload;
      return pressed ? { text: pressed, attachments: [] } : { ignored: 'a template button without text' };
    }
    default:
      break;
  }
  if (message.type === 'reaction') return { ignored: 'a reaction (an acknowledgement, not a question)' };
  if (message.type === 'edit' || message.type === 'revoke')
    return { ignored: `a user's ${message.type} of a message sent before (a revision, not a question)` };
  if (UNREADABLE.has(message.type))
    return { text: '', attachments: [unreadableAttachment(message.type) as InboundAttachment] };
  return { ignored: `message type "${message.type}"` };
}

/**
 * Who sent it, as Meta names them: their number when Meta shows it (the conversations kept so
 * far are keyed by it), else their business-scoped user id; undefined when neither is usable.
 */
export function senderOf(message: Pick<CloudMessage, 'from' | 'from_user_id'>): string | undefined {
  if (message.from !== undefined && isPhoneId(message.from)) return message.from;
  if (message.from_user_id !== undefined && isBusinessScopedId(message.from_user_id)) return message.from_user_id;
  return undefined;
}

/**
 * The conversation and the user of a message (a change to one too). `conversationId`: the sender's
 * conversation when it is not their own id (a business-scoped id that changed).
 */
export function senderConversation(
  message: CloudMessage,
  names: ReadonlyMap<string, string>,
  bot: string,
  conversationId?: string,
): Pick<Inbound, 'conversation' | 'user'> | Ignored {
  const sender = senderOf(message);
  if (sender === undefined)
    return {
      ignored: `a sender that is neither a WhatsApp number nor a business-scoped user id (${message.from ?? message.from_user_id ?? 'none'})`,
    };
  const name = names.get(sender) ?? (message.from_user_id ? names.get(message.from_user_id) : undefined);
  const id = conversationId ?? sender;
  return { conversation: { bot, platform: PLATFORM, id }, user: { id, ...(name ? { name } : {}) } };
}

/** `conversationId`: the sender's conversation when it is not their own id (a business-scoped id that changed). */
export function messageToInbound(
  message: CloudMessage,
  names: ReadonlyMap<string, string>,
  context: InboundContext,
  conversationId?: string,
): Inbound | Ignored {
  const who = senderConversation(message, names, context.bot, conversationId);
  if ('ignored' in who) return who;
  const body = bodyOf(message, context);
  if ('ignored' in body) return body;
  return {
    ...who,
    text: body.text,
    attachments: body.attachments,
    isGroup: false,
    addressed: true,
    platformMessageId: message.id,
    sentAt: message.timestamp * 1000,
    ...(body.action ? { action: body.action } : {}),
  };
}

/**
 * The wamid of the message a user's message quotes, when it quotes one. A button or list reply's
 * context is the message that carried the buttons: pressing one is not quoting it.
 */
export function quotedId(message: CloudMessageContent): string | undefined {
  if (message.type === 'interactive' || message.type === 'button') return undefined;
  return message.context?.id || undefined;
}

export function isIgnored(result: Inbound | Ignored): result is Ignored {
  return 'ignored' in result;
}
