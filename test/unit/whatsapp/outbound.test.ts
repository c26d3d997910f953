import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { WhatsAppOutbound, withSuggestions } from '../../../adapters/whatsapp/outbound.js';
import type { WaChat, WaClient, WaMessage, WaSendOptions } from '../../../adapters/whatsapp/library.js';
import { USER, waMessage } from './messages.js';

const conversation = { bot: 'main', platform: 'whatsapp', id: USER };

/**
 * A client that records what the outbound asks of it, in order. `known`: the messages WhatsApp
 * Web knows by id (shared by clients of one number: another browser session, another process).
 */
function recordingClient(
  options: { edit?: (text: string) => Promise<WaMessage | null>; fail?: Error; known?: Map<string, WaMessage> } = {},
) {
  const known = options.known ?? new Map<string, WaMessage>();
  const calls: string[] = [];
  const sentOptions: (WaSendOptions | undefined)[] = [];
  const chat: WaChat = {
    id: { _serialized: USER },
    isGroup: false,
    sendStateTyping: async () => {
      calls.push('typing');
    },
    clearState: async () => {
      calls.push('clearState');
      return true;
    },
    sendSeen: async () => {
      calls.push('seen');
      return true;
    },
  };
  const client = {
    getChatById: async () => chat,
    async sendMessage(chatId: string, content: unknown, sendOptions?: WaSendOptions) {
      if (options.fail) throw options.fail;
      calls.push(`send ${chatId} ${String(content)}`);
      sentOptions.push(sendOptions);
      const sent = waMessage({ fromMe: true, from: chatId, body: String(content) });
      sent.edit = async (text) => {
        calls.push(`edit ${text}`);
        return options.edit ? options.edit(text) : sent;
      };
      known.set(sent.id._serialized, sent);
      return sent;
    },
    async getMessageById(id: string) {
      calls.push(`getMessageById ${id}`);
      return known.get(id) ?? null;
    },
  } as unknown as WaClient;
  return { client, calls, sentOptions, known };
}

function outboundOn(client: () => WaClient | undefined) {
  return new WhatsAppOutbound({
    bot: 'main',
    logger: silentLogger(),
    client,
    notReadyReason: () => 'standby: another process runs this number',
  });
}

describe('sending and editing on WhatsApp', () => {
  it('sends the text, marks the chat seen first, and ends its "typing…"', async () => {
    const { client, calls, sentOptions } = recordingClient();
    const outbound = outboundOn(() => client);
    await outbound.typing(conversation);
    const sent = await outbound.send(conversation, { text: '*Hello*' });
    expect(calls).toEqual(['typing', 'clearState', 'seen', `send ${USER} *Hello*`]);
    // The library would mark the chat seen again with every send, and fetch a link preview.
    expect(sentOptions[0]).toMatchObject({ sendSeen: false, linkPreview: false });
    expect(sent.id).toMatch(/^true_/);
  });

  it('does not clear a "typing…" it did not show', async () => {
    const { client, calls } = recordingClient();
    await outboundOn(() => client).send(conversation, { text: 'hi' });
    expect(calls).toEqual(['seen', `send ${USER} hi`]);
  });

  it('edits a message it sent', async () => {
    const { client, calls } = recordingClient();
    const outbound = outboundOn(() => client);
    const sent = await outbound.send(conversation, { text: 'Hel' });
    await outbound.edit(conversation, sent, 'Hello world');
    expect(calls.at(-1)).toBe('edit Hello world');
  });

  it('reports an edit WhatsApp refuses (null) as not-editable, so the answer goes on in a new message', async () => {
    const { client } = recordingClient({ edit: async () => null });
    const outbound = outboundOn(() => client);
    const sent = await outbound.send(conversation, { text: 'Hel' });
    await expect(outbound.edit(conversation, sent, 'Hello')).rejects.toMatchObject({ kind: 'not-editable' });
  });

  it("edits a message of another process or an earlier client, found by its id (the number's own message)", async () => {
    const first = recordingClient();
    // Another process sent it, with its own outbound; this one's browser session is a new one.
    const sent = await outboundOn(() => first.client).send(conversation, { text: 'Hel' });
    const second = recordingClient({ known: first.known });
    await outboundOn(() => second.client).edit(conversation, sent, 'Hello');
    expect(second.calls).toEqual([`getMessageById ${sent.id}`]);
    expect(first.calls.at(-1)).toBe('edit Hello');
  });

  it('reports a message WhatsApp Web does not know as not-editable, so the answer goes on in a new message', async () => {
    const { client } = recordingClient();
    await expect(
      outboundOn(() => client).edit(conversation, { id: 'true_someone_else' }, 'Hello'),
    ).rejects.toMatchObject({ kind: 'not-editable' });
  });

  it('is unreachable while this process has no ready client, saying why', async () => {
    const outbound = outboundOn(() => undefined);
    const attempt = outbound.send(conversation, { text: 'hi' });
    await expect(attempt).rejects.toBeInstanceOf(PlatformError);
    await expect(attempt).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/standby/) });
    await expect(outbound.typing(conversation)).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('is unreachable when the browser page is gone mid-call', async () => {
    const { client } = recordingClient({
      fail: new Error('Protocol error (Runtime.callFunctionOn): Session closed. Most likely the page has been closed.'),
    });
    await expect(outboundOn(() => client).send(conversation, { text: 'hi' })).rejects.toMatchObject({
      kind: 'unreachable',
    });
  });

  it('refuses a conversation id that is no WhatsApp chat', async () => {
    const { client } = recordingClient();
    await expect(
      outboundOn(() => client).send({ ...conversation, id: 'status@broadcast' }, { text: 'hi' }),
    ).rejects.toThrow(/not a WhatsApp conversation id/);
  });
});

describe('suggested replies (WhatsApp has no reply keyboard)', () => {
  it('lists them under the text', async () => {
    const { client, calls } = recordingClient();
    await outboundOn(() => client).send(conversation, {
      text: 'Hi!',
      suggestions: ['Homes in Austin', 'Rentals in Denver'],
    });
    expect(calls.at(-1)).toBe(`send ${USER} Hi!\n\n• Homes in Austin\n• Rentals in Denver`);
  });

  it('leaves them out when they would not fit in one message', () => {
    const long = 'x'.repeat(4090);
    expect(withSuggestions(long, ['Homes in Austin'])).toBe(long);
  });
});

describe('a failed WhatsApp Web call', () => {
  it('names the method and what was sent (the chat, the text’s start and length), never the whole text', async () => {
    const text = `The code for your door is 4417 and ${'the rest of the answer '.repeat(10)}`;
    const { client } = recordingClient({ fail: new Error('Evaluation failed: something went wrong') });
    const error = (await outboundOn(() => client)
      .send(conversation, { text })
      .catch((e: unknown) => e)) as PlatformError;

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.method).toBe('sendMessage');
    expect(error.sent).toBe(`to ${USER}, text "The code for your do…" (${text.length} chars)`);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('4417');
  });

  it('names the method when no client is ready in this process', async () => {
    const error = (await outboundOn(() => undefined)
      .send(conversation, { text: 'hello' })
      .catch((e: unknown) => e)) as PlatformError;
    expect([error.kind, error.method]).toEqual(['unreachable', 'sendMessage']);
  });
});
