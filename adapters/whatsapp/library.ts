/**
 * The part of whatsapp-web.js the adapter uses, as types. The real package satisfies
 * them (load-library.ts assigns it to `WhatsAppLibrary`, so a drift breaks the build);
 * the fake in fakes/whatsapp implements the same surface, because WhatsApp Web cannot
 * be reached from a test. Nothing here is a wrapper: the adapter calls these methods
 * on the library's own objects.
 */

/** `"<number>@c.us"` (a person), `"<id>@g.us"` (a group), `"<id>@lid"`, `"status@broadcast"`, `"<id>@newsletter"`. */
export type WaChatId = string;

export interface WaMessageId {
  /** Unique across chats, e.g. `"false_4915112345678@c.us_3EB0…"`: the dedupe key. */
  _serialized: string;
  fromMe: boolean;
  remote: WaChatId;
  id: string;
}

/** A file as whatsapp-web.js carries it: base64 in memory (`downloadMedia`, `new MessageMedia`). */
export interface WaMessageMedia {
  mimetype: string;
  /** Base64. */
  data: string;
  filename?: string | null;
  filesize?: number | null;
}

/** `Message.type`: the kinds the adapter tells apart (the library has more). */
export type WaMessageType =
  | 'chat'
  | 'image'
  | 'video'
  | 'audio'
  | 'ptt'
  | 'document'
  | 'sticker'
  | 'location'
  | 'vcard'
  | 'revoked'
  | (string & {});

export interface WaMessage {
  id: WaMessageId;
  /** Text, or the caption of a media message. */
  body: string;
  type: WaMessageType;
  from: WaChatId;
  to: WaChatId;
  /** In a group: who wrote it (`from` is the group). */
  author?: string;
  fromMe: boolean;
  hasMedia: boolean;
  hasQuotedMsg: boolean;
  isStatus: boolean;
  broadcast: boolean;
  /** Seconds since epoch. */
  timestamp: number;
  /** Seconds, for audio and video (a string, or undefined). */
  duration: string;
  /** Ids (`"<number>@c.us"` or `"<id>@lid"`) mentioned in the text. */
  mentionedIds: string[];
  /**
   * WhatsApp Web's own record of the message: `size` (bytes of its media, known before
   * downloading it) and `notifyName` (the sender's display name) are read from here.
   */
  rawData: object;
  /**
   * On a message revoked for everyone: the id of the message it was (whatsapp-web.js PR #3715). WhatsApp
   * Web gives the revoked message an id of its own, so this, not `id`, names the message the user deleted.
   */
  protocolMessageKey?: WaMessageId;
  /** null: expired or not found (WhatsApp no longer has the file); undefined: the download failed. */
  downloadMedia(): Promise<WaMessageMedia | null | undefined>;
  getQuotedMessage(): Promise<WaMessage>;
  /** Resolves null when WhatsApp refuses the edit (not ours, past the edit window, not text). */
  edit(content: string): Promise<WaMessage | null>;
  getChat(): Promise<WaChat>;
}

export interface WaChat {
  id: { _serialized: WaChatId };
  isGroup: boolean;
  /** "typing…" for about 25 s. */
  sendStateTyping(): Promise<void>;
  clearState(): Promise<boolean>;
  sendSeen(): Promise<boolean>;
}

export interface WaSendOptions {
  /** Send an audio file as a voice note (OGG/Opus). */
  sendAudioAsVoice?: boolean;
  caption?: string;
  /** Send a photo or a video as a file (its quality and name kept) rather than as media. */
  sendMediaAsDocument?: boolean;
  /** Do not mark the chat seen when sending (the adapter marks it itself when it answers). */
  sendSeen?: boolean;
  linkPreview?: boolean;
}

/** The connected number, after `ready`. */
export interface WaClientInfo {
  wid: { _serialized: string; user: string };
  pushname: string;
}

/** `RemoteAuth`'s store (index.d.ts `Store`): where the zipped browser profile is kept. */
export interface WaRemoteStore {
  sessionExists(options: { session: string }): Promise<boolean>;
  /** Reads `<dataPath>/<session>.zip` (1.34.7 writes it there, not in the working directory). */
  save(options: { session: string }): Promise<void>;
  /** Writes the stored zip to `path`. */
  extract(options: { session: string; path: string }): Promise<void>;
  delete(options: { session: string }): Promise<void>;
}

export interface WaRemoteAuthOptions {
  store: WaRemoteStore;
  clientId?: string;
  dataPath?: string;
  /** At least 60,000: the library refuses less. */
  backupSyncIntervalMs: number;
}

/**
 * The library's `AuthStrategy` (a RemoteAuth instance): the client calls these hooks; the
 * adapter only builds one and hands it over.
 */
export interface WaAuthStrategy {
  // A method (not a property) so that the check is bivariant: the library types it with its own Client.
  setup(client: unknown): void;
  beforeBrowserInitialized: () => Promise<void>;
  afterBrowserInitialized: () => Promise<void>;
  onAuthenticationNeeded: () => Promise<{ failed?: boolean; restart?: boolean; failureEventPayload?: unknown }>;
  getAuthEventPayload: () => Promise<unknown>;
  afterAuthReady: () => Promise<void>;
  disconnect: () => Promise<void>;
  destroy: () => Promise<void>;
  logout: () => Promise<void>;
}

export interface WaClientOptions {
  authStrategy?: WaAuthStrategy;
  puppeteer?: { executablePath?: string; headless?: boolean; args?: string[] };
  /** QR codes shown before giving up with `disconnected('Max qrcode retries reached')`; 0 = forever. */
  qrMaxRetries?: number;
  takeoverOnConflict?: boolean;
  /** Where WhatsApp Web's page is cached; 'local' (the default) writes `./.wwebjs_cache` in the working directory. */
  webVersionCache?: { type: 'none' } | { type: 'local'; path?: string };
  pairWithPhoneNumber?: { phoneNumber: string; showNotification?: boolean; intervalMs?: number };
}

/** The events the adapter listens to, with their arguments. */
export interface WaClientEvents {
  qr: [qr: string];
  /** A pairing code to type on the phone (WHATSAPP_PAIR_PHONE). */
  code: [code: string];
  authenticated: [session?: unknown];
  auth_failure: [message: string];
  ready: [];
  /** Incoming messages only (not our own). */
  message: [message: WaMessage];
  /**
   * A message's text or caption changed: a user's edit, and also each edit of the bot's own messages
   * (its answers as they grow). `message` is the edited one, under its original id.
   */
  message_edit: [message: WaMessage, newBody: string, prevBody: string];
  /**
   * A message deleted for everyone: `message` as it is now (type 'revoked', its text gone), `revoked` as it
   * was, when the library caught it (it may be undefined or null).
   */
  message_revoke_everyone: [message: WaMessage, revoked?: WaMessage | null];
  /** A WAState, 'LOGOUT', or 'Max qrcode retries reached'. After it the client is unusable. */
  disconnected: [reason: string];
  change_state: [state: string];
  remote_session_saved: [];
}

export interface WaClient {
  info: WaClientInfo;
  on<E extends keyof WaClientEvents>(event: E, listener: (...args: WaClientEvents[E]) => void): this;
  initialize(): Promise<void>;
  /** Closes the browser; the stored session stays (unlike `logout`, which deletes it). */
  destroy(): Promise<void>;
  /** e.g. 'CONNECTED'; null while WhatsApp Web is not loaded. */
  getState(): Promise<string | null>;
  sendMessage(chatId: WaChatId, content: string | WaMessageMedia, options?: WaSendOptions): Promise<WaMessage>;
  getChatById(chatId: WaChatId): Promise<WaChat>;
  /**
   * A message by its id (`_serialized`), as WhatsApp Web knows it: also one this browser did not
   * send (an earlier session of the number, another replica). null when it does not know it (the
   * library types it without null, but resolves null then).
   */
  getMessageById(messageId: string): Promise<WaMessage | null>;
  requestPairingCode(phoneNumber: string, showNotification?: boolean): Promise<string>;
}

/** What `import('whatsapp-web.js')` gives (its CommonJS export, seen as `default`). */
export interface WhatsAppLibrary {
  Client: new (options: WaClientOptions) => WaClient;
  RemoteAuth: new (options: WaRemoteAuthOptions) => WaAuthStrategy;
  MessageMedia: new (
    mimetype: string,
    data: string,
    filename?: string | null,
    filesize?: number | null,
  ) => WaMessageMedia;
}
