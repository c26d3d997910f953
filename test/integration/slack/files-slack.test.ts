/**
 * Files shared on Slack, through the gateway: the adapter announces each file with the
 * size Slack gave, the core's media policy checks it, and only then is the file downloaded
 * with the bot token, from Slack's own hosts (here: the fake's).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { startSlackStack, type SlackStack } from './slack-stack.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const MB = 1024 * 1024;
const DM = 'D0DM000001';
const ANSWER_TIMEOUT = { timeoutMs: 20_000 };
const MEDIA_SETTINGS = { EnableUploadImage: true, EnablePushToTalk: true };

let stack: SlackStack | undefined;
let foreign: FakeSlack | undefined;
afterEach(async () => {
  await stack?.close();
  await foreign?.close();
  stack = undefined;
  foreign = undefined;
});

const finished = (fake: FakeSlack, channel: string, threadTs?: string) =>
  fake
    .visibleMessages(channel, threadTs)
    .filter((m) => m.state === 'done' && m.text.trim() !== '')
    .map((m) => m.text);

describe('Slack files through the gateway', () => {
  it('answers a photo shared in a DM (downloaded once, with the bot token); its text is the caption', async () => {
    stack = await startSlackStack({ settings: MEDIA_SETTINGS });
    const { fake, post } = stack;
    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), { name: 'house.jpg', mimetype: 'image/jpeg' });
    expect(
      (await post(fake.build.fileShare({ channel: DM, text: 'Is this house for sale?', files: [photo] }))).status,
    ).toBe(200);
    await fake.waitFor(() => finished(fake, DM).length > 0, { ...ANSWER_TIMEOUT, what: 'the answer to the photo' });
    expect(finished(fake, DM).join('\n')).toMatch(/received your photo/i);
    expect(fake.downloads()).toEqual([{ fileId: photo.id, authorized: true }]);
  }, 60_000);

  it('converts a Slack voice clip (slack_audio, MP4/AAC) shared in a DM thread and answers it there', async () => {
    stack = await startSlackStack({ settings: MEDIA_SETTINGS });
    const { fake, post } = stack;
    const clip = fake.addFile(readFileSync(join(FIXTURES, 'audio-only-clip.mp4')), {
      name: 'audio_message.mp4',
      mimetype: 'audio/mp4',
      subtype: 'slack_audio',
    });
    const threadTs = '1700000000.000300';
    await post(fake.build.fileShare({ channel: DM, thread_ts: threadTs, files: [clip] }));
    await fake.waitFor(() => finished(fake, DM, threadTs).length > 0, {
      ...ANSWER_TIMEOUT,
      what: 'the answer to the voice clip',
    });
    expect(finished(fake, DM, threadTs).join('\n')).toMatch(/voice message/i);
  }, 60_000);

  it('refuses a file over the limit by the size Slack announced, naming the limit, without downloading it', async () => {
    stack = await startSlackStack({ settings: MEDIA_SETTINGS });
    const { fake, post } = stack;
    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), {
      name: 'huge.jpg',
      mimetype: 'image/jpeg',
      declaredSize: 25 * MB,
    });
    await post(fake.build.fileShare({ channel: DM, files: [photo] }));
    await fake.waitFor(() => finished(fake, DM).length > 0, { ...ANSWER_TIMEOUT, what: 'the refusal' });
    expect(finished(fake, DM).join('\n')).toMatch(/20 MB/);
    expect(fake.downloads()).toEqual([]);
  }, 60_000);

  it('refuses a file whose download URL is on another host: the bot token is never sent there', async () => {
    stack = await startSlackStack({ settings: MEDIA_SETTINGS });
    const { fake, post } = stack;
    // Another server that would serve the file for the same token: only the host check refuses it.
    foreign = await startFakeSlack({ botToken: fake.botToken });
    const elsewhere = foreign.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), {
      name: 'house.jpg',
      mimetype: 'image/jpeg',
    });
    await post(fake.build.fileShare({ channel: DM, files: [elsewhere] }));
    await fake.waitFor(() => finished(fake, DM).length > 0, { ...ANSWER_TIMEOUT, what: 'the refusal' });
    expect(finished(fake, DM).join('\n')).toMatch(/couldn't download this photo/i);
    expect(foreign.downloads()).toEqual([]);
  }, 60_000);
});

describe('Slack file references (another process serving the bot downloads a queued file)', () => {
  const adapterWith = (fake: FakeSlack, botToken: string) =>
    createSlackAdapter({
      bot: 'main',
      botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      logger: silentLogger(),
    });

  it('rebuilds a shared file from its ref in another adapter instance and downloads the same bytes', async () => {
    foreign = await startFakeSlack();
    const bytes = readFileSync(join(FIXTURES, 'tiny.jpg'));
    const file = foreign.addFile(bytes, { name: 'house.jpg', mimetype: 'image/jpeg' });
    const ref = JSON.stringify({
      url: file.url_private_download,
      size: file.size,
      mimetype: file.mimetype,
      name: file.name,
    });
    const restored = adapterWith(foreign, foreign.botToken).restoreAttachment!(ref, {
      kind: 'image',
      mimeType: 'image/jpeg',
    });
    expect(restored.size).toBe(bytes.byteLength);
    expect(Buffer.from(await restored.fetch({ maxBytes: MB }))).toEqual(bytes);
    expect(foreign.downloads()).toEqual([{ fileId: file.id, authorized: true }]);
  });

  it('says the file is unavailable when Slack answers its HTML sign-in page (a token it will not serve)', async () => {
    foreign = await startFakeSlack();
    const file = foreign.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), {
      name: 'house.jpg',
      mimetype: 'image/jpeg',
    });
    const restored = adapterWith(foreign, 'xoxb-not-this-workspace').restoreAttachment!(
      JSON.stringify({ url: file.url_private_download }),
      { kind: 'image' },
    );
    await expect(restored.fetch({ maxBytes: MB })).rejects.toBeInstanceOf(AttachmentUnavailableError);
    expect(foreign.downloads()).toEqual([{ fileId: file.id, authorized: false }]);
  });

  it('stops reading a file that turns out larger than the cap it was given', async () => {
    foreign = await startFakeSlack();
    const bytes = readFileSync(join(FIXTURES, 'tiny.mp4'));
    // Slack announced less than the file holds: the cap is enforced on the bytes read.
    const file = foreign.addFile(bytes, { name: 'clip.mp4', mimetype: 'video/mp4', declaredSize: 10 });
    const restored = adapterWith(foreign, foreign.botToken).restoreAttachment!(
      JSON.stringify({ url: file.url_private_download, size: 10 }),
      { kind: 'video' },
    );
    await expect(restored.fetch({ maxBytes: 100 })).rejects.toBeInstanceOf(AttachmentTooLargeError);
  });
});
