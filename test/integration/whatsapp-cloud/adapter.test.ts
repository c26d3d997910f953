/**
 * The WhatsApp Cloud adapter against the fake Cloud API (fakes/whatsapp-cloud), its platform
 * storage on real Redis: what each webhook is answered (and so when Meta sends it again), what
 * reaches the core, how each Graph refusal reaches it as a PlatformError kind, files, doctor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkWhatsAppCloud } from '../../../adapters/whatsapp-cloud/doctor.js';
import { AttachmentTooLargeError, PlatformError, type ConversationRef, type Inbound } from '../../../src/contract.js';
import { signWebhook } from '../../../fakes/whatsapp-cloud/index.js';
import { startCloudStack, type CloudStack } from './cloud-stack.js';

const USER = '4915112345678';
const OTHER = '4917600000002';
const conversation: ConversationRef = { bot: 'main', platform: 'whatsapp-cloud', id: USER };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const stacks: CloudStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});
async function setup(options: Parameters<typeof startCloudStack>[0] = {}): Promise<CloudStack> {
  const stack = await startCloudStack(options);
  stacks.push(stack);
  return stack;
}

/** The messages the core got, without the greetings queued before first messages. */
const questions = (stack: CloudStack): Inbound[] =>
  stack.sink.received.filter((m) => !m.platformMessageId.startsWith('welcome:'));

async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

describe('WhatsApp Cloud webhook', () => {
  it("answers Meta's handshake with the challenge when the verify token matches, 403 otherwise", async () => {
    const { fake } = await setup();
    const ok = await fake.verifyWebhook();
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(ok.challenge);
    expect((await fake.verifyWebhook({ verifyToken: 'not-the-verify-token' })).status).toBe(403);
  });

  it("refuses a body whose signature does not verify (401), a signed body not in Meta's shape (400), and acknowledges other fields", async () => {
    const { fake, sink } = await setup();
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    expect((await fake.postRaw(body, { signature: null })).status).toBe(401);
    expect((await fake.postRaw(body, { signature: `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await fake.postRaw(body, { signature: signWebhook('another-app-secret', Buffer.from(body)) })).status).toBe(
      401,
    );
    expect((await fake.postRaw(body)).status).toBe(200);
    const notMeta = await fake.postRaw(
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ changes: [{ field: 'messages', value: { messages: [] } }] }],
      }),
    );
    expect(notMeta.status).toBe(400);
    expect(notMeta.body).toMatch(/metadata/);
    expect((await fake.postRaw('{"not": json')).status).toBe(400);
    expect(await fake.postOtherField('account_update')).toBe(200);
    expect(await fake.postOtherField('message_template_status_update')).toBe(200);
    expect(sink.received).toEqual([]);
  });

  it('checks the signature over the raw bytes: text with accents and an emoji, escaped as Meta sends it, is taken as written', async () => {
    const { fake, sink } = await setup();
    await fake.userSends({ from: USER, name: 'José Müller', text: 'Olá! Há casas em São Paulo? 🏡' });
    expect(questions({ fake, sink } as CloudStack).map((m) => [m.text, m.user.name])).toEqual([
      ['Olá! Há casas em São Paulo? 🏡', 'José Müller'],
    ]);
  });

  it('answers 500 when a message could not be queued; Meta sends it again, and it is queued then', async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    stack.sink.failuresToCome = 1;
    const wamid = await stack.fake.userSends({ from: USER, text: 'hello' });
    expect(
      stack.fake
        .webhookAttempts()
        .filter((a) => a.kind === 'message')
        .map((a) => a.status),
    ).toEqual([500, 200]);
    expect(stack.sink.received.map((m) => [m.text, m.platformMessageId])).toEqual([['hello', wamid]]);
    expect(stack.adapter.redeliversOnAcceptFailure).toBe(true);
  });

  it("acknowledges a batch once all its messages are queued, each user's in order", async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    await stack.fake.usersSendTogether([
      { from: USER, text: 'first' },
      { from: OTHER, text: 'other user' },
      { from: USER, text: 'second' },
    ]);
    const ofUser = (id: string) => stack.sink.received.filter((m) => m.conversation.id === id).map((m) => m.text);
    expect(ofUser(USER)).toEqual(['first', 'second']);
    expect(ofUser(OTHER)).toEqual(['other user']);
  });

  it("queues the WelcomeMessage command before a user's first message only, from any replica", async () => {
    const stack = await setup();
    await stack.fake.userSends({ from: USER, text: 'Homes in Austin?' });
    await stack.fake.userSends({ from: USER, text: 'And in Dallas?' });
    expect(stack.sink.received.map((m) => m.text)).toEqual(['/start', 'Homes in Austin?', 'And in Dallas?']);
    expect(stack.sink.received[0]!.platformMessageId).toBe(`welcome:${stack.sink.received[1]!.platformMessageId}`);
    // A user who types "start" first is greeted by that alone.
    await stack.fake.userSends({ from: OTHER, text: 'Start' });
    expect(stack.sink.received.filter((m) => m.conversation.id === OTHER).map((m) => m.text)).toEqual(['/start']);
  });

  it('never hands the core an edit or a revoke (Meta posts them as unsupported), and tells it of what the bot cannot read', async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    await stack.fake.userSends({ from: USER, unsupported: true });
    await stack.fake.userSends({ from: USER, location: { latitude: 30.26, longitude: -97.74 } });
    await stack.fake.userSends({ from: USER, sticker: true });
    expect(stack.sink.received.map((m) => m.attachments.map((a) => a.kind))).toEqual([['other'], ['sticker']]);
  });

  it('never answers a status, and counts a failed one once however often Meta sends it', async () => {
    const stack = await setup();
    await stack.fake.userSends({ from: USER, text: 'hi' });
    const before = stack.sink.received.length;
    stack.fake.failNext({ code: 131026, via: 'status' });
    const sent = await stack.adapter.outbound.send(conversation, { text: 'An answer Meta takes, then cannot deliver' });
    await stack.fake.waitFor(() => stack.fake.webhookAttempts().some((a) => a.kind === 'status' && a.status === 200), {
      what: 'the failed status',
    });
    expect(stack.failedStatuses).toEqual(['131026']);
    // Meta sends the same status again: counted once.
    const again = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: stack.fake.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: stack.fake.displayPhoneNumber,
                  phone_number_id: stack.fake.phoneNumberId,
                },
                statuses: [
                  {
                    id: sent.id,
                    status: 'failed',
                    timestamp: '1760000000',
                    recipient_id: USER,
                    errors: [{ code: 131026, title: 'Message Undeliverable' }],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect((await stack.fake.postRaw(again)).status).toBe(200);
    expect(stack.failedStatuses).toEqual(['131026']);
    expect(stack.sink.received).toHaveLength(before);
  });
});

describe('WhatsApp Cloud outbound', () => {
  it('sends text, and choices as reply buttons, a list, or numbered text that a reply with the number answers', async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    const { fake, adapter } = stack;
    await fake.userSends({ from: USER, text: 'hi' });
    await adapter.outbound.send(conversation, { text: '*Hello* there' });
    await adapter.outbound.send(conversation, {
      text: '*Listings* · page 1 of 3',
      buttons: [{ label: 'Next »', value: 'listings:2:' }],
    });
    await adapter.outbound.send(conversation, {
      text: 'Welcome!',
      suggestions: ['Homes with a garden', 'Flats near the river', 'Pets allowed?', 'Anything under $300k?'],
    });
    const long = Array.from({ length: 11 }, (_, i) => `Question number ${i + 1}, asked in full?`);
    await adapter.outbound.send(conversation, { text: 'Welcome!', suggestions: long });
    const seen = fake.visibleMessages(USER);
    expect(seen.map((m) => [m.type, m.interactive?.type ?? null])).toEqual([
      ['text', null],
      ['interactive', 'button'],
      ['interactive', 'list'],
      ['text', null],
    ]);
    expect(seen[0]!.text).toBe('*Hello* there');
    expect(seen[1]!.interactive?.buttons).toEqual([{ id: 'a:listings:2:', title: 'Next »' }]);
    expect(seen[2]!.interactive?.sections?.[0]?.rows.map((row) => row.title)).toEqual([
      'Homes with a garden',
      'Flats near the river',
      'Pets allowed?',
      'Anything under $300k?',
    ]);
    long.forEach((question, i) => expect(seen[3]!.text).toContain(`${i + 1}. ${question}`));

    // The user answers: a button, a row, a number.
    await fake.userSends({ from: USER, buttonReply: { id: 'a:listings:2:', title: 'Next »', contextId: seen[1]!.id } });
    await fake.userSends({
      from: USER,
      listReply: { id: 's:Pets allowed?', title: 'Pets allowed?', contextId: seen[2]!.id },
    });
    await fake.userSends({ from: USER, text: '11' });
    const [button, row, number] = stack.sink.received.slice(-3);
    expect(button!.action).toEqual({ id: button!.platformMessageId, value: 'listings:2:' });
    expect(row!.text).toBe('Pets allowed?');
    expect(number!.text).toBe(long[10]);
    // Once the bot said something else, a number is a number.
    await adapter.outbound.send(conversation, { text: 'How many bedrooms?' });
    await fake.userSends({ from: USER, text: '3' });
    expect(stack.sink.received.at(-1)!.text).toBe('3');
  });

  it("sends a page longer than a button's text first, then its buttons: two messages, nothing cut", async () => {
    const { fake, adapter } = await setup({ adapter: { welcomeNewUsers: false } });
    await fake.userSends({ from: USER, text: 'listings' });
    const page = Array.from(
      { length: 20 },
      (_, i) => `*${i + 1}. House* · 3 bd · 2 ba — $${400 + i},000\n123 Oak Street, Austin, TX`,
    ).join('\n\n');
    expect(page.length).toBeGreaterThan(1024);
    await adapter.outbound.send(conversation, {
      text: page,
      buttons: [
        { label: '« Previous', value: 'listings:1:' },
        { label: 'Next »', value: 'listings:3:' },
      ],
    });
    const seen = fake.visibleMessages(USER);
    expect(seen.map((m) => m.type)).toEqual(['text', 'interactive']);
    expect(seen[0]!.text).toBe(page);
    expect(seen[1]!.interactive?.buttons?.map((b) => b.title)).toEqual(['« Previous', 'Next »']);
  });

  it('marks the message being answered read with the typing indicator, on its own wamid', async () => {
    const { fake, adapter } = await setup();
    const wamid = await fake.userSends({ from: USER, text: 'hi' });
    await adapter.outbound.typing!(conversation, { platformMessageId: wamid });
    // The greeting before a first message carries that message's wamid.
    await adapter.outbound.typing!(conversation, { platformMessageId: `welcome:${wamid}` });
    expect(fake.readMarks().map((mark) => [mark.messageId, mark.typing])).toEqual([
      [wamid, true],
      [wamid, true],
    ]);
  });

  it('waits out the pair rate limit and delivers, at most 30 s between tries in production (milliseconds here)', async () => {
    const { fake, adapter } = await setup();
    await fake.userSends({ from: USER, text: 'hi' });
    fake.failNext({ code: 131056, times: 3, to: USER });
    await adapter.outbound.send(conversation, { text: 'Delivered after the storm' });
    const sends = fake.calls().filter((call) => call.method === 'POST' && call.path.endsWith('/messages'));
    expect(sends.map((call) => [call.status, call.errorCode ?? null])).toEqual([
      [400, 131056],
      [400, 131056],
      [400, 131056],
      [200, null],
    ]);
    expect(fake.visibleMessages(USER).map((m) => m.text)).toEqual(['Delivered after the storm']);
  });

  it('still waits out a rate limit after the adapter was stopped and started again', async () => {
    const { fake, adapter, sink } = await setup();
    await fake.userSends({ from: USER, text: 'hi' });
    await adapter.stop();
    await adapter.start(sink);
    fake.failNext({ code: 131056, times: 2, to: USER });
    await adapter.outbound.send(conversation, { text: 'after a restart' });
    expect(fake.visibleMessages(USER).map((m) => m.text)).toEqual(['after a restart']);
  });

  it('is rate-limited with the next pause once its patience is over, or at once for an intermediate render', async () => {
    const { fake, adapter } = await setup({ adapter: { rateLimitPatienceMs: 0 } });
    await fake.userSends({ from: USER, text: 'hi' });
    fake.failNext({ code: 130429, times: 2, httpStatus: 429 });
    const throughput = await refusal(adapter.outbound.send(conversation, { text: 'final' }));
    expect([throughput.kind, throughput.platformCode]).toEqual(['rate-limited', '130429']);
    expect(throughput.retryAfterMs).toBeGreaterThan(0);
    const progress = await refusal(adapter.outbound.send(conversation, { text: 'partial', progress: true }));
    expect(progress.kind).toBe('rate-limited');
    expect(fake.visibleMessages(USER)).toEqual([]);
  });

  it('refuses at once, and once, to write a user whose 24 hours have passed: window-closed, code 131047', async () => {
    let offsetMs = 0;
    const { fake, adapter } = await setup({ fake: { clock: () => Date.now() + offsetMs } });
    await fake.userSends({ from: USER, text: 'hi' });
    offsetMs = 25 * 60 * 60_000;
    const closed = await refusal(adapter.outbound.send(conversation, { text: 'a day later' }));
    expect([closed.kind, closed.platformCode]).toEqual(['window-closed', '131047']);
    expect(closed.message).toMatch(/template/);
    expect(fake.calls().filter((call) => call.errorCode === 131047)).toHaveLength(1);
    // The user writes again: the window is open again.
    await fake.userSends({ from: USER, text: 'back' });
    await adapter.outbound.send(conversation, { text: 'welcome back' });
    expect(fake.visibleMessages(USER).map((m) => m.text)).toEqual(['welcome back']);
  });

  it('names the setting when Meta refuses the token, and never shows the token', async () => {
    const token = 'EAAwrong-token-0123456789';
    const { fake, adapter } = await setup({ adapter: { accessToken: token } });
    await fake.userSends({ from: USER, text: 'hi' });
    const refused = await refusal(adapter.outbound.send(conversation, { text: 'x' }));
    // Refused for the token, not for this message: the core waits it out, the adapter says it is not connected.
    expect(refused.kind).toBe('unauthorized');
    expect(refused.platformCode).toBe('190');
    expect(adapter.status?.()).toMatchObject({
      connected: false,
      reason: expect.stringMatching(/WHATSAPP_CLOUD_ACCESS_TOKEN/),
    });
    expect(refused.message).toMatch(/WHATSAPP_CLOUD_ACCESS_TOKEN/);
    expect(refused.message).not.toContain(token);
  });

  it('is unreachable while the Graph API does not answer, so the core keeps the answer', async () => {
    const stack = await setup();
    await stack.fake.userSends({ from: USER, text: 'hi' });
    await stack.fake.close();
    const down = await refusal(stack.adapter.outbound.send(conversation, { text: 'x' }));
    expect(down.kind).toBe('unreachable');
  });
});

describe('WhatsApp Cloud files', () => {
  it('downloads a photo with the token from the origin Meta names, and again by its ref in another replica', async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    await stack.fake.userSends({ from: USER, image: { bytes: PNG, mimeType: 'image/png', caption: 'this one?' } });
    const [photo] = stack.sink.received;
    const attachment = photo!.attachments[0]!;
    expect([photo!.text, attachment.kind, attachment.mimeType]).toEqual(['this one?', 'image', 'image/png']);
    expect(Buffer.from(await attachment.fetch({ maxBytes: 5 * 1024 * 1024 })).equals(PNG)).toBe(true);
    const restored = stack.replica().restoreAttachment!(attachment.ref!, { kind: 'image', mimeType: 'image/png' });
    expect(Buffer.from(await restored.fetch({ maxBytes: 5 * 1024 * 1024 })).equals(PNG)).toBe(true);
    expect(stack.fake.mediaDownloads().map((d) => [d.mediaId, d.authorized, d.bytes])).toEqual([
      [attachment.ref, true, PNG.length],
      [attachment.ref, true, PNG.length],
    ]);
    expect(new URL(stack.fake.mediaOrigin).origin).not.toBe(new URL(stack.fake.apiUrl).origin);
  });

  it('refuses a video over the cap by the size Meta announces, before any byte is downloaded', async () => {
    const stack = await setup({ adapter: { welcomeNewUsers: false } });
    const announced = 20 * 1024 * 1024;
    await stack.fake.userSends({ from: USER, video: { bytes: PNG, mimeType: 'video/mp4', declaredSize: announced } });
    const attachment = stack.sink.received[0]!.attachments[0]!;
    const error = await attachment.fetch({ maxBytes: 16 * 1024 * 1024 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect((error as AttachmentTooLargeError).actualBytes).toBe(announced);
    // The core's refusal can name the size: the attachment declares it now.
    expect(attachment.size).toBe(announced);
    expect(stack.fake.mediaDownloads()).toEqual([]);
  });
});

describe('WhatsApp Cloud doctor', () => {
  it('reads the number with the token, and says when the app is not subscribed to the WABA', async () => {
    const { fake } = await setup();
    const input = {
      accessToken: fake.accessToken,
      phoneNumberId: fake.phoneNumberId,
      wabaId: fake.wabaId,
      apiUrl: fake.apiUrl,
    };
    await expect(checkWhatsAppCloud(input, 'main')).rejects.toThrow(
      `not subscribed: POST /${fake.wabaId}/subscribed_apps`,
    );
    const subscribed = await fetch(`${fake.apiUrl}/${fake.wabaId}/subscribed_apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.accessToken}` },
    });
    expect(subscribed.status).toBe(200);
    expect(await checkWhatsAppCloud(input, 'main')).toMatch(/subscribed/);
    expect(await checkWhatsAppCloud({ ...input, wabaId: undefined }, 'main')).toMatch(/not checked/);
  });

  it('names the setting to fix: the token, the phone number id, the API URL', async () => {
    const { fake } = await setup();
    const input = { accessToken: fake.accessToken, phoneNumberId: fake.phoneNumberId, apiUrl: fake.apiUrl };
    await expect(checkWhatsAppCloud({ ...input, accessToken: 'EAAnot-the-token-000000' }, 'main')).rejects.toThrow(
      /WHATSAPP_CLOUD_ACCESS_TOKEN/,
    );
    await expect(checkWhatsAppCloud({ ...input, phoneNumberId: '999' }, 'main')).rejects.toThrow(
      /WHATSAPP_CLOUD_PHONE_NUMBER_ID/,
    );
    await expect(checkWhatsAppCloud({ ...input, apiUrl: 'http://127.0.0.1:9/v23.0' }, 'main')).rejects.toThrow(
      /WHATSAPP_CLOUD_API_URL/,
    );
  });
});
