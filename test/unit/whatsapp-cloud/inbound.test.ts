/**
 * Meta's messages as the core sees them: the text and its command words, files by kind (a
 * voice note, a photo sent as a document), presses of our buttons and lists, what the bot
 * cannot read, and what is never answered (edits and revokes arrive as `unsupported`).
 */
import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../../../adapters/whatsapp-cloud/events.js';
import { GraphClient } from '../../../adapters/whatsapp-cloud/graph.js';
import { isIgnored, messageToInbound } from '../../../adapters/whatsapp-cloud/inbound.js';
import { CommandWords, DEFAULT_COMMANDS, type Inbound } from '../../../src/contract.js';
import { envelope, message, USER } from './envelopes.js';

const words = new CommandWords([...DEFAULT_COMMANDS, { name: 'human', description: '' }]);
const graph = new GraphClient({ apiUrl: 'http://127.0.0.1:9/v23.0', accessToken: 'not-used-here' });
const names = new Map([[USER, 'Ana Lima']]);
const context = { bot: 'main', graph, words };

function inbound(fields: Record<string, unknown>): Inbound {
  const result = messageToInbound(message(fields), names, context);
  if (isIgnored(result)) throw new Error(`ignored: ${result.ignored}`);
  return result;
}

function ignored(fields: Record<string, unknown>): string {
  const result = messageToInbound(message(fields), names, context);
  if (!isIgnored(result)) throw new Error(`answered: ${JSON.stringify(result.text)}`);
  return result.ignored;
}

describe('WhatsApp Cloud messages to the core', () => {
  it('makes one conversation per user, named by the contact, dated by Meta, keyed by the wamid', () => {
    const sent = message({ type: 'text', text: { body: 'Homes in Austin?' } });
    const result = messageToInbound(sent, names, context) as Inbound;
    expect(result).toEqual({
      conversation: { bot: 'main', platform: 'whatsapp-cloud', id: USER },
      user: { id: USER, name: 'Ana Lima' },
      text: 'Homes in Austin?',
      attachments: [],
      isGroup: false,
      addressed: true,
      platformMessageId: sent.id,
      sentAt: 1_760_000_000_000,
    });
  });

  it("turns command words into the core's commands, and leaves questions as they are", () => {
    expect(inbound({ type: 'text', text: { body: 'Help' } }).text).toBe('/help');
    expect(inbound({ type: 'text', text: { body: 'listings Austin' } }).text).toBe('/listings Austin');
    expect(inbound({ type: 'text', text: { body: 'human' } }).text).toBe('/human');
    expect(inbound({ type: 'text', text: { body: 'help me find a flat' } }).text).toBe('help me find a flat');
  });

  it('gives files their kind: a voice note, audio, a photo, a video, and a photo or video sent as a document', () => {
    const kinds = [
      { type: 'audio', audio: { id: 'm1', mime_type: 'audio/ogg; codecs=opus', voice: true } },
      { type: 'audio', audio: { id: 'm2', mime_type: 'audio/mpeg', voice: false } },
      { type: 'image', image: { id: 'm3', mime_type: 'image/jpeg', caption: 'this one?' } },
      { type: 'video', video: { id: 'm4', mime_type: 'video/mp4' } },
      { type: 'document', document: { id: 'm5', mime_type: 'image/png', filename: 'plan.png' } },
      { type: 'document', document: { id: 'm6', mime_type: 'video/mp4', filename: 'tour.mp4' } },
      { type: 'document', document: { id: 'm7', mime_type: 'application/pdf', filename: 'lease.pdf' } },
      { type: 'sticker', sticker: { id: 'm8', mime_type: 'image/webp', animated: false } },
    ].map((fields) => inbound(fields));
    expect(kinds.map((m) => m.attachments.map((a) => [a.kind, a.ref, a.mimeType, a.fileName ?? null]))).toEqual([
      [['voice', 'm1', 'audio/ogg; codecs=opus', null]],
      [['audio', 'm2', 'audio/mpeg', null]],
      [['image', 'm3', 'image/jpeg', null]],
      [['video', 'm4', 'video/mp4', null]],
      [['image', 'm5', 'image/png', 'plan.png']],
      [['video', 'm6', 'video/mp4', 'tour.mp4']],
      [['document', 'm7', 'application/pdf', 'lease.pdf']],
      [['sticker', 'm8', 'image/webp', null]],
    ]);
    expect(kinds[2]!.text).toBe('this one?');
    // No size in the webhook: it is learned from GET /{media-id} before the download.
    expect(kinds.every((m) => m.attachments[0]!.size === undefined)).toBe(true);
  });

  it('never takes a caption for a command', () => {
    expect(inbound({ type: 'image', image: { id: 'm1', mime_type: 'image/jpeg', caption: 'help' } }).text).toBe('help');
  });

  it("hands a press of one of the core's buttons over as its action, and a suggested question as text", () => {
    const next = inbound({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'a:listings:2:', title: 'Next »' } },
    });
    expect(next.action).toEqual({ id: next.platformMessageId, value: 'listings:2:' });
    expect(next.text).toBe('Next »');
    const row = inbound({
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 's:Homes with a garden', title: 'Homes with a garden' } },
    });
    expect(row.text).toBe('Homes with a garden');
    expect(row.action).toBeUndefined();
    // A template's quick reply, or another app's buttons: what the user pressed is what they say.
    expect(
      inbound({
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'promo-7', title: 'Yes please' } },
      }).text,
    ).toBe('Yes please');
    expect(inbound({ type: 'button', button: { text: 'Stop promotions', payload: 'STOP' } }).text).toBe(
      'Stop promotions',
    );
  });

  it('gives what the bot cannot read to the core as a file it cannot read, so the user is told what it can read', () => {
    for (const fields of [
      { type: 'location', location: { latitude: 30.26, longitude: -97.74 } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ada' } }] },
    ]) {
      const result = inbound(fields);
      expect(result.text).toBe('');
      expect(result.attachments.map((a) => [a.kind, a.fileName])).toEqual([['other', `whatsapp-${fields.type}`]]);
    }
  });

  it('makes a user Meta names only by their business-scoped id a conversation keyed by that id', () => {
    const bsuid = 'US.13491208655302741918';
    const sent = message({ type: 'text', text: { body: 'Homes in Austin?' }, from: undefined, from_user_id: bsuid });
    const result = messageToInbound(sent, new Map([[bsuid, 'Robin']]), context) as Inbound;
    expect(result.conversation).toEqual({ bot: 'main', platform: 'whatsapp-cloud', id: bsuid });
    expect(result.user).toEqual({ id: bsuid, name: 'Robin' });
    // Its number, when Meta shows it too, keys it as before.
    const both = messageToInbound(message({ type: 'text', text: { body: 'hi' }, from_user_id: bsuid }), names, context);
    expect((both as Inbound).conversation.id).toBe(USER);
  });

  it('answers no edit, revoke, system notice, reaction, or type Meta adds later', () => {
    expect(ignored({ type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] })).toMatch(
      /unsupported/,
    );
    expect(ignored({ type: 'system', system: { body: 'Ana changed her number' } })).toMatch(/system/);
    // A reaction (to the bot's answer, mostly) is an acknowledgement; taken back, it is nothing either.
    expect(ignored({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } })).toMatch(/reaction/);
    expect(ignored({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '' } })).toMatch(/reaction/);
    expect(ignored({ type: 'hologram' })).toMatch(/hologram/);
    expect(ignored({ type: 'image' })).toMatch(/without its image/);
    expect(ignored({ type: 'text', text: { body: 'hi' }, from: 'someone else' })).toMatch(
      /neither a WhatsApp number nor a business-scoped user id/,
    );
  });
});

describe('WhatsApp Cloud webhook bodies', () => {
  it("reads the messages and statuses of a messages change, with the senders' names", () => {
    const parsed = parseWebhook(
      JSON.stringify(
        envelope({
          messages: [message({ type: 'text', text: { body: 'hi' } })],
          statuses: [{ id: 'wamid.OUT', status: 'delivered', timestamp: '1760000000', recipient_id: USER }],
        }),
      ),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.changes).toHaveLength(1);
    expect(parsed.changes[0]!.names.get(USER)).toBe('Ana Lima');
    expect(parsed.changes[0]!.messages.map((m) => m.type)).toEqual(['text']);
    expect(parsed.changes[0]!.statuses.map((s) => s.status)).toEqual(['delivered']);
  });

  it("lists changes of other fields apart, and refuses what is not Meta's shape with the reason", () => {
    const other = parseWebhook(
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } }] }],
      }),
    );
    expect(other).toEqual({ ok: true, changes: [], otherFields: ['account_update'] });
    expect(parseWebhook('not json')).toMatchObject({ ok: false, reason: expect.stringContaining('not JSON') });
    expect(parseWebhook(JSON.stringify({ object: 'page', entry: [] }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('object'),
    });
    const noMetadata = {
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: {} }] }],
    };
    expect(parseWebhook(JSON.stringify(noMetadata))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('metadata'),
    });
  });

  it('takes a batch message by message: one it cannot read is set aside with the reason, the rest kept', () => {
    const notice = {
      id: 'wamid.NOTICE',
      timestamp: '1',
      type: 'system',
      system: { body: 'User Uli changed from DE.1 to DE.2', user_id: 'DE.2', type: 'user_changed_user_id' },
    };
    const parsed = parseWebhook(
      JSON.stringify(
        envelope({
          messages: [notice, { id: 'wamid.NOTIME', type: 'text' }, message({ type: 'text', text: { body: 'hi' } })],
          statuses: [{ status: 'read' }],
        }),
      ),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [change] = parsed.changes;
    expect(change!.messages.map((m) => m.id)).toEqual(['wamid.NOTICE', expect.stringMatching(/^wamid\./)]);
    expect(change!.messages[0]!.system?.user_id).toBe('DE.2');
    expect(change!.unreadable).toEqual([
      { at: 'entry.0.changes.0.value.messages.1', id: 'wamid.NOTIME', reason: expect.stringContaining('timestamp') },
      { at: 'entry.0.changes.0.value.statuses.0', reason: expect.stringContaining('id') },
    ]);
  });
});
