/**
 * Hand-made whatsapp-web.js messages, shaped as the library hands them to a `message`
 * listener (src/structures/Message.js): the fields the adapter reads, nothing more.
 */
import type { WaChat, WaMessage, WaMessageMedia } from '../../../adapters/whatsapp/library.js';

export const BOT_WID = '4915100000000@c.us';
export const USER = '4915112345678@c.us';
export const GROUP = '120363000000000001@g.us';

let counter = 0;

export interface MessageParts extends Partial<Omit<WaMessage, 'rawData'>> {
  rawData?: Record<string, unknown>;
  quoted?: Omit<MessageParts, 'quoted'>;
  media?: WaMessageMedia | null | undefined;
}

export function waMessage(parts: MessageParts = {}): WaMessage & { downloads: number } {
  counter += 1;
  const from = parts.from ?? USER;
  const fromMe = parts.fromMe ?? false;
  const { quoted, media, rawData, ...fields } = parts;
  const message: WaMessage & { downloads: number } = {
    id: { _serialized: `${fromMe}_${from}_3EB0${counter}`, fromMe, remote: from, id: `3EB0${counter}` },
    body: 'hello',
    type: 'chat',
    from,
    to: BOT_WID,
    fromMe,
    hasMedia: false,
    hasQuotedMsg: quoted !== undefined,
    isStatus: false,
    broadcast: false,
    timestamp: 1_700_000_000,
    duration: undefined as unknown as string,
    mentionedIds: [],
    rawData: { notifyName: 'Ada', ...rawData },
    downloads: 0,
    async downloadMedia() {
      message.downloads += 1;
      return 'media' in parts ? media : { mimetype: 'image/jpeg', data: Buffer.from('jpeg bytes').toString('base64') };
    },
    getQuotedMessage: async () => waMessage(quoted ?? {}),
    edit: async () => null,
    getChat: async () => ({}) as WaChat,
    ...fields,
  };
  return message;
}
