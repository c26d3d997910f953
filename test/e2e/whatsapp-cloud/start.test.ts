/**
 * WhatsApp Business Cloud API as a user meets it: `chatbridge start` as a process with only the
 * WHATSAPP_CLOUD_* variables (the Graph API at the fake Cloud API), ADMIN_TOKEN and SMTP_URL, on
 * the default set-up (the embedded demo chatbot of config/demo, which greets, answers about
 * Austin, Denver and Portland, and says what it received in a photo or a voice message). The
 * fake posts Meta's signed webhooks to /whatsapp-cloud/webhook and records what each user sees.
 * Meta's pair rate limit is off here (whatsapp-cloud-delivery.test.ts has the storm); its clock
 * is the test's, so the 24-hour window can pass without waiting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FakeSmtpServer, type ReceivedMail } from '../../../fakes/smtp/server.js';
import { startCloudGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';
import { userTexts } from '../../../src/gateway/index.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-whatsapp-cloud-admin-token';
/** The demo chatbot's (config/demo/chatbot.yaml). */
const WELCOME = "Hi! I'm the Oakridge Homes assistant.";
const OPERATOR_EMAIL = 'agents@oakridge-homes.example';
const HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const WAIT = { timeoutMs: 45_000 };
/** expect.poll's option of the same patience. */
const POLL = { timeout: WAIT.timeoutMs };
const DAY_MS = 24 * 60 * 60_000;

describe('chatbridge start with WhatsApp Cloud: what a user of the business number gets', () => {
  let cloud: CloudProcess;
  let smtp: FakeSmtpServer;
  /** Added to the fake's clock: moves a user's last message more than 24 hours into the past. */
  let clockOffsetMs = 0;

  const conversationOf = (user: string) => `main:whatsapp-cloud:${user}`;
  const texts = (user: string) => cloud.texts(user);
  /** What the bot said, the greeting left out (it names all three cities). */
  const answers = (user: string) => texts(user).filter((text) => !text.startsWith(WELCOME));
  const shows = (user: string, pattern: RegExp) => answers(user).some((text) => pattern.test(text));
  const until = (condition: () => boolean, what: string) => cloud.fake.waitFor(condition, { ...WAIT, what });
  const sendsTo = (user: string) =>
    cloud.fake
      .calls()
      .filter((call) => call.method === 'POST' && (call.body as { to?: string } | undefined)?.to === user);
  const admin = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${cloud.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const recordedUserTexts = async (user: string) => {
    const shown = await admin('GET', `/admin/conversations/${encodeURIComponent(conversationOf(user))}`);
    return ((shown.body as { transcript?: { role: string; text: string }[] }).transcript ?? [])
      .filter((entry) => entry.role === 'user')
      .map((entry) => entry.text);
  };

  beforeAll(async () => {
    smtp = await FakeSmtpServer.start();
    cloud = await startCloudGateway({
      fake: { pairRateLimit: false, clock: () => Date.now() + clockOffsetMs },
      // Each message answered on its own: deliveries are sent back to back; bursts are specified in messages-as-written.
      env: { ADMIN_TOKEN, SMTP_URL: smtp.url, CHATBRIDGE_BURST_MS: '0' },
    });
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
    await smtp?.stop();
  });

  it("answers Meta's handshake with the challenge when the verify token matches, 403 otherwise; on the shared and the bot's path", async () => {
    const ok = await cloud.fake.verifyWebhook();
    expect(ok).toMatchObject({ status: 200, body: ok.challenge });
    expect((await cloud.fake.verifyWebhook({ verifyToken: 'not-the-verify-token' })).status).toBe(403);
    cloud.fake.setWebhook(`${cloud.base}/whatsapp-cloud/main/webhook`);
    try {
      const perBot = await cloud.fake.verifyWebhook();
      expect(perBot).toMatchObject({ status: 200, body: perBot.challenge });
    } finally {
      cloud.fake.setWebhook(`${cloud.base}/whatsapp-cloud/webhook`);
    }
  });

  it('refuses a webhook with a bad or missing signature (401) and never takes its message; another field is acknowledged and ignored', async () => {
    const user = '4915100003001';
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: cloud.fake.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: cloud.fake.displayPhoneNumber,
                  phone_number_id: cloud.fake.phoneNumberId,
                },
                contacts: [{ profile: { name: 'Mallory' }, wa_id: user }],
                messages: [
                  {
                    from: user,
                    id: 'wamid.forged-1',
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'Forged: do you have homes in Denver?' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect((await cloud.fake.postRaw(body, { signature: `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await cloud.fake.postRaw(body, { signature: null })).status).toBe(401);
    expect(await cloud.fake.postOtherField('account_update')).toBe(200);
    // The user's own, signed message is answered; the forged one never reached the conversation.
    await cloud.fake.userSends({ from: user, text: 'Homes in Austin?' });
    await until(() => shows(user, /Austin/), 'the answer to the signed message');
    // The first message also got the greeting, recorded as the user's /start.
    await expect.poll(() => recordedUserTexts(user), POLL).toEqual(['/start', 'Homes in Austin?']);
    expect(answers(user).some((text) => /Denver/.test(text))).toBe(false);
  }, 60_000);

  it('greets a new user, answers a text, and shows "typing…" only on the user\'s own messages', async () => {
    const user = '4915100003002';
    const wamid = await cloud.fake.userSends({ from: user, name: 'Ana Lima', text: 'Do you have homes in Denver?' });
    await until(() => shows(user, /Denver/), 'the answer about Denver');
    expect(texts(user)[0]).toContain(WELCOME);
    expect(answers(user)).toHaveLength(1);
    expect(answers(user)[0]).toMatch(/Denver/);
    // The only read marks are on wamids Meta posted (the fake refuses others with code 100).
    expect(cloud.fake.calls().filter((call) => call.errorCode !== undefined)).toEqual([]);
    for (const mark of cloud.fake.readMarks()) expect(mark.messageId.startsWith('wamid.')).toBe(true);
    expect(wamid.startsWith('wamid.')).toBe(true);
  }, 60_000);

  it('answers a duplicated delivery once, and a reordered one in the order it arrived', async () => {
    const user = '4915100003003';
    await cloud.fake.userSends({ from: user, text: 'Homes in Austin?' }, { duplicate: true });
    await until(() => shows(user, /Austin/), 'the answer about Austin');

    // Meta sends "Denver" first, but it arrives after "Portland": answered in arrival order.
    let release!: () => void;
    const held = cloud.fake.userSends(
      { from: user, text: 'Homes in Denver?' },
      { holdUntil: new Promise<void>((resolve) => (release = resolve)) },
    );
    await cloud.fake.userSends({ from: user, text: 'Homes in Portland?' });
    release();
    await held;
    await until(() => shows(user, /Denver/) && shows(user, /Portland/), 'the answers about Portland and Denver');
    const said = answers(user);
    expect(said).toHaveLength(3);
    expect(said[0]).toMatch(/Austin/);
    expect(said[1]).toMatch(/Portland/);
    expect(said[2]).toMatch(/Denver/);
    await expect
      .poll(() => recordedUserTexts(user), POLL)
      .toEqual(['/start', 'Homes in Austin?', 'Homes in Portland?', 'Homes in Denver?']);
  }, 60_000);

  it('answers a voice note and a photo with what they are; refuses a video too large by the size Meta announces, downloading nothing', async () => {
    const user = '4915100003004';
    await cloud.fake.userSends({
      from: user,
      audio: {
        bytes: readFileSync(join(FIXTURES, 'voice-440hz-2s.ogg')),
        mimeType: 'audio/ogg; codecs=opus',
        voice: true,
      },
    });
    await until(() => shows(user, /^Thanks, I received your voice message/), 'the answer to the voice note');
    // OGG/Opus converted to WAV, 2 seconds long: the demo service says what it received.
    expect(texts(user).find((text) => text.startsWith('Thanks, I received your voice message'))).toMatch(
      /^Thanks, I received your voice message \(WAV, 2\.0 seconds, /,
    );

    await cloud.fake.userSends({
      from: user,
      image: { bytes: readFileSync(join(FIXTURES, 'tiny.jpg')), mimeType: 'image/jpeg' },
    });
    await until(() => shows(user, /^Thanks, I received your photo/), 'the answer to the photo');
    expect(texts(user).find((text) => text.startsWith('Thanks, I received your photo'))).toMatch(
      /^Thanks, I received your photo \(JPEG, 16×16 pixels, /,
    );
    // Both fetched from the media origin with the token.
    expect(
      cloud.fake
        .mediaDownloads()
        .filter((d) => d.bytes > 0)
        .every((d) => d.authorized),
    ).toBe(true);

    const downloads = cloud.fake.mediaDownloads().length;
    await cloud.fake.userSends({
      from: user,
      video: {
        bytes: readFileSync(join(FIXTURES, 'tiny.mp4')),
        mimeType: 'video/mp4',
        declaredSize: 300 * 1024 * 1024,
      },
    });
    await until(() => shows(user, /^This video is 300 MB/), 'the refusal of the video');
    expect(cloud.fake.mediaDownloads()).toHaveLength(downloads);
  }, 60_000);

  it('pages listings with reply buttons: "Next »" shows the next page', async () => {
    const user = '4915100003005';
    await cloud.fake.userSends({ from: user, text: 'listings' });
    const withNext = () =>
      cloud.fake.visibleMessages(user).find((m) => m.interactive?.buttons?.some((b) => b.title === 'Next »'));
    await until(() => withNext() !== undefined, 'a listings page with a Next button');
    expect(texts(user).join('\n')).toMatch(/page 1 of 2/);
    const page = withNext()!;
    const next = page.interactive!.buttons!.find((b) => b.title === 'Next »')!;
    await cloud.fake.userSends({ from: user, buttonReply: { id: next.id, title: next.title, contextId: page.id } });
    await until(() => shows(user, /page 2 of 2/), 'the second page');
    for (const message of cloud.fake.visibleMessages(user)) {
      for (const button of message.interactive?.buttons ?? []) expect([...button.title].length).toBeLessThanOrEqual(20);
    }
  }, 60_000);

  it('131047 ends the turn without a retry, warned and counted on /metrics; a failed status is counted by its code', async () => {
    const user = '4915100003006';
    await cloud.fake.userSends({ from: user, text: 'Homes in Austin?' });
    await until(() => shows(user, /Austin/), 'the first answer');
    const shown = answers(user).length;

    cloud.fake.failNext({ code: 131047, to: user });
    await cloud.fake.userSends({ from: user, text: 'Homes in Denver?' });
    await until(() => sendsTo(user).some((call) => call.errorCode === 131047), 'the 131047');
    await cloud.fake.userSends({ from: user, text: 'Homes in Portland?' });
    await until(() => shows(user, /Portland/), 'the answer to the next message');
    // Answered in order: by the time Portland's answer went, Denver's turn had ended; it was tried once.
    expect(sendsTo(user).filter((call) => call.errorCode === 131047)).toHaveLength(1);
    expect(answers(user).slice(shown)).toHaveLength(1);
    expect(answers(user).some((text) => /Denver/.test(text))).toBe(false);
    expect(await cloud.metric('chatbridge_window_closed_total')).toEqual([
      'chatbridge_window_closed_total{platform="whatsapp-cloud",bot="main"} 1',
    ]);
    expect(cloud.gateway.log()).toMatch(/"level":40[^\n]*131047/);

    // Meta takes an answer, then reports it failed (131026: the user's phone cannot receive it).
    cloud.fake.failNext({ code: 131026, to: user, via: 'status' });
    await cloud.fake.userSends({ from: user, text: 'Homes in Austin again?' });
    await expect
      .poll(() => cloud.metric('chatbridge_platform_delivery_failed_total'), POLL)
      .toEqual(['chatbridge_platform_delivery_failed_total{platform="whatsapp-cloud",bot="main",code="131026"} 1']);
  }, 60_000);

  it("hands a user to a person: handoff reply, e-mail, silence while paused, the operator's message, refused with a reason past 24 h, and back", async () => {
    const user = '4915100003007';
    const conversation = encodeURIComponent(conversationOf(user));
    await cloud.fake.userSends({ from: user, name: 'Bruno Costa', text: 'Do you have homes in Denver?' });
    await until(() => shows(user, /Denver/), 'the answer about Denver');

    await cloud.fake.userSends({ from: user, name: 'Bruno Costa', text: 'human' });
    await until(() => texts(user).at(-1) === HANDOFF_REPLY, 'the handoff reply');
    const mails = (): ReceivedMail[] =>
      smtp
        .to(OPERATOR_EMAIL)
        .filter(
          (mail) =>
            mail.subject.includes('wants a person') && mail.text.includes(`Conversation: ${conversationOf(user)}`),
        );
    await until(() => mails().length === 1, 'the handoff e-mail');
    expect(mails()[0]!.subject).toBe(
      'Handoff: Bruno Costa on whatsapp-cloud wants a person (Oakridge Homes assistant)',
    );
    expect(mails()[0]!.text).toContain('User (Bruno Costa): Do you have homes in Denver?');

    // Paused: recorded, not answered, not even "typing…".
    const paused = texts(user);
    const marks = cloud.fake.readMarks().filter((mark) => mark.typing).length;
    const quiet = await cloud.fake.userSends({
      from: user,
      name: 'Bruno Costa',
      text: 'Are there any in Portland too?',
    });
    await expect.poll(() => recordedUserTexts(user), POLL).toContain('Are there any in Portland too?');
    expect(texts(user)).toEqual(paused);
    expect(cloud.fake.readMarks().filter((mark) => mark.typing && mark.messageId === quiet)).toEqual([]);
    expect(cloud.fake.readMarks().filter((mark) => mark.typing)).toHaveLength(marks);

    const operatorText = "Hello, I'm Dana from Oakridge Homes";
    expect(await admin('POST', `/admin/conversations/${conversation}/messages`, { text: operatorText })).toEqual({
      status: 200,
      body: { conversation: conversationOf(user), sent: true },
    });
    await until(() => texts(user).at(-1) === operatorText, "the operator's message");

    // A day later the window is closed: the operator is told at once that a template is needed.
    clockOffsetMs = DAY_MS + 60_000;
    const late = await admin('POST', `/admin/conversations/${conversation}/messages`, { text: 'Are you still there?' });
    expect(late.status).toBe(422);
    expect(JSON.stringify(late.body)).toMatch(/template/i);
    expect(texts(user).at(-1)).toBe(operatorText);

    // The user writes again (the window opens), the operator hands back, and the bot answers again.
    await cloud.fake.userSends({ from: user, name: 'Bruno Costa', text: 'Hello?' });
    await expect.poll(() => recordedUserTexts(user), POLL).toContain('Hello?');
    expect(await admin('POST', `/admin/conversations/${conversation}/resume`)).toEqual({
      status: 200,
      body: { conversation: conversationOf(user), resumed: true },
    });
    await until(() => texts(user).at(-1) === userTexts.handoff.botIsBack, 'the assistant-is-back notice');
    await cloud.fake.userSends({ from: user, name: 'Bruno Costa', text: 'Which homes do you have in Austin?' });
    await until(() => /Austin/.test(texts(user).at(-1)!), 'an answer about Austin after the hand-back');
  }, 90_000);
});
