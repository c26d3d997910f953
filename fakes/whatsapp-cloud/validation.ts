/**
 * Meta's rules for a `POST /{phone-number-id}/messages` body (/work/shared/notes/whatsapp-cloud.md,
 * "Sending"): either a message (text, interactive, media, template, reaction, location, contacts)
 * or the read call (`status: "read"`, with the typing indicator). Unknown keys are refused as
 * Meta refuses them ("Unexpected key"), which is how an `edit` is refused: the Cloud API has none.
 * Length errors name the parameter in Meta's notation (`text['body']`).
 */
import { invalidParameter } from './errors.js';
import { object, onlyKeys, required, text, type Json } from './fields.js';
import { interactive, type InteractiveContent } from './interactive.js';

/** Meta's text-messages page: body up to 4,096 characters. */
export const MAX_TEXT_BODY = 4096;
/** Media captions: 1,024 characters (Meta's media messages page; not in the notes, the reference's number). */
export const MAX_CAPTION = 1024;

export interface MessageContent {
  type: string;
  /** Text body, interactive body, media caption or template name: what the user reads first. */
  text?: string;
  interactive?: InteractiveContent;
  media?: { id?: string; link?: string; caption?: string; filename?: string };
  template?: { name: string; language: string };
  reaction?: { messageId: string; emoji: string };
  /** `context.message_id`: the message this one quotes. */
  replyTo?: string;
}

export type SendRequest =
  { kind: 'message'; to: string; content: MessageContent } | { kind: 'read'; messageId: string; typing: boolean };

const MEDIA_TYPES = new Set(['image', 'audio', 'video', 'document', 'sticker']);
const MESSAGE_TYPES = new Set(['text', 'interactive', 'template', 'reaction', 'location', 'contacts', ...MEDIA_TYPES]);
const ENVELOPE_KEYS = [
  'messaging_product',
  'recipient_type',
  'to',
  'recipient',
  'type',
  'context',
  'biz_opaque_callback_data',
];
/** A business-scoped user id (BSUID): a country code, a dot, up to 128 letters and digits (`US.13491208655302741918`). */
export const BSUID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

function media(type: string, value: unknown): NonNullable<MessageContent['media']> {
  const body = object(value, type);
  const allowed = [
    'id',
    'link',
    ...(type === 'audio' || type === 'sticker' ? [] : ['caption']),
    ...(type === 'document' ? ['filename'] : []),
  ];
  onlyKeys(body, allowed, type);
  if ((body.id === undefined) === (body.link === undefined))
    throw invalidParameter(`Param ${type} must have exactly one of ${type}['id'] or ${type}['link'].`);
  const id = text(body.id, `${type}['id']`, { optional: true });
  const link = text(body.link, `${type}['link']`, { optional: true });
  const caption = text(body.caption, `${type}['caption']`, { optional: true, max: MAX_CAPTION });
  const filename = text(body.filename, `${type}['filename']`, { optional: true });
  return {
    ...(id ? { id } : {}),
    ...(link ? { link } : {}),
    ...(caption ? { caption } : {}),
    ...(filename ? { filename } : {}),
  };
}

function content(type: string, body: Json): MessageContent {
  const part = body[type];
  switch (type) {
    case 'text': {
      const t = object(part, 'text');
      onlyKeys(t, ['body', 'preview_url'], 'text');
      return { type, text: required(t.body, "text['body']", { max: MAX_TEXT_BODY }) };
    }
    case 'interactive': {
      const parsed = interactive(part);
      return { type, text: parsed.body, interactive: parsed };
    }
    case 'template': {
      const t = object(part, 'template');
      onlyKeys(t, ['name', 'language', 'components'], 'template');
      const language = object(t.language, "template['language']");
      return {
        type,
        text: required(t.name, "template['name']"),
        template: {
          name: required(t.name, "template['name']"),
          language: required(language.code, "template['language']['code']"),
        },
      };
    }
    case 'reaction': {
      const r = object(part, 'reaction');
      onlyKeys(r, ['message_id', 'emoji'], 'reaction');
      return {
        type,
        reaction: {
          messageId: required(r.message_id, "reaction['message_id']"),
          emoji: typeof r.emoji === 'string' ? r.emoji : '',
        },
      };
    }
    case 'location':
      object(part, 'location');
      return { type };
    case 'contacts':
      if (!Array.isArray(part) || part.length === 0) throw invalidParameter('The parameter contacts is required.');
      return { type };
    default: {
      const m = media(type, part);
      return { type, ...(m.caption ? { text: m.caption } : {}), media: m };
    }
  }
}

function readCall(body: Json): SendRequest {
  onlyKeys(body, ['messaging_product', 'status', 'message_id', 'typing_indicator'], '<root>');
  const messageId = required(body.message_id, 'message_id');
  if (body.typing_indicator === undefined) return { kind: 'read', messageId, typing: false };
  const typing = object(body.typing_indicator, 'typing_indicator');
  onlyKeys(typing, ['type'], 'typing_indicator');
  if (typing.type !== 'text')
    throw invalidParameter(`Param typing_indicator['type'] must be one of {TEXT} - got "${String(typing.type)}".`);
  return { kind: 'read', messageId, typing: true };
}

/** Parses a messages body as Meta does, or throws the error Meta would answer. */
export function parseSendRequest(raw: unknown): SendRequest {
  const body = object(raw, '<root>');
  if (body.messaging_product === undefined) throw invalidParameter('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp')
    throw invalidParameter(
      `Param messaging_product must be one of {WHATSAPP} - got "${String(body.messaging_product)}".`,
    );
  if (body.status !== undefined) {
    if (body.status !== 'read')
      throw invalidParameter(`Param status must be one of {READ} - got "${String(body.status)}".`);
    return readCall(body);
  }
  // Meta's `type` is optional and means text when absent.
  const type = body.type === undefined ? 'text' : body.type;
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type))
    throw invalidParameter(`Param type "${String(type)}" is not a valid message type.`);
  onlyKeys(body, [...ENVELOPE_KEYS, type], '<root>');
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    throw invalidParameter(`Param recipient_type must be one of {INDIVIDUAL} - got "${String(body.recipient_type)}".`);
  }
  // A user known only by their BSUID (a username, no number) is written with `recipient`; `to` wins when both are given.
  if (body.to === undefined && body.recipient !== undefined) {
    const recipient = required(body.recipient, 'recipient');
    if (!BSUID.test(recipient))
      throw invalidParameter(`Param recipient "${recipient}" is not a valid business-scoped user ID.`);
    return { kind: 'message', to: recipient, content: { ...content(type, body), ...replyContext(body) } };
  }
  const to = required(body.to, 'to').replace(/[\s+()-]/g, '');
  if (!/^\d{6,15}$/.test(to))
    throw invalidParameter(`Param to "${String(body.to)}" is not a valid WhatsApp phone number.`);
  return { kind: 'message', to, content: { ...content(type, body), ...replyContext(body) } };
}

function replyContext(body: Record<string, unknown>): { replyTo?: string } {
  if (body.context === undefined) return {};
  const context = object(body.context, 'context');
  onlyKeys(context, ['message_id'], 'context');
  return { replyTo: required(context.message_id, "context['message_id']") };
}
