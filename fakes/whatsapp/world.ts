/**
 * The fake WhatsApp: the bot's number, the devices (clients) that connect to it, the
 * users and their chats, media, and WhatsApp's rules (65,536 characters, edits only of
 * our own text within the edit window, typing for 25 s). Tests drive it from the user's
 * side and read what the user sees; the fake library reaches it through server.ts.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { Hello, HelloAnswer, MediaData, MessageData, WorldEvent } from './protocol.js';
import { SESSION_CLOSED } from './protocol.js';

/** WhatsApp Web fails to send a text longer than this. */
export const MAX_TEXT_LENGTH = 65_536;
/** "typing…" disappears this long after sendStateTyping. */
export const TYPING_MS = 25_000;
/** WhatsApp's largest photo, video or audio sent as media; a larger file goes only as a document. */
export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;
/** WhatsApp's largest document. */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

export interface WorldOptions {
  /** The bot's number, digits only. Default '15550001111'. */
  number?: string;
  /** The bot's WhatsApp name (`info.pushname`). Default 'Chatbridge'. */
  pushname?: string;
  /** A new QR (or pairing code) every this many ms while a client waits to be linked. Default 20,000 (as WhatsApp Web). */
  qrIntervalMs?: number;
  /** Edits of a message older than this are refused (null). Default 15 minutes. */
  editWindowMs?: number;
  /** The world's clock (ms). Default Date.now. */
  now?: () => number;
}

/** One connected client (a linked device, or one waiting to be linked), as the world sees it. */
export interface ClientPort {
  push(event: WorldEvent, args: unknown[]): void;
}

export type ClientState = 'connecting' | 'waiting-for-qr' | 'waiting-for-code' | 'ready' | 'closed';

export interface ClientView {
  id: number;
  state: ClientState;
  /** The code a user would type on the phone, when linking by pairing code. */
  pairingCode?: string;
  qr?: string;
}

interface Connection extends ClientView {
  port: ClientPort;
  /** The session it runs on, once linked. */
  token?: string;
  timer?: NodeJS.Timeout;
}

export interface LoggedCall {
  method: string;
  chat?: string;
  /** The world's clock (ms). */
  at: number;
  client: number;
}

export interface UserMedia {
  bytes: Uint8Array;
  mimetype: string;
  filename?: string;
  /** The size WhatsApp announces before the download (`rawData.size`); default the bytes' length. */
  declaredSize?: number;
  /** Seconds, for audio and video. */
  duration?: number;
  /** downloadMedia() resolves null (WhatsApp no longer has the file). */
  expired?: boolean;
  /** downloadMedia() resolves undefined (the download failed). */
  failDownload?: boolean;
}

export interface UserMessageInput {
  /** The sender's number (digits) or id (`…@c.us`, `…@lid`). Default '4915112345678'. */
  from?: string;
  /** A group id (`…@g.us`, or digits): the message is written in that group. */
  group?: string;
  /** Another chat: 'status@broadcast', a newsletter (`…@newsletter`). */
  chat?: string;
  /** The text, or the media's caption. */
  text?: string;
  /** Default 'chat', or from the media's type ('image', 'video', 'audio', 'document'); give 'ptt' or 'sticker' explicitly. */
  type?: string;
  media?: UserMedia;
  /** Mention the bot's number (adds it to mentionedIds and `@<number>` to the text). */
  mentionsBot?: boolean;
  mentionedIds?: string[];
  /** Reply to this message (its id `_serialized`). */
  quoting?: string;
  /** The sender's name (`rawData.notifyName`). Default 'Test User'. */
  name?: string;
  /** Default a random id like WhatsApp's ('3EB0…'). */
  id?: string;
}

interface StoredMessage {
  data: MessageData;
  /** Every text this message showed, in order (edits appended). */
  texts: string[];
  media?: MediaData;
  expired?: boolean;
  failDownload?: boolean;
  quoted?: string;
  sentAt: number;
}

interface ChatRecord {
  messages: StoredMessage[];
  typingUntil: number;
  seen: boolean;
}

export class World extends EventEmitter {
  readonly number: string;
  readonly pushname: string;
  readonly qrIntervalMs: number;
  editWindowMs: number;
  readonly now: () => number;

  private readonly connections = new Map<number, Connection>();
  private nextClientId = 1;
  private readonly validTokens = new Set<string>();
  private refusingSessions = false;
  private readonly chats = new Map<string, ChatRecord>();
  private readonly byId = new Map<string, StoredMessage>();
  private readonly log: LoggedCall[] = [];
  private unreachable = false;
  /** What happened while the page was unreachable, delivered when it comes back. */
  private pending: { event: WorldEvent; args: unknown[] }[] = [];
  private getStateHangs = false;
  private refuseEdits = 0;

  constructor(options: WorldOptions = {}) {
    super();
    this.number = options.number ?? '15550001111';
    this.pushname = options.pushname ?? 'Chatbridge';
    this.qrIntervalMs = options.qrIntervalMs ?? 20_000;
    this.editWindowMs = options.editWindowMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  get botId(): string {
    return `${this.number}@c.us`;
  }

  changed(): void {
    this.emit('change');
  }

  // ---- devices -------------------------------------------------------------------

  connect(port: ClientPort): number {
    const id = this.nextClientId++;
    this.connections.set(id, { id, state: 'connecting', port });
    this.changed();
    return id;
  }

  /** The socket closed (destroy, or the process died): the device is gone, its session stays. */
  disconnectPort(id: number): void {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.close(connection);
  }

  clients(): ClientView[] {
    return [...this.connections.values()].map(({ id, state, pairingCode, qr }) => ({ id, state, pairingCode, qr }));
  }

  /** Clients linked to the number and ready now. */
  linkedClients(): ClientView[] {
    return this.clients().filter((client) => client.state === 'ready');
  }

  hello(id: number, hello: Hello): HelloAnswer {
    const connection = this.requireConnection(id);
    if (hello.token !== undefined) {
      if (this.refusingSessions || !this.validTokens.has(hello.token)) {
        this.close(connection);
        return { refused: 'Unable to restore the session: WhatsApp no longer accepts this linked device' };
      }
      // WhatsApp Web open with the same session elsewhere: the older page gets CONFLICT.
      for (const other of this.connections.values()) {
        if (other.state === 'ready' && other.token === hello.token) this.drop(other, 'CONFLICT');
      }
      connection.state = 'ready';
      connection.token = hello.token;
      this.changed();
      return { linked: { number: this.number, pushname: this.pushname, token: hello.token } };
    }
    if (hello.pairPhone !== undefined) this.startPairing(connection);
    else this.startQr(connection);
    return { waiting: true };
  }

  /** The phone scans the QR shown by a waiting client (the one waiting longest, or `client`); returns the client linked. */
  scanQr(options: { client?: number } = {}): number {
    const connection = [...this.connections.values()].find(
      (c) => c.state === 'waiting-for-qr' && (options.client === undefined || c.id === options.client),
    );
    if (!connection) throw new Error('fake WhatsApp: scanQr: no client is showing a QR');
    this.link(connection);
    return connection.id;
  }

  /** The user types a pairing code on the phone; returns the client linked. */
  enterPairingCode(code: string): number {
    const connection = [...this.connections.values()].find(
      (c) => c.state === 'waiting-for-code' && c.pairingCode === code,
    );
    if (!connection) throw new Error(`fake WhatsApp: enterPairingCode: no client shows the code ${code}`);
    this.link(connection);
    return connection.id;
  }

  /**
   * WhatsApp drops the linked devices: every client gets `disconnected(reason)` and is
   * unusable. 'LOGOUT' (the phone removed the device) also makes the stored session invalid.
   */
  disconnect(reason: string): void {
    if (reason === 'LOGOUT') this.validTokens.clear();
    for (const connection of this.connections.values()) {
      if (connection.state !== 'closed') this.drop(connection, reason);
    }
  }

  private drop(connection: Connection, reason: string): void {
    // As WhatsApp Web: a state change (CONFLICT, UNPAIRED…) is announced before the client gives up; a logout is not.
    if (reason !== 'LOGOUT') connection.port.push('change_state', [reason]);
    connection.port.push('disconnected', [reason]);
    this.close(connection);
  }

  /** From now on a stored session is refused (the client emits auth_failure). */
  refuseSession(): void {
    this.refusingSessions = true;
    this.validTokens.clear();
    this.changed();
  }

  /** The page or the browser connection is gone: every call fails, nothing is delivered. */
  goUnreachable(): void {
    this.unreachable = true;
    this.changed();
  }

  comeBack(): void {
    this.unreachable = false;
    const pending = this.pending;
    this.pending = [];
    for (const { event, args } of pending) this.deliverEvent(event, args);
    this.changed();
  }

  /** getState() never answers while on (a hung page), to test a watchdog. */
  hangGetState(on = true): void {
    this.getStateHangs = on;
  }

  /** The next `times` edits resolve null, as when WhatsApp Web says the message cannot be edited. */
  refuseNextEdit(times = 1): void {
    this.refuseEdits += times;
  }

  // ---- users -------------------------------------------------------------------------

  userSends(input: UserMessageInput): MessageData {
    const sender = toUserId(input.from ?? '4915112345678');
    const chat = input.chat ?? (input.group !== undefined ? toGroupId(input.group) : sender);
    // In a group and on status, `from` is the chat and `author` the person.
    const inGroup = chat.endsWith('@g.us') || chat === 'status@broadcast';
    const type = input.type ?? (input.media ? mediaType(input.media.mimetype) : 'chat');
    const mentionedIds = [...(input.mentionedIds ?? []), ...(input.mentionsBot ? [this.botId] : [])];
    const text = input.mentionsBot ? `@${this.number} ${input.text ?? ''}`.trim() : (input.text ?? '');
    const messageId = input.id ?? randomId();
    const quoted = input.quoting !== undefined ? this.byId.get(input.quoting) : undefined;
    if (input.quoting !== undefined && !quoted)
      throw new Error(`fake WhatsApp: userSends: no message ${input.quoting} to reply to`);
    const rawData: Record<string, unknown> = {
      notifyName: input.name ?? 'Test User',
      t: Math.floor(this.now() / 1000),
    };
    if (input.media) {
      rawData.size = input.media.declaredSize ?? input.media.bytes.length;
      rawData.mimetype = input.media.mimetype;
      if (input.media.filename !== undefined) rawData.filename = input.media.filename;
    }
    const data: MessageData = {
      id: {
        _serialized: `false_${chat}_${messageId}${inGroup ? `_${sender}` : ''}`,
        fromMe: false,
        remote: chat,
        id: messageId,
      },
      body: text,
      type,
      from: chat,
      to: this.botId,
      ...(inGroup ? { author: sender } : {}),
      fromMe: false,
      hasMedia: input.media !== undefined,
      hasQuotedMsg: quoted !== undefined,
      isStatus: chat === 'status@broadcast',
      broadcast: chat.endsWith('@broadcast'),
      timestamp: Math.floor(this.now() / 1000),
      duration: input.media?.duration !== undefined ? String(input.media.duration) : (undefined as unknown as string),
      mentionedIds,
      rawData,
    };
    const stored: StoredMessage = { data, texts: [text], sentAt: this.now() };
    if (input.media) {
      stored.media = {
        mimetype: input.media.mimetype,
        data: Buffer.from(input.media.bytes).toString('base64'),
        filename: input.media.filename ?? null,
        filesize: input.media.bytes.length,
      };
      stored.expired = input.media.expired;
      stored.failDownload = input.media.failDownload;
    }
    if (quoted) stored.quoted = quoted.data.id._serialized;
    this.store(chat, stored);
    this.deliver(data);
    return data;
  }

  /**
   * The user edits a message of theirs (its text, or a media message's caption): its body changes and
   * every ready client gets `message_edit(message, newBody, prevBody)`, the message under its own id.
   */
  userEdits(messageId: string, text: string): MessageData {
    const stored = this.byId.get(messageId);
    if (!stored) throw new Error(`fake WhatsApp: userEdits: no message ${messageId}`);
    if (stored.data.fromMe) throw new Error('fake WhatsApp: userEdits: a user edits only their own messages');
    if (stored.data.type !== 'chat' && !stored.data.hasMedia)
      throw new Error(`fake WhatsApp: userEdits: a ${stored.data.type} message has no text to edit`);
    if (this.now() - stored.sentAt > this.editWindowMs)
      throw new Error('fake WhatsApp: userEdits: past the edit window, WhatsApp offers no edit');
    const previous = stored.data.body;
    stored.data = { ...stored.data, body: text };
    stored.texts.push(text);
    this.changed();
    this.deliverEvent('message_edit', [stored.data, text, previous]);
    return stored.data;
  }

  /**
   * The user deletes a message of theirs for everyone. As whatsapp-web.js 1.34 emits it,
   * `message_revoke_everyone(message, revoked)`: `message` is the revoked one (type 'revoked', no body,
   * an id of its own, the original's in `protocolMessageKey`), `revoked` the message as it was, under its
   * original id; `withoutBefore` leaves that out (null), as the library does when it missed the original.
   */
  userRevokes(messageId: string, options: { withoutBefore?: boolean } = {}): MessageData {
    const stored = this.byId.get(messageId);
    if (!stored) throw new Error(`fake WhatsApp: userRevokes: no message ${messageId}`);
    if (stored.data.fromMe) throw new Error('fake WhatsApp: userRevokes: a user deletes only their own messages');
    const before = stored.data;
    const revokeId = randomId();
    const after: MessageData = {
      ...before,
      id: { ...before.id, id: revokeId, _serialized: before.id._serialized.replace(before.id.id, revokeId) },
      body: '',
      type: 'revoked',
      hasMedia: false,
      hasQuotedMsg: false,
      protocolMessageKey: before.id,
    };
    stored.data = { ...before, body: '', type: 'revoked', hasMedia: false };
    this.changed();
    this.deliverEvent('message_revoke_everyone', [after, options.withoutBefore ? null : before]);
    return after;
  }

  /** WhatsApp delivers the same message again (same id). */
  redeliver(message: MessageData): void {
    this.deliver(message);
  }

  /** The file of a message is gone (downloadMedia resolves null). */
  expireMedia(messageId: string): void {
    const stored = this.byId.get(messageId);
    if (!stored) throw new Error(`fake WhatsApp: expireMedia: no message ${messageId}`);
    stored.expired = true;
  }

  // ---- what the user sees ------------------------------------------------------------

  /** The bot's texts in the chat now, oldest first, edits applied (captions of media included). */
  screen(chat: string): string[] {
    return this.botMessages(chat).map((m) => m.data.body);
  }

  /** Every text the bot showed in the chat over time: each message, then each edit, in order. */
  renders(chat: string): string[] {
    return this.renderLog.filter((r) => r.chat === chat).map((r) => r.text);
  }

  /** Media the bot sent in the chat; `type` is how the user sees it ('image', 'video', 'document', 'ptt'…). */
  sentMedia(chat: string): Array<MediaData & { caption: string; asVoice: boolean; type: string }> {
    return this.botMessages(chat)
      .filter((m) => m.media)
      .map((m) => ({
        ...(m.media as MediaData),
        caption: m.data.body,
        asVoice: m.data.type === 'ptt',
        type: m.data.type,
      }));
  }

  /** The bot's messages in the chat (data as the library would return them). */
  botMessages(chat: string): Array<{ data: MessageData; texts: string[]; media?: MediaData }> {
    return (this.chats.get(chat)?.messages ?? []).filter((m) => m.data.fromMe);
  }

  /** Is "typing…" shown in the chat now. */
  typing(chat: string): boolean {
    return (this.chats.get(chat)?.typingUntil ?? 0) > this.now();
  }

  /** Was the chat marked seen by the bot since the user's last message. */
  seen(chat: string): boolean {
    return this.chats.get(chat)?.seen ?? false;
  }

  /** Every call a client made, in order (for benchmarks: edits per answer, time to first text). */
  calls(): LoggedCall[] {
    return [...this.log];
  }

  // ---- what a client calls -------------------------------------------------------

  /** Runs a client's call (server.ts): resolves its result, or rejects with WhatsApp Web's error. */
  async call(id: number, method: string, params: unknown[]): Promise<unknown> {
    const connection = this.requireConnection(id);
    if (this.unreachable) throw new Error(SESSION_CLOSED);
    if (connection.state === 'closed') throw new Error(SESSION_CLOSED);
    const chat = chatOf(method, params, this.byId);
    this.log.push({ method, chat, at: this.now(), client: id });
    this.changed();
    switch (method) {
      case 'getState':
        if (this.getStateHangs) return new Promise<never>(() => {});
        return connection.state === 'ready' ? 'CONNECTED' : 'UNPAIRED';
      case 'requestPairingCode':
        return this.startPairing(connection);
      case 'destroy':
        this.close(connection);
        return null;
    }
    if (connection.state !== 'ready')
      throw new Error(`fake WhatsApp: ${method} before the client is ready (wait for the 'ready' event)`);
    switch (method) {
      case 'sendMessage':
        return this.sendMessage(
          String(params[0]),
          params[1] as string | MediaData,
          (params[2] ?? {}) as Record<string, unknown>,
        );
      case 'edit':
        return this.edit(String(params[0]), String(params[1]));
      case 'downloadMedia':
        return this.downloadMedia(String(params[0]));
      case 'getMessageById':
        // Any message of the number's chats, whichever device sent it.
        return this.byId.get(String(params[0]))?.data ?? null;
      case 'getQuotedMessage': {
        const quoted = this.byId.get(String(params[0]))?.quoted;
        return quoted !== undefined ? (this.byId.get(quoted)?.data ?? null) : null;
      }
      case 'getChatById':
        return { id: { _serialized: String(params[0]) }, isGroup: String(params[0]).endsWith('@g.us') };
      case 'sendStateTyping':
        this.chat(String(params[0])).typingUntil = this.now() + TYPING_MS;
        this.changed();
        return null;
      case 'clearState':
        this.chat(String(params[0])).typingUntil = 0;
        this.changed();
        return true;
      case 'sendSeen':
        this.chat(String(params[0])).seen = true;
        this.changed();
        return true;
      default:
        throw new Error(`fake WhatsApp: the fake does not implement ${method}`);
    }
  }

  // ---- internals -----------------------------------------------------------------

  private readonly renderLog: Array<{ chat: string; text: string }> = [];

  private sendMessage(chatId: string, content: string | MediaData, options: Record<string, unknown>): MessageData {
    if (!/@(c\.us|g\.us|lid|broadcast|newsletter)$/.test(chatId))
      throw new Error(`Evaluation failed: Error: invalid wid: ${chatId}`);
    const isText = typeof content === 'string';
    const caption = isText ? content : String(options.caption ?? '');
    if (caption.length > MAX_TEXT_LENGTH) {
      throw new Error(
        `Evaluation failed: Error: message too long (${caption.length} characters; WhatsApp accepts ${MAX_TEXT_LENGTH})`,
      );
    }
    const type = isText
      ? 'chat'
      : options.sendAudioAsVoice === true && content.mimetype.startsWith('audio/')
        ? 'ptt'
        : options.sendMediaAsDocument === true
          ? 'document'
          : mediaType(content.mimetype);
    if (!isText) {
      const size = Buffer.byteLength(content.data, 'base64');
      // WhatsApp Web's upload fails with no useful words past its limits (wwebjs/whatsapp-web.js#18761: "Evaluation failed: a").
      if (size > (type === 'document' ? MAX_DOCUMENT_BYTES : MAX_MEDIA_BYTES)) throw new Error('Evaluation failed: a');
    }
    const messageId = randomId();
    const data: MessageData = {
      id: { _serialized: `true_${chatId}_${messageId}`, fromMe: true, remote: chatId, id: messageId },
      body: caption,
      type,
      from: this.botId,
      to: chatId,
      fromMe: true,
      hasMedia: !isText,
      hasQuotedMsg: false,
      isStatus: false,
      broadcast: false,
      timestamp: Math.floor(this.now() / 1000),
      duration: undefined as unknown as string,
      mentionedIds: [],
      rawData: isText ? {} : { size: Buffer.from(content.data, 'base64').length, mimetype: content.mimetype },
    };
    const stored: StoredMessage = { data, texts: [caption], sentAt: this.now() };
    if (!isText)
      stored.media = {
        mimetype: content.mimetype,
        data: content.data,
        filename: content.filename ?? null,
        filesize: Buffer.from(content.data, 'base64').length,
      };
    const record = this.chat(chatId);
    record.typingUntil = 0; // a message ends "typing…", as on a phone
    if (options.sendSeen !== false) record.seen = true;
    this.store(chatId, stored);
    this.renderLog.push({ chat: chatId, text: caption });
    this.changed();
    return data;
  }

  private edit(messageId: string, text: string): MessageData | null {
    const stored = this.byId.get(messageId);
    if (!stored || !stored.data.fromMe || stored.data.type !== 'chat') return null;
    if (this.now() - stored.sentAt > this.editWindowMs) return null;
    if (this.refuseEdits > 0) {
      this.refuseEdits -= 1;
      return null;
    }
    if (text.length > MAX_TEXT_LENGTH)
      throw new Error(
        `Evaluation failed: Error: message too long (${text.length} characters; WhatsApp accepts ${MAX_TEXT_LENGTH})`,
      );
    const previous = stored.data.body;
    stored.data = { ...stored.data, body: text };
    stored.texts.push(text);
    this.renderLog.push({ chat: stored.data.to, text });
    this.changed();
    // As WhatsApp Web: every change of a message's body is `message_edit`, the bot's own too.
    this.deliverEvent('message_edit', [stored.data, text, previous]);
    return stored.data;
  }

  private downloadMedia(messageId: string): MediaData | null | undefined {
    const stored = this.byId.get(messageId);
    if (!stored) return null;
    if (!stored.data.hasMedia) return undefined;
    if (stored.expired) return null;
    if (stored.failDownload) return undefined;
    return stored.media;
  }

  private store(chat: string, stored: StoredMessage): void {
    const record = this.chat(chat);
    if (!stored.data.fromMe) record.seen = false;
    record.messages.push(stored);
    this.byId.set(stored.data.id._serialized, stored);
    this.changed();
  }

  private deliver(message: MessageData): void {
    this.deliverEvent('message', [message]);
  }

  /** To every ready client, or once the page is reachable again. */
  private deliverEvent(event: WorldEvent, args: unknown[]): void {
    if (this.unreachable) {
      this.pending.push({ event, args });
      return;
    }
    for (const connection of this.connections.values()) {
      if (connection.state === 'ready') connection.port.push(event, args);
    }
  }

  private chat(chatId: string): ChatRecord {
    let record = this.chats.get(chatId);
    if (!record) {
      record = { messages: [], typingUntil: 0, seen: false };
      this.chats.set(chatId, record);
    }
    return record;
  }

  private startQr(connection: Connection): void {
    connection.state = 'waiting-for-qr';
    const random = (bytes: number): string => randomBytes(bytes).toString('base64');
    const show = (): void => {
      connection.qr = `2@${random(24)},${random(32)},${random(32)},${random(16)}`;
      connection.port.push('qr', [connection.qr]);
      this.changed();
    };
    show();
    connection.timer = setInterval(show, this.qrIntervalMs);
  }

  private startPairing(connection: Connection): string {
    clearInterval(connection.timer);
    connection.state = 'waiting-for-code';
    const show = (): void => {
      connection.pairingCode = randomBytes(8)
        .toString('hex')
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 8)
        .padEnd(8, 'X');
      connection.port.push('code', [connection.pairingCode]);
      this.changed();
    };
    show();
    connection.timer = setInterval(show, this.qrIntervalMs);
    return connection.pairingCode as string;
  }

  private link(connection: Connection): void {
    clearInterval(connection.timer);
    const token = randomBytes(16).toString('hex');
    this.validTokens.add(token);
    this.refusingSessions = false;
    connection.state = 'ready';
    connection.token = token;
    delete connection.qr;
    delete connection.pairingCode;
    connection.port.push('linked', [{ number: this.number, pushname: this.pushname, token }]);
    this.changed();
  }

  private close(connection: Connection): void {
    clearInterval(connection.timer);
    connection.state = 'closed';
    this.changed();
  }

  private requireConnection(id: number): Connection {
    const connection = this.connections.get(id);
    if (!connection) throw new Error(`fake WhatsApp: unknown client ${id}`);
    return connection;
  }

  /** Stops the QR timers (the fake is closing). */
  shutdown(): void {
    for (const connection of this.connections.values()) clearInterval(connection.timer);
  }
}

function toUserId(from: string): string {
  return from.includes('@') ? from : `${from}@c.us`;
}

function toGroupId(group: string): string {
  return group.includes('@') ? group : `${group}@g.us`;
}

function mediaType(mimetype: string): string {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'document';
}

/** WhatsApp Web's message ids look like '3EB0' + 16-20 hex digits. */
function randomId(): string {
  return `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
}

/** The chat a call is about, for the log. */
function chatOf(method: string, params: unknown[], byId: Map<string, StoredMessage>): string | undefined {
  const first = params[0];
  if (typeof first !== 'string') return undefined;
  if (['sendMessage', 'getChatById', 'sendStateTyping', 'clearState', 'sendSeen'].includes(method)) return first;
  const stored = byId.get(first);
  return stored ? stored.data.id.remote : undefined;
}
