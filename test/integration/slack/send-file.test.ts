/**
 * An operator's file sent to a Slack user (Outbound.sendFile): uploaded with upload v2 into
 * the user's conversation, into its thread where the conversation is one, the caption as the
 * file's comment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/index.js';
import { silentLogger } from '../../../src/logger.js';
import { DEFAULT_SCOPES, startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';

const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function adapterOn(slack: FakeSlack): Promise<SlackAdapter> {
  return createSlackAdapter({
    bot: 'main',
    botToken: slack.botToken,
    signingSecret: slack.signingSecret,
    apiUrl: slack.apiUrl,
    logger: silentLogger(),
  });
}

describe('sending a file to a Slack user', () => {
  it('uploads it into the DM with its caption', async () => {
    fake = await startFakeSlack({ rateLimits: false, scopes: [...DEFAULT_SCOPES, 'files:write'] });
    const adapter = await adapterOn(fake);
    const conversation = { bot: 'main', platform: 'slack', id: 'D0DM000001' };
    const sent = await adapter.outbound.sendFile!(conversation, {
      bytes: PHOTO,
      fileName: 'plan.jpg',
      mimeType: 'image/jpeg',
      caption: 'The *floor plan*',
    });
    const [message] = fake.visibleMessages('D0DM000001');
    expect(message).toMatchObject({ sentWith: 'files.completeUploadExternal', text: 'The *floor plan*' });
    expect(message!.files).toEqual([expect.objectContaining({ id: sent.id, name: 'plan.jpg', bytes: PHOTO })]);
  });

  it("uploads into the conversation's thread, through the conversation's own outbound too", async () => {
    fake = await startFakeSlack({ rateLimits: false, scopes: [...DEFAULT_SCOPES, 'files:write'] });
    const adapter = await adapterOn(fake);
    const conversation = { bot: 'main', platform: 'slack', id: 'C0CHAN0001:1700000000.000100' };
    await adapter.outboundFor!(conversation, true).sendFile!(conversation, { bytes: PHOTO, fileName: 'a.jpg' });
    const [message] = fake.visibleMessages('C0CHAN0001', '1700000000.000100');
    expect(message!.files).toHaveLength(1);
  });

  it('declares the upload and caption limits, and refuses without files:write naming the scope', async () => {
    fake = await startFakeSlack({ rateLimits: false });
    const adapter = await adapterOn(fake);
    expect(adapter.capabilities).toMatchObject({ maxUploadBytes: 100 * 1024 * 1024, maxCaptionLength: 3000 });
    const conversation = { bot: 'main', platform: 'slack', id: 'D0DM000001' };
    await expect(adapter.outbound.sendFile!(conversation, { bytes: PHOTO, fileName: 'a.jpg' })).rejects.toThrow(
      /files\.uploadV2.*missing_scope/,
    );
  });
});
