/**
 * whatsapp-web.js `message` → the core's `Inbound`, or the reason it is not answered.
 * Private chats (`@c.us`, `@lid`): every message. Groups (`@g.us`): a message that
 * mentions the bot's number or replies to one of the bot's messages. Never: the bot's own
 * messages, status updates, broadcasts, channels, reactions, revoked messages and
 * WhatsApp's system notices. A duplicate delivery carries the same `id._serialized`, which
 * the core dedupes on. A message that replies to another carries it as `quoted`: the bot's
 * own (an answer, a listing) or someone's, with their name when WhatsApp Web knows it.
 */
import {
  textForCore,
  type CommandWords,
  type Inbound,
  type InboundAttachment,
  type PlatformUser,
  type QuotedMessage,
} from '../../src/contract.js';
import { chatKind, conversationId, userPart } from './conversation.js';
import type { WaMessage, WaMessageType } from './library.js';
import { isMediaType, mediaAttachment, rawFacts, unreadableAttachment } from './media.js';

/** Who the bot is on WhatsApp (`client.info.wid` after `ready`). */
export interface WhatsAppIdentity {
  /** e.g. "4915112345678@c.us". */
  wid: string;
  /** The same without the server, e.g. "4915112345678": how a mention shows in the text. */
  user: string;
}

export interface InboundContext {
  bot: string;
  identity: WhatsAppIdentity;
  words: CommandWords;
}

/** A user's text message. */
const TEXT_TYPES = new Set<WaMessageType>(['chat']);
/**
 * What a user sends that the chatbot cannot read and that has no file: answered with what
 * it can take instead. Anything not listed here or above (system notices, reactions,
 * revoked messages, call logs, types WhatsApp adds later) is not answered at all.
 */
const UNREADABLE_TYPES = new Set<WaMessageType>([
  'location',
  'vcard',
  'multi_vcard',
  'poll_creation',
  'event_creation',
  'groups_v4_invite',
  'product',
  'order',
  'payment',
  'list',
  'buttons_response',
  'list_response',
]);

export type Ignored = { ignored: string };

/** Why a message is not a question for the bot, or undefined when it may be one (groups still check addressing). */
export function ignoredReason(message: WaMessage): string | undefined {
  if (message.fromMe) return 'own message';
  if (message.isStatus) return 'status update';
  if (message.broadcast) return 'broadcast';
  if (chatKind(message.from) === 'not-answered') return `not a private chat or group (${message.from})`;
  const type = message.type;
  if (type === 'revoked') return 'revoked';
  if (!TEXT_TYPES.has(type) && !isMediaType(type) && !UNREADABLE_TYPES.has(type)) return `message type "${type}"`;
  return undefined;
}

/** A mentioned id as text; WhatsApp Web has handed them over as objects too (`{ _serialized }`), so both are read. */
function idText(id: unknown): string {
  if (typeof id === 'string') return id;
  const serialized = (id as { _serialized?: unknown } | null)?._serialized;
  return typeof serialized === 'string' ? serialized : '';
}

function mentionsBot(message: WaMessage, identity: WhatsAppIdentity): boolean {
  return (message.mentionedIds ?? []).map(idText).some((id) => id === identity.wid || userPart(id) === identity.user);
}

/** The message this one replies to; undefined when it replies to none, or to one that is gone (deleted, not loaded). */
async function repliedTo(message: WaMessage): Promise<WaMessage | undefined> {
  if (!message.hasQuotedMsg) return undefined;
  // The library resolves undefined, or throws, when WhatsApp Web no longer has the quoted message.
  return (await message.getQuotedMessage().catch(() => undefined)) ?? undefined;
}

/** Text a user typed: a text message's body, a media message's caption; anything else's body is not text. */
function readsAsText(type: WaMessageType): boolean {
  return TEXT_TYPES.has(type) || isMediaType(type);
}

function quotedOf(quoted: WaMessage): QuotedMessage {
  const text = readsAsText(quoted.type) ? (quoted.body ?? '').trim() : '';
  if (quoted.fromMe) return { text, from: 'bot' };
  const { notifyName } = rawFacts(quoted);
  return { text, from: 'user', ...(notifyName ? { author: notifyName } : {}) };
}

/** `@4915112345678 what is…` → `what is…`: the bot's own mention is not part of the question. */
function withoutOwnMention(text: string, identity: WhatsAppIdentity): string {
  return text
    .replaceAll(`@${identity.user}`, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

export function userOf(message: WaMessage, group: boolean): PlatformUser {
  const id = group ? (message.author ?? message.from) : message.from;
  const { notifyName } = rawFacts(message);
  return { id, ...(notifyName ? { name: notifyName } : {}) };
}

function attachmentsOf(message: WaMessage): InboundAttachment[] {
  if (isMediaType(message.type)) return [mediaAttachment(message)];
  if (UNREADABLE_TYPES.has(message.type)) return [unreadableAttachment(message.type)];
  return [];
}

/**
 * `body`: the text to read instead of the message's own (an edit's new text, which the edited
 * message may not show yet).
 */
export async function messageToInbound(
  message: WaMessage,
  context: InboundContext,
  options: { body?: string } = {},
): Promise<Inbound | Ignored> {
  const ignored = ignoredReason(message);
  if (ignored) return { ignored };
  const group = chatKind(message.from) === 'group';
  const quoted = await repliedTo(message);
  const addressed = !group || mentionsBot(message, context.identity) || quoted?.fromMe === true;
  const attachments = attachmentsOf(message);
  const isText = TEXT_TYPES.has(message.type);
  // A media message's body is its caption; an unreadable one's body is not text the user typed.
  const typed = readsAsText(message.type) ? (options.body ?? message.body ?? '') : '';
  const text = group ? withoutOwnMention(typed, context.identity) : typed.trim();
  return {
    conversation: { bot: context.bot, platform: 'whatsapp', id: conversationId(message.from) },
    user: userOf(message, group),
    // A caption is never a command: "help" under a photo is a question about the photo.
    text: isText ? textForCore(text, context.words) : text,
    attachments,
    isGroup: group,
    addressed,
    platformMessageId: message.id._serialized,
    sentAt: message.timestamp * 1000,
    ...(quoted ? { quoted: quotedOf(quoted) } : {}),
  };
}

export function isIgnored(result: Inbound | Ignored): result is Ignored {
  return 'ignored' in result;
}
