/**
 * A photo whose file Meta no longer has, as a user of the business number meets it: `chatbridge
 * start` on the default set-up (the embedded demo chatbot, which answers about Austin listings),
 * the fake Cloud API forgetting the media id (`GET /{media-id}` answers 400, code 100) or keeping
 * the id but no longer serving the file (its url answers 404, as an expired one does). The
 * caption is a question and is answered, after a note that says the photo could not be read and
 * why; a photo too large is said to be too large, never "gone"; a photo alone that is gone gets
 * that note and nothing else.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserMessage } from '../../../fakes/whatsapp-cloud/index.js';
import { startCloudGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';

const JPEG = readFileSync(join(import.meta.dirname, '../../fixtures/media/tiny.jpg'));
const CAPTION = 'Is this one for sale? 3 bedroom homes for sale in Austin';
/** The demo chatbot's greeting (config/demo/chatbot.yaml), sent before a user's first message. */
const WELCOME = "Hi! I'm the Oakridge Homes assistant.";
const WAIT = { timeoutMs: 45_000 };
const GONE =
  /^I couldn't read this photo: the chat no longer has its file \(it expired or was deleted\)\. Please send it again\./;
const ANSWERED_WITHOUT = /I'm answering your message without it\.$/;

describe('chatbridge start with WhatsApp Cloud: a photo whose file is gone', () => {
  let cloud: CloudProcess;

  /** What the bot said to `user`, the greeting left out. */
  const answers = (user: string) => cloud.texts(user).filter((text) => !text.startsWith(WELCOME));
  const until = (condition: () => boolean, what: string) => cloud.fake.waitFor(condition, { ...WAIT, what });
  const photo = (vanished?: 'media-id' | 'file', caption = CAPTION): UserMessage['image'] => ({
    bytes: JPEG,
    mimeType: 'image/jpeg',
    ...(caption ? { caption } : {}),
    ...(vanished ? { vanished } : {}),
  });
  /** The note, then an answer about Austin's listings: the caption asked as a question. */
  const noteThenAnswer = async (user: string, note: RegExp) => {
    await until(() => answers(user).length >= 2, 'the note and the answer to the caption');
    const [first, answer] = answers(user);
    expect(first).toMatch(note);
    expect(first).toMatch(ANSWERED_WITHOUT);
    expect(first).not.toMatch(/smaller/);
    expect(answer).toMatch(/Austin/);
    expect(answer).not.toMatch(/photo/i);
  };

  beforeAll(async () => {
    cloud = await startCloudGateway({ fake: { pairRateLimit: false } });
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
  });

  it('answers the caption when Meta no longer knows the media id, saying the photo is gone', async () => {
    const user = '4915100034001';
    await cloud.fake.userSends({ from: user, image: photo('media-id') });
    await noteThenAnswer(user, GONE);
    expect(cloud.fake.mediaDownloads()).toEqual([]);
  }, 60_000);

  it('answers the caption when the media url answers 404 (expired), saying the photo is gone', async () => {
    const user = '4915100034002';
    await cloud.fake.userSends({ from: user, image: photo('file') });
    await noteThenAnswer(user, GONE);
  }, 60_000);

  it('answers the caption of a photo too large, saying it is too large (not gone)', async () => {
    const user = '4915100034003';
    const before = cloud.fake.mediaDownloads().length;
    await cloud.fake.userSends({ from: user, image: { ...photo()!, declaredSize: 300 * 1024 * 1024 } });
    await noteThenAnswer(user, /^This photo is 300 MB/);
    expect(cloud.fake.mediaDownloads()).toHaveLength(before);
  }, 60_000);

  it('tells a user whose photo without a caption is gone that it could not be read, and asks nothing', async () => {
    const user = '4915100034004';
    await cloud.fake.userSends({ from: user, image: photo('media-id', '') });
    await until(() => answers(user).length >= 1, 'the reply to the photo');
    // A later text is answered next: had the photo been asked, its answer would come between.
    await cloud.fake.userSends({ from: user, text: 'Homes in Denver?' });
    await until(() => answers(user).length >= 2, 'the answer to the next text');
    const [reply, next] = answers(user);
    expect(reply).toMatch(GONE);
    expect(reply).not.toMatch(ANSWERED_WITHOUT);
    expect(next).toMatch(/Denver/);
  }, 60_000);
});
