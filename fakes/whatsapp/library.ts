/**
 * The fake whatsapp-web.js: Client, RemoteAuth and MessageMedia with the real ones'
 * events and methods (adapters/whatsapp/library.ts), talking to a fake WhatsApp (world.ts)
 * over a WebSocket instead of driving WhatsApp Web in Chromium.
 *
 * The default export reads the world's address from FAKE_WHATSAPP_URL when a client
 * initializes (the module hook, register.mjs, puts it in place of the package in another
 * process); `createFakeLibrary(url)` binds one in the test's own process.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import type {
  WaChat,
  WaClient,
  WaClientEvents,
  WaClientInfo,
  WaClientOptions,
  WaMessage,
  WaMessageMedia,
  WaSendOptions,
  WhatsAppLibrary,
} from '../../adapters/whatsapp/library.js';
import type { HelloAnswer, MessageData, WorldToClient } from './protocol.js';
import { MAX_FRAME_BYTES, SESSION_CLOSED } from './protocol.js';
import { FakeRemoteAuth } from './remote-auth.js';

export class FakeMessageMedia implements WaMessageMedia {
  constructor(
    public mimetype: string,
    public data: string,
    public filename?: string | null,
    public filesize?: number | null,
  ) {}
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class FakeClient extends EventEmitter implements WaClient {
  info = undefined as unknown as WaClientInfo; // set on ready, as the real one
  private socket: WebSocket | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextCall = 1;
  private destroyed = false;
  private qrShown = 0;
  /**
   * Messages (and edits, deletions) the world delivered while `ready` was not emitted yet (the profile is
   * still being written): held, as WhatsApp Web does, and emitted in order once ready.
   */
  private early: { event: 'message' | 'message_edit' | 'message_revoke_everyone'; args: unknown[] }[] | undefined = [];

  constructor(
    readonly options: WaClientOptions,
    private readonly url: string | undefined,
  ) {
    super();
  }

  override on<E extends keyof WaClientEvents>(event: E, listener: (...args: WaClientEvents[E]) => void): this {
    // EventEmitter's listener type is (...args: any[]) => void; the typed overload narrows it.
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  async initialize(): Promise<void> {
    const auth = this.auth();
    auth?.setup(this);
    const executablePath = this.options.puppeteer?.executablePath;
    if (executablePath !== undefined && !existsSync(executablePath)) {
      // puppeteer's words (ChromeLauncher.js) when the browser is not at the path.
      throw new Error(`Browser was not found at the configured executablePath (${executablePath})`);
    }
    await auth?.beforeBrowserInitialized();
    await this.open();
    const token = await auth?.storedToken();
    const pairPhone = this.options.pairWithPhoneNumber?.phoneNumber || undefined;
    const answer = (await this.call('hello', [{ token, pairPhone }])) as HelloAnswer;
    if ('refused' in answer) {
      this.emit('auth_failure', answer.refused);
      await this.destroy();
      return;
    }
    if ('linked' in answer) await this.linked(answer.linked, false);
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.auth()?.destroy();
    this.socket?.close();
    for (const call of this.pending.values()) call.reject(new Error(SESSION_CLOSED));
    this.pending.clear();
  }

  async getState(): Promise<string | null> {
    return (await this.call('getState', [])) as string | null;
  }

  async sendMessage(chatId: string, content: string | WaMessageMedia, options: WaSendOptions = {}): Promise<WaMessage> {
    // The real one knows a file by `instanceof MessageMedia`; anything else would not go as a file.
    if (typeof content !== 'string' && !(content instanceof FakeMessageMedia))
      throw new Error('fake whatsapp-web.js: sendMessage takes text or a MessageMedia (new library.MessageMedia(…))');
    const plain =
      typeof content === 'string'
        ? content
        : { mimetype: content.mimetype, data: content.data, filename: content.filename ?? null };
    return this.message((await this.call('sendMessage', [chatId, plain, options])) as MessageData);
  }

  async getChatById(chatId: string): Promise<WaChat> {
    return this.chat((await this.call('getChatById', [chatId])) as { id: { _serialized: string }; isGroup: boolean });
  }

  async getMessageById(messageId: string): Promise<WaMessage | null> {
    const data = (await this.call('getMessageById', [messageId])) as MessageData | null;
    return data ? this.message(data) : null;
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    return (await this.call('requestPairingCode', [phoneNumber])) as string;
  }

  /** A call to WhatsApp Web; rejects as puppeteer does once the page is gone. */
  call(method: string, params: unknown[]): Promise<unknown> {
    const socket = this.socket;
    if (this.destroyed || !socket || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error(SESSION_CLOSED));
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ kind: 'call', id, method, params }));
    });
  }

  private auth(): FakeRemoteAuth | undefined {
    return this.options.authStrategy instanceof FakeRemoteAuth ? this.options.authStrategy : undefined;
  }

  private async open(): Promise<void> {
    const url = this.url ?? process.env.FAKE_WHATSAPP_URL;
    if (!url)
      throw new Error('fake whatsapp-web.js: set FAKE_WHATSAPP_URL to the fake WhatsApp (startFakeWhatsApp().url)');
    const socket = new WebSocket(url, { maxPayload: MAX_FRAME_BYTES });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      // The real client's words when WhatsApp Web cannot be reached.
      socket.once('error', () => reject(new Error('net::ERR_CONNECTION_REFUSED at https://web.whatsapp.com/')));
    });
    this.socket = socket;
    socket.on('message', (raw) => this.receive(JSON.parse(String(raw)) as WorldToClient));
    socket.on('close', () => {
      for (const call of this.pending.values()) call.reject(new Error(SESSION_CLOSED));
      this.pending.clear();
    });
  }

  private receive(message: WorldToClient): void {
    if (message.kind === 'result') {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      if (message.ok) call.resolve('value' in message ? message.value : undefined);
      else call.reject(new Error(message.error));
      return;
    }
    if (this.destroyed) return;
    const [first] = message.args;
    switch (message.event) {
      case 'qr':
        this.emit('qr', String(first));
        this.qrShown += 1;
        if ((this.options.qrMaxRetries ?? 0) > 0 && this.qrShown > (this.options.qrMaxRetries ?? 0)) {
          this.emit('disconnected', 'Max qrcode retries reached');
          void this.destroy();
        }
        return;
      case 'code':
        this.emit('code', String(first));
        return;
      case 'linked':
        void this.linked(first as { number: string; pushname: string; token: string }, true);
        return;
      case 'message':
      case 'message_edit':
      case 'message_revoke_everyone':
        if (this.early) this.early.push({ event: message.event, args: message.args });
        else this.emitMessageEvent(message.event, message.args);
        return;
      case 'change_state':
        this.emit('change_state', String(first));
        return;
      case 'disconnected':
        void this.dropped(String(first));
        return;
    }
  }

  private async linked(link: { number: string; pushname: string; token: string }, fresh: boolean): Promise<void> {
    const auth = this.auth();
    if (fresh) await auth?.writeProfile(link.token);
    this.info = { wid: { _serialized: `${link.number}@c.us`, user: link.number }, pushname: link.pushname };
    this.emit('authenticated', undefined);
    this.emit('ready');
    const early = this.early ?? [];
    this.early = undefined;
    for (const { event, args } of early) this.emitMessageEvent(event, args);
    void auth?.afterAuthReady().catch(() => {});
  }

  /** The messages in an event's arguments become objects with the library's methods, as Client.js builds them. */
  private emitMessageEvent(event: 'message' | 'message_edit' | 'message_revoke_everyone', args: unknown[]): void {
    const [first, second, third] = args;
    switch (event) {
      case 'message':
        this.emit('message', this.message(first as MessageData));
        return;
      case 'message_edit':
        this.emit('message_edit', this.message(first as MessageData), String(second), String(third));
        return;
      case 'message_revoke_everyone':
        this.emit(
          'message_revoke_everyone',
          this.message(first as MessageData),
          second ? this.message(second as MessageData) : (second as null | undefined),
        );
        return;
    }
  }

  /** As Client.js: LOGOUT → event, then logout (the stored session is deleted); another state → the strategy's disconnect
   * (RemoteAuth deletes the stored session too), event, destroy. */
  private async dropped(reason: string): Promise<void> {
    const auth = this.auth();
    if (reason === 'LOGOUT') {
      this.emit('disconnected', reason);
      await auth?.logout().catch(() => {});
      await this.destroy();
      return;
    }
    await auth?.disconnect().catch(() => {});
    this.emit('disconnected', reason);
    await this.destroy();
  }

  private message(data: MessageData): WaMessage {
    const id = data.id._serialized;
    return {
      ...data,
      downloadMedia: async () => {
        const media = (await this.call('downloadMedia', [id])) as WaMessageMedia | null | undefined;
        return media ? new FakeMessageMedia(media.mimetype, media.data, media.filename, media.filesize) : media;
      },
      getQuotedMessage: async () => {
        const quoted = (await this.call('getQuotedMessage', [id])) as MessageData | null;
        // The real one resolves undefined when there is no quoted message.
        return (quoted ? this.message(quoted) : undefined) as WaMessage;
      },
      edit: async (content: string) => {
        const edited = (await this.call('edit', [id, content])) as MessageData | null;
        return edited ? this.message(edited) : null;
      },
      getChat: () => this.getChatById(data.fromMe ? data.to : data.from),
    };
  }

  private chat(data: { id: { _serialized: string }; isGroup: boolean }): WaChat {
    const chatId = data.id._serialized;
    return {
      id: { _serialized: chatId },
      isGroup: data.isGroup,
      sendStateTyping: async () => {
        await this.call('sendStateTyping', [chatId]);
      },
      clearState: async () => (await this.call('clearState', [chatId])) as boolean,
      sendSeen: async () => (await this.call('sendSeen', [chatId])) as boolean,
    };
  }
}

/** A library whose clients reach the fake WhatsApp at `url` (FAKE_WHATSAPP_URL when omitted). */
export function createFakeLibrary(url?: string): WhatsAppLibrary {
  return {
    Client: class extends FakeClient {
      constructor(options: WaClientOptions) {
        super(options, url);
      }
    },
    RemoteAuth: FakeRemoteAuth,
    MessageMedia: FakeMessageMedia,
  };
}

const library: WhatsAppLibrary = createFakeLibrary();
export default library;
export const { Client, RemoteAuth, MessageMedia } = library;
