import { describe, expect, it } from 'vitest';
import { CommandWords, DEFAULT_COMMANDS, type Inbound } from '../../../src/contract.js';
import { isIgnored, messageToInbound, type Ignored } from '../../../adapters/whatsapp/inbound.js';
import { BOT_WID, GROUP, USER, waMessage, type MessageParts } from './messages.js';

const context = {
  bot: 'main',
  identity: { wid: BOT_WID, user: '4915100000000' },
  words: new CommandWords(DEFAULT_COMMANDS),
};

async function inbound(parts: MessageParts): Promise<Inbound> {
  const result = await messageToInbound(waMessage(parts), context);
  if (isIgnored(result)) throw new Error(`expected an inbound, the message was ignored: ${result.ignored}`);
  return result;
}

async function ignored(parts: MessageParts): Promise<Ignored> {
  const result = await messageToInbound(waMessage(parts), context);
  if (!isIgnored(result)) throw new Error(`expected the message to be ignored, got ${JSON.stringify(result.text)}`);
  return result;
}

describe('private chats', () => {
  it('answers every message, one conversation per chat, deduped by the serialized message id', async () => {
    const message = waMessage({ body: 'Is the flat still free?' });
    const result = await messageToInbound(message, context);
    expect(result).toMatchObject({
      conversation: { bot: 'main', platform: 'whatsapp', id: USER },
      user: { id: USER, name: 'Ada' },
      text: 'Is the flat still free?',
      attachments: [],
      isGroup: false,
      addressed: true,
      platformMessageId: message.id._serialized,
      sentAt: 1_700_000_000_000,
    });
  });

  it('answers a chat by linked id (@lid) as a private chat', async () => {
    expect(await inbound({ from: '123456789012345@lid' })).toMatchObject({
      isGroup: false,
      addressed: true,
      conversation: { id: '123456789012345@lid' },
    });
  });

  it('turns a command word into the command, but never a caption', async () => {
    expect((await inbound({ body: 'Help' })).text).toBe('/help');
    const photo = await inbound({
      type: 'image',
      hasMedia: true,
      body: 'help',
      rawData: { mimetype: 'image/jpeg', size: 10 },
    });
    expect(photo.text).toBe('help');
  });
});

describe('groups', () => {
  const inGroup = (parts: MessageParts): MessageParts => ({ from: GROUP, author: USER, ...parts });

  it('queues a message without mention or reply as not addressed (the core leaves it)', async () => {
    const result = await inbound(inGroup({ body: 'lunch at noon?' }));
    expect(result).toMatchObject({ isGroup: true, addressed: false });
  });

  it("answers a message that mentions the bot's number, in the group's conversation, from its author, without the mention", async () => {
    const result = await inbound(inGroup({ body: '@4915100000000 what does the flat cost?', mentionedIds: [BOT_WID] }));
    expect(result).toMatchObject({
      conversation: { id: GROUP },
      user: { id: USER },
      isGroup: true,
      addressed: true,
      text: 'what does the flat cost?',
    });
  });

  it('does not count a mention of someone else', async () => {
    expect(
      (await inbound(inGroup({ body: '@4915199999999 hi', mentionedIds: ['4915199999999@c.us'] }))).addressed,
    ).toBe(false);
  });

  it("answers a reply to one of the bot's messages, and not a reply to someone else's", async () => {
    expect((await inbound(inGroup({ body: 'and the garden?', quoted: { fromMe: true } }))).addressed).toBe(true);
    expect((await inbound(inGroup({ body: 'and the garden?', quoted: { fromMe: false } }))).addressed).toBe(false);
  });

  it('does not fail on a quoted message WhatsApp Web cannot load', async () => {
    const message = waMessage(inGroup({ body: 'and this?', quoted: { fromMe: true } }));
    message.getQuotedMessage = () => Promise.reject(new Error('Evaluation failed: msg not found'));
    const result = await messageToInbound(message, context);
    expect(result).toMatchObject({ addressed: false });
  });

  it('turns "@bot help" into /help', async () => {
    expect((await inbound(inGroup({ body: '@4915100000000 help', mentionedIds: [BOT_WID] }))).text).toBe('/help');
  });
});

describe('messages that are never answered', () => {
  it.each<[string, MessageParts]>([
    ["the bot's own message", { fromMe: true }],
    ['a status update', { from: 'status@broadcast', isStatus: true }],
    ['a broadcast', { broadcast: true }],
    ['a channel (newsletter) post', { from: '120363000000000002@newsletter' }],
    ['a revoked message', { type: 'revoked', body: '' }],
    ['a reaction', { type: 'reaction', body: '👍' }],
    ['a call log', { type: 'call_log', body: '' }],
    ['a security-code notice', { type: 'e2e_notification', body: '' }],
    ['a group notice', { from: GROUP, type: 'gp2', body: '' }],
  ])('%s', async (_what, parts) => {
    expect((await ignored(parts)).ignored).not.toBe('');
  });
});

describe('media', () => {
  it('hands a photo over with its caption, kind and announced size', async () => {
    const result = await inbound({
      type: 'image',
      hasMedia: true,
      body: 'what about this one?',
      rawData: { mimetype: 'image/jpeg', size: 2048 },
    });
    expect(result.text).toBe('what about this one?');
    expect(result.attachments).toHaveLength(1);
    expect(result.attachments[0]).toMatchObject({ kind: 'image', size: 2048, mimeType: 'image/jpeg' });
  });

  it('hands a voice note over as voice, with its duration', async () => {
    const result = await inbound({
      type: 'ptt',
      hasMedia: true,
      body: '',
      duration: '7',
      rawData: { mimetype: 'audio/ogg; codecs=opus', size: 9000 },
    });
    expect(result.attachments[0]).toMatchObject({
      kind: 'voice',
      durationSeconds: 7,
      mimeType: 'audio/ogg; codecs=opus',
    });
  });

  it('hands a location over as something the chatbot cannot read, so the core says what it takes', async () => {
    const result = await inbound({ type: 'location', body: '/9j/4AAQSkZJRgABAQ' });
    expect(result.text).toBe('');
    expect(result.attachments).toHaveLength(1);
    expect(result.attachments[0]!.kind).toBe('other');
    expect(await result.attachments[0]!.fetch({ maxBytes: 1000 })).toEqual(new Uint8Array(0));
  });

  it('hands a sticker over as a sticker (the core refuses it with a clear reply)', async () => {
    const result = await inbound({
      type: 'sticker',
      hasMedia: true,
      body: '',
      rawData: { mimetype: 'image/webp', size: 30_000 },
    });
    expect(result.attachments[0]!.kind).toBe('sticker');
  });
});

describe('replies', () => {
  it("quotes the bot's own message as the bot's, without a name", async () => {
    const result = await inbound({ body: 'how much?', quoted: { fromMe: true, body: 'Oak Street 12, 3 bedrooms' } });
    expect(result.quoted).toEqual({ text: 'Oak Street 12, 3 bedrooms', from: 'bot' });
  });

  it("quotes someone else's message as a user's, named as WhatsApp Web knows them", async () => {
    const result = await inbound({
      body: 'me too',
      quoted: { body: 'a flat near the park', rawData: { notifyName: 'Bo' } },
    });
    expect(result.quoted).toEqual({ text: 'a flat near the park', from: 'user', author: 'Bo' });
  });

  it("quotes a photo by its caption, and a location as no text (its body is WhatsApp's data, not words)", async () => {
    const photo = await inbound({ quoted: { type: 'image', hasMedia: true, body: 'the kitchen', fromMe: true } });
    expect(photo.quoted).toEqual({ text: 'the kitchen', from: 'bot' });
    const location = await inbound({
      quoted: { type: 'location', body: '/9j/4AAQSkZJRgABAQ', rawData: { notifyName: '' } },
    });
    expect(location.quoted).toEqual({ text: '', from: 'user' });
  });

  it('quotes nothing when the quoted message cannot be loaded', async () => {
    const message = waMessage({ body: 'and this?', hasQuotedMsg: true });
    message.getQuotedMessage = () => Promise.reject(new Error('Evaluation failed'));
    const result = await messageToInbound(message, context);
    expect(!isIgnored(result) && result.quoted).toBeUndefined();
  });
});
