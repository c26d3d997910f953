/**
 * A user's edit and revoke in Meta's shapes (the "Edit messages" and "Revoke messages" webhook
 * references, for Coexistence numbers): read from the webhook body, never a question, and turned
 * into the message as it reads now, or the deletion, of the original wamid.
 */
import { describe, expect, it } from 'vitest';
import { parseWebhook, type CloudMessage } from '../../../adapters/whatsapp-cloud/events.js';
import { GraphClient } from '../../../adapters/whatsapp-cloud/graph.js';
import { isIgnored, messageToInbound, quotedId } from '../../../adapters/whatsapp-cloud/inbound.js';
import { deletion, editedMessage } from '../../../adapters/whatsapp-cloud/revisions.js';
import { CommandWords, DEFAULT_COMMANDS } from '../../../src/contract.js';
import { envelope, message, USER } from './envelopes.js';

const graph = new GraphClient({ apiUrl: 'http://127.0.0.1:9/v23.0', accessToken: 'not-used-here' });
const context = { bot: 'main', graph, words: new CommandWords(DEFAULT_COMMANDS) };
const names = new Map([[USER, 'Ana Lima']]);
const ORIGINAL = 'wamid.HBgMORIGINAL';

/** The message as the adapter reads it from a signed body. */
function parsed(fields: Record<string, unknown>): CloudMessage {
  const result = parseWebhook(JSON.stringify(envelope({ messages: [message(fields)] })));
  if (!result.ok) throw new Error(result.reason);
  const [read] = result.changes[0]!.messages;
  if (!read) throw new Error(`set aside: ${JSON.stringify(result.changes[0]!.unreadable)}`);
  return read;
}

const edit = (inner: Record<string, unknown>) =>
  parsed({ type: 'edit', edit: { original_message_id: ORIGINAL, message: inner } });

describe("a user's edit", () => {
  it('is never a question in itself', () => {
    const result = messageToInbound(edit({ type: 'text', text: { body: 'new' } }), names, context);
    expect(isIgnored(result) && result.ignored).toMatch(/edit/);
  });

  it("is the message as it reads now, under the original's wamid, dated by the edit", () => {
    const edited = editedMessage(edit({ type: 'text', text: { body: 'Help' } }))!;
    expect(messageToInbound(edited, names, context)).toMatchObject({
      conversation: { id: USER },
      user: { id: USER, name: 'Ana Lima' },
      text: '/help',
      platformMessageId: ORIGINAL,
      sentAt: 1_760_000_000_000,
    });
  });

  it("keeps a file's new caption and the file, and the message it replied to", () => {
    const edited = editedMessage(
      edit({
        type: 'image',
        image: { id: '900000000000001', mime_type: 'image/jpeg', caption: 'the kitchen, is it new?' },
        context: { from: '15550000001', id: 'wamid.LISTING' },
      }),
    )!;
    expect(messageToInbound(edited, names, context)).toMatchObject({
      text: 'the kitchen, is it new?',
      attachments: [{ kind: 'image' }],
    });
    expect(quotedId(edited)).toBe('wamid.LISTING');
  });

  it('is none without its edit object', () => {
    expect(editedMessage(parsed({ type: 'edit' }))).toBeUndefined();
  });
});

describe("a user's revoke", () => {
  it('is the deletion of the original wamid, by its sender', () => {
    const revoke = parsed({ type: 'revoke', revoke: { original_message_id: ORIGINAL } });
    expect(isIgnored(messageToInbound(revoke, names, context))).toBe(true);
    expect(deletion(revoke, names, 'main')).toEqual({
      kind: 'deleted',
      conversation: { bot: 'main', platform: 'whatsapp-cloud', id: USER },
      user: { id: USER, name: 'Ana Lima' },
      platformMessageId: ORIGINAL,
    });
  });
});

describe('a quote', () => {
  it("is the message a text or file replies to, never the one whose button was pressed, nor a forward's context", () => {
    expect(
      quotedId(parsed({ type: 'text', text: { body: 'this?' }, context: { from: '15550000001', id: 'wamid.A' } })),
    ).toBe('wamid.A');
    const pressed = parsed({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'a:x', title: 'X' } },
      context: { from: '15550000001', id: 'wamid.B' },
    });
    expect(quotedId(pressed)).toBeUndefined();
    expect(quotedId(parsed({ type: 'text', text: { body: 'fwd' }, context: { forwarded: true } }))).toBeUndefined();
  });
});
