/**
 * Meta's rules for a `POST /{phone-number-id}/messages` body (/work/shared/notes/whatsapp-cloud.md,
 * "Sending"): either a message (text, interactive, media, template, reaction, location, contacts)
 * or the read call (`status: "read"`, with the typing indicator). Unknown keys are refused as
 * Meta refuses them ("Unexpected key"), which is how an `edit` is refused: the Cloud API has none.
 * Length errors name the parameter in Meta's notation (`text['body']`).
 */
import { CloudApiError, META_CODES, invalidParameter, notValid } from './errors.js';

/** Meta's text-messages page: body up to 4,096 characters. */
export const MAX_TEXT_BODY = 4096;
/** Reply buttons (copy of Meta's interactive reply buttons page): 3 buttons, titles 20, ids 256, body 1,024. */
export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;
export const MAX_BUTTON_ID = 256;
export const MAX_BUTTON_BODY = 1024;
/** List messages (copy of Meta's list messages page): 10 sections, 10 rows in all, button 20, row title 24, description 72, row id 200. */
export const MAX_LIST_SECTIONS = 10;
export const MAX_LIST_ROWS = 10;
export const MAX_LIST_BUTTON = 20;
export const MAX_ROW_TITLE = 24;
export const MAX_ROW_DESCRIPTION = 72;
export const MAX_ROW_ID = 200;
/** A list's body may be as long as a text message (Meta's list messages page). */
export const MAX_LIST_BODY = 4096;
/** Header and footer text of interactive messages. */
export const MAX_HEADER = 60;
export const MAX_FOOTER = 60;

/**
 * Meta counts characters, not UTF-16 units: an emoji is one. The fake counts code points, so a
 * 4,096-emoji text passes here as it does there.
 */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export interface InteractiveContent {
  type: 'button' | 'list';
  header?: string;
  body: string;
  footer?: string;
  /** Reply buttons, in order. */
  buttons?: { id: string; title: string }[];
  /** A list's button label. */
  button?: string;
  sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
}

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
  | { kind: 'message'; to: string; content: MessageContent }
  | { kind: 'read'; messageId: string; typing: boolean };

type Json = Record<string, unknown>;

const MEDIA_TYPES = new Set(['image', 'audio', 'video', 'document', 'sticker']);
const MESSAGE_TYPES = new Set(['text', 'interactive', 'template', 'reaction', 'location', 'contacts', ...MEDIA_TYPES]);
const ENVELOPE_KEYS = ['messaging_product', 'recipient_type', 'to', 'type', 'context', 'biz_opaque_callback_data'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, name: string): Json {
  if (value === undefined) throw invalidParameter(`The parameter ${name} is required.`);
  if (!isObject(value)) throw invalidParameter(`Param ${name} must be an object.`);
  return value;
}

function onlyKeys(value: Json, allowed: readonly string[], name: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalidParameter(`Unexpected key "${key}" on param "${name}".`);
  }
}

/** `error`: which code a broken rule answers (100 for the message's own fields, 131009 for interactive ones). */
function text(value: unknown, name: string, options: { max?: number; optional?: boolean; error?: (details: string) => CloudApiError } = {}): string | undefined {
  const fail = options.error ?? invalidParameter;
  if (value === undefined && options.optional) return undefined;
  if (value === undefined || value === '') throw fail(`The parameter ${name} is required.`);
  if (typeof value !== 'string') throw fail(`Param ${name} must be a string.`);
  if (options.max !== undefined && characters(value) > options.max) throw fail(`Param ${name} must be at most ${options.max} characters long.`);
  return value;
}

function required(value: unknown, name: string, options: { max?: number } = {}): string {
  return text(value, name, options) as string;
}

/** Interactive limits (and missing interactive texts) answer 131009, as the brief and Meta's pages have it. */
function limited(value: unknown, name: string, max: number): string {
  return text(value, name, { max, error: notValid }) as string;
}

function optionalHeaderOrFooter(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  const part = object(value, name);
  if (name.endsWith("['footer']")) {
    onlyKeys(part, ['text'], name);
    return limited(part.text, `${name}['text']`, MAX_FOOTER);
  }
  onlyKeys(part, ['type', 'text', 'image', 'video', 'document'], name);
  if (part.type === 'text') return limited(part.text, `${name}['text']`, MAX_HEADER);
  if (typeof part.type === 'string' && MEDIA_TYPES.has(part.type)) return undefined;
  throw invalidParameter(`Param ${name}['type'] must be one of {TEXT, IMAGE, VIDEO, DOCUMENT}.`);
}

function buttons(action: Json): InteractiveContent['buttons'] {
  onlyKeys(action, ['buttons'], "interactive['action']");
  const list = action.buttons;
  if (!Array.isArray(list) || list.length === 0) throw notValid("The parameter interactive['action']['buttons'] is required (1 to 3 buttons).");
  if (list.length > MAX_BUTTONS) throw notValid(`Param interactive['action']['buttons'] must have at most ${MAX_BUTTONS} elements; it has ${list.length}.`);
  const parsed = list.map((entry, index) => {
    const name = `interactive['action']['buttons'][${index}]`;
    const button = object(entry, name);
    onlyKeys(button, ['type', 'reply'], name);
    if (button.type !== 'reply') throw notValid(`Param ${name}['type'] must be "reply".`);
    const reply = object(button.reply, `${name}['reply']`);
    onlyKeys(reply, ['id', 'title'], `${name}['reply']`);
    return { id: limited(reply.id, `${name}['reply']['id']`, MAX_BUTTON_ID), title: limited(reply.title, `${name}['reply']['title']`, MAX_BUTTON_TITLE) };
  });
  if (new Set(parsed.map((b) => b.title)).size !== parsed.length) throw notValid('Buttons must have unique titles.');
  if (new Set(parsed.map((b) => b.id)).size !== parsed.length) throw notValid('Buttons must have unique ids.');
  return parsed;
}

function sections(action: Json): Pick<InteractiveContent, 'button' | 'sections'> {
  onlyKeys(action, ['button', 'sections'], "interactive['action']");
  const button = limited(action.button, "interactive['action']['button']", MAX_LIST_BUTTON);
  const list = action.sections;
  if (!Array.isArray(list) || list.length === 0) throw notValid("The parameter interactive['action']['sections'] is required.");
  if (list.length > MAX_LIST_SECTIONS) throw notValid(`Param interactive['action']['sections'] must have at most ${MAX_LIST_SECTIONS} elements.`);
  const parsed = list.map((entry, s) => {
    const name = `interactive['action']['sections'][${s}]`;
    const section = object(entry, name);
    onlyKeys(section, ['title', 'rows'], name);
    // Meta: a section title is required once there is more than one section.
    const title = list.length > 1 ? limited(section.title, `${name}['title']`, MAX_ROW_TITLE) : section.title === undefined ? undefined : limited(section.title, `${name}['title']`, MAX_ROW_TITLE);
    if (!Array.isArray(section.rows) || section.rows.length === 0) throw notValid(`The parameter ${name}['rows'] is required.`);
    const rows = section.rows.map((rowEntry, r) => {
      const rowName = `${name}['rows'][${r}]`;
      const row = object(rowEntry, rowName);
      onlyKeys(row, ['id', 'title', 'description'], rowName);
      const description = row.description === undefined ? undefined : limited(row.description, `${rowName}['description']`, MAX_ROW_DESCRIPTION);
      return { id: limited(row.id, `${rowName}['id']`, MAX_ROW_ID), title: limited(row.title, `${rowName}['title']`, MAX_ROW_TITLE), ...(description !== undefined ? { description } : {}) };
    });
    return { ...(title !== undefined ? { title } : {}), rows };
  });
  const rows = parsed.flatMap((s) => s.rows);
  if (rows.length > MAX_LIST_ROWS) throw notValid(`A list message may have at most ${MAX_LIST_ROWS} rows in all sections; it has ${rows.length}.`);
  if (new Set(rows.map((r) => r.id)).size !== rows.length) throw notValid('List rows must have unique ids.');
  return { button, sections: parsed };
}

function interactive(value: unknown): InteractiveContent {
  const body = object(value, 'interactive');
  onlyKeys(body, ['type', 'header', 'body', 'footer', 'action'], 'interactive');
  if (body.type !== 'button' && body.type !== 'list') {
    throw notValid(`Param interactive['type'] "${String(body.type)}" is not one the fake models (button, list).`);
  }
  const header = optionalHeaderOrFooter(body.header, "interactive['header']");
  const footer = optionalHeaderOrFooter(body.footer, "interactive['footer']");
  const bodyPart = object(body.body, "interactive['body']");
  onlyKeys(bodyPart, ['text'], "interactive['body']");
  const action = object(body.action, "interactive['action']");
  const content: InteractiveContent = {
    type: body.type,
    body: limited(bodyPart.text, "interactive['body']['text']", body.type === 'button' ? MAX_BUTTON_BODY : MAX_LIST_BODY),
    ...(header !== undefined ? { header } : {}),
    ...(footer !== undefined ? { footer } : {}),
  };
  return body.type === 'button' ? { ...content, buttons: buttons(action) } : { ...content, ...sections(action) };
}

function media(type: string, value: unknown): NonNullable<MessageContent['media']> {
  const body = object(value, type);
  const allowed = ['id', 'link', ...(type === 'audio' || type === 'sticker' ? [] : ['caption']), ...(type === 'document' ? ['filename'] : [])];
  onlyKeys(body, allowed, type);
  if ((body.id === undefined) === (body.link === undefined)) throw invalidParameter(`Param ${type} must have exactly one of ${type}['id'] or ${type}['link'].`);
  const id = text(body.id, `${type}['id']`, { optional: true });
  const link = text(body.link, `${type}['link']`, { optional: true });
  const caption = text(body.caption, `${type}['caption']`, { optional: true, max: MAX_BUTTON_BODY });
  const filename = text(body.filename, `${type}['filename']`, { optional: true });
  return { ...(id ? { id } : {}), ...(link ? { link } : {}), ...(caption ? { caption } : {}), ...(filename ? { filename } : {}) };
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
      return { type, text: required(t.name, "template['name']"), template: { name: required(t.name, "template['name']"), language: required(language.code, "template['language']['code']") } };
    }
    case 'reaction': {
      const r = object(part, 'reaction');
      onlyKeys(r, ['message_id', 'emoji'], 'reaction');
      return { type, reaction: { messageId: required(r.message_id, "reaction['message_id']"), emoji: typeof r.emoji === 'string' ? r.emoji : '' } };
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
  if (typing.type !== 'text') throw invalidParameter(`Param typing_indicator['type'] must be one of {TEXT} - got "${String(typing.type)}".`);
  return { kind: 'read', messageId, typing: true };
}

/** Parses a messages body as Meta does, or throws the error Meta would answer. */
export function parseSendRequest(raw: unknown): SendRequest {
  const body = object(raw, '<root>');
  if (body.messaging_product === undefined) throw invalidParameter('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp') throw invalidParameter(`Param messaging_product must be one of {WHATSAPP} - got "${String(body.messaging_product)}".`);
  if (body.status !== undefined) {
    if (body.status !== 'read') throw invalidParameter(`Param status must be one of {READ} - got "${String(body.status)}".`);
    return readCall(body);
  }
  // Meta's `type` is optional and means text when absent.
  const type = body.type === undefined ? 'text' : body.type;
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type)) throw invalidParameter(`Param type "${String(type)}" is not a valid message type.`);
  onlyKeys(body, [...ENVELOPE_KEYS, type], '<root>');
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    throw invalidParameter(`Param recipient_type must be one of {INDIVIDUAL} - got "${String(body.recipient_type)}".`);
  }
  const to = required(body.to, 'to').replace(/[\s+()-]/g, '');
  if (!/^\d{6,15}$/.test(to)) throw new CloudApiError(META_CODES.invalidParameter, `Param to "${String(body.to)}" is not a valid WhatsApp phone number.`);
  let replyTo: string | undefined;
  if (body.context !== undefined) {
    const context = object(body.context, 'context');
    onlyKeys(context, ['message_id'], 'context');
    replyTo = required(context.message_id, "context['message_id']");
  }
  return { kind: 'message', to, content: { ...content(type, body), ...(replyTo ? { replyTo } : {}) } };
}
