import { describe, expect, it } from 'vitest';
import { CommandWords, DEFAULT_COMMANDS } from '../../../src/contract.js';
import { editToRevision, revokeToRevision } from '../../../adapters/whatsapp/revisions.js';
import { BOT_WID, USER, waMessage } from './messages.js';

const context = {
  bot: 'main',
  identity: { wid: BOT_WID, user: '4915100000000' },
  words: new CommandWords(DEFAULT_COMMANDS),
};

describe("a user's edit", () => {
  it('is the message as it reads now, under its own id', async () => {
    const message = waMessage({ body: 'old' });
    expect(await editToRevision(message, 'new text', 'old', context)).toMatchObject({
      kind: 'edited',
      message: { text: 'new text', platformMessageId: message.id._serialized },
    });
  });

  it("is none for the bot's own message or a body that did not change", async () => {
    expect(await editToRevision(waMessage({ fromMe: true }), 'b', 'a', context)).toEqual({ ignored: 'own message' });
    expect(await editToRevision(waMessage({}), 'same', 'same', context)).toEqual({ ignored: 'text unchanged' });
  });

  it("reads a media message's caption from the library, not the event's body", async () => {
    const photo = waMessage({
      type: 'image',
      hasMedia: true,
      body: 'the new caption',
      rawData: { mimetype: 'image/jpeg' },
    });
    const revision = await editToRevision(photo, 'data:thumbnail', 'the old caption', context);
    expect(revision).toMatchObject({ kind: 'edited', message: { text: 'the new caption' } });
  });
});

describe("a user's deletion", () => {
  it("names the message it was by protocolMessageKey, else by the library's copy, else by its own id", () => {
    const original = waMessage({ body: 'oops' });
    const revoked = waMessage({ type: 'revoked', body: '' });
    const withKey = { ...revoked, protocolMessageKey: original.id };
    const id = (revision: ReturnType<typeof revokeToRevision>) =>
      'kind' in revision && revision.kind === 'deleted' && revision.platformMessageId;
    expect(id(revokeToRevision(withKey, null, 'main'))).toBe(original.id._serialized);
    expect(id(revokeToRevision(revoked, original, 'main'))).toBe(original.id._serialized);
    expect(id(revokeToRevision(revoked, undefined, 'main'))).toBe(revoked.id._serialized);
  });

  it("is none for the bot's own message or a status", () => {
    expect(revokeToRevision(waMessage({ fromMe: true, type: 'revoked' }), null, 'main')).toEqual({
      ignored: 'own message',
    });
    expect(revokeToRevision(waMessage({ from: 'status@broadcast', isStatus: true }), null, 'main')).toMatchObject({
      ignored: expect.any(String),
    });
    expect(revokeToRevision(waMessage({ from: USER }), null, 'main')).toMatchObject({ kind: 'deleted' });
  });
});
