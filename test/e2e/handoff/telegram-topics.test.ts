/**
 * Operators answer handed-over conversations from a Telegram forum topic, end to end:
 * `chatbridge start` as a process with Telegram (its users, and the operators' supergroup
 * HANDOFF_TELEGRAM_CHAT on the same bot) and WhatsApp Cloud for its users, ADMIN_TOKEN, on the
 * default set-up (the embedded demo chatbot, whose handoff settings are in config/demo/chatbot.yaml).
 * Real grammY in the process talks to the fake Telegram in this one; the fake Cloud API posts
 * its webhooks to the process. Last, two such processes in webhook mode on one Redis behind a
 * round-robin load balancer: still one topic per handoff, each operator message delivered once.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from 'grammy/types';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import { startFakeTelegram, type FakeTelegram, type TopicState } from '../../../fakes/telegram/index.js';
import {
  SERVICE_WINDOW_MS,
  startFakeWhatsAppCloud,
  type FakeWhatsAppCloud,
} from '../../../fakes/whatsapp-cloud/index.js';
import { userTexts } from '../../../src/gateway/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { runDoctor } from '../../support/doctor-process.js';
import { addOperatorAccount } from '../../support/operator-accounts.js';
import { testRedisUrl } from '../../support/redis.js';
import { cloudEnv } from '../../support/whatsapp-cloud-process.js';
import { eventually } from '../../unit/gateway/support/recording-adapter.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-telegram-topics-admin-token';
/** The demo chatbot's TalkToHumanResponseMessage (config/demo/chatbot.yaml). */
const HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
/** The operators' supergroup with topics. */
const FORUM = -1001500000001;
/** People of the support team, members of the group. */
const BRUNO = { id: 701, first_name: 'Bruno', last_name: 'Costa', username: 'bruno_support' };
const CARLA = { id: 702, first_name: 'Carla', last_name: 'Dias' };
/** A member whose Telegram user id an operator account lists. */
const DANA = { id: 703, first_name: 'Dana', last_name: 'S' };
const PNG = readFileSync(join(import.meta.dirname, '../../fixtures/media/tiny.png'));
/** A document's first bytes: enough for the type to be read from them. */
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0x25, 0x25, 0x45, 0x4f, 0x46, 0x0a]);
/** Outcomes across two processes and a chatbot turn: ample on a loaded machine; a passing run takes far less. */
const WAIT_MS = 45_000;
/** Each specification waits for several outcomes in turn. */
const SPEC_TIMEOUT = { timeout: 60_000 };

interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
}

describe('chatbridge start: operators answer from a Telegram forum topic per handoff', SPEC_TIMEOUT, () => {
  let telegram: FakeTelegram;
  let cloud: FakeWhatsAppCloud;
  let gateway: ChatbridgeProcess;
  /** The Cloud fake's clock runs ahead by this much: a test moves it past the 24-hour window. */
  let cloudClockAhead = 0;

  const until = (predicate: () => boolean, what: string) => telegram.waitFor(predicate, { timeoutMs: WAIT_MS, what });
  const admin = async (method: 'GET' | 'POST', path: string): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return { status: response.status, body: await response.json() };
  };
  const conversationPath = (conversation: string) => `/admin/conversations/${encodeURIComponent(conversation)}`;
  const transcriptOf = async (conversation: string) => {
    const shown = await admin('GET', conversationPath(conversation));
    return (shown.body as { transcript?: Record<string, unknown>[] }).transcript ?? [];
  };

  /** What a Telegram user sees from the bot, as text. */
  const telegramScreen = (user: TelegramUser) => telegram.visibleMessages(user.id).map((m) => m.text);
  /** What a WhatsApp user sees from the business, as text. */
  const cloudScreen = (number: string) => cloud.visibleMessages(number).map((m) => m.text ?? '');

  const topicNamed = (name: string): TopicState | undefined => telegram.topics(FORUM).find((t) => t.name === name);
  const waitForTopic = async (name: string): Promise<number> => {
    await until(() => topicNamed(name) !== undefined, `the topic "${name}"`);
    return topicNamed(name)!.message_thread_id;
  };
  /** The topic's messages other than service messages (topic created, closed, reopened). */
  const posts = (thread: number): Message[] =>
    telegram
      .topicMessages(FORUM, thread)
      .filter((m) => !m.forum_topic_created && !m.forum_topic_closed && !m.forum_topic_reopened);
  /** The card, as it reads now: the bot's latest post saying who writes to whom (a reopened topic gets a new one). */
  const card = (thread: number) => {
    const message = posts(thread).findLast(
      (m) => m.from?.id === telegram.botInfo.id && m.text?.includes(', writing to Oakridge Homes assistant') === true,
    );
    return { text: message?.text ?? '', message };
  };
  const buttonsOf = (message: Message | undefined) =>
    (message?.reply_markup?.inline_keyboard.flat() ?? []).map((button) => ({
      text: button.text,
      data: 'callback_data' in button ? (button.callback_data ?? '') : '',
    }));
  /** The address of the link with this text in a bot message. */
  const linkOf = (message: Message | undefined, label: string): string | undefined => {
    const text = message?.text ?? '';
    const link = message?.entities?.find(
      (e) => e.type === 'text_link' && text.slice(e.offset, e.offset + e.length) === label,
    );
    return link && 'url' in link ? link.url : undefined;
  };
  /** The files the bot sent a Telegram user. */
  const botFilesTo = (user: TelegramUser) =>
    telegram.visibleMessages(user.id).filter((m) => m.sentWith !== 'sendMessage');
  /** The bot's posts in the topic after the card (the user's messages, refusals…). */
  const relayed = (thread: number) =>
    posts(thread)
      .filter((m) => m.from?.id === telegram.botInfo.id)
      .slice(1);

  /** A Telegram user asks for a person; resolves with their topic once the card is in it. */
  const telegramHandOver = async (user: TelegramUser, topicName: string, text = '/human'): Promise<number> => {
    telegram.userSends({ chat: user.id, from: user, text });
    await until(() => telegramScreen(user).includes(HANDOFF_REPLY), `the handoff reply to ${user.first_name}`);
    const thread = await waitForTopic(topicName);
    await until(() => card(thread).text.includes('Waiting for a person'), 'the card');
    return thread;
  };

  beforeAll(async () => {
    // No flood limits: a handoff posts a burst into the group (card, relayed messages, edits), which a
    // real group throttles to 20 a minute; the door's retrying is not what these tests are about.
    telegram = await startFakeTelegram({ rateLimit: false });
    telegram.createForum({ id: FORUM, title: 'Oakridge support' });
    cloud = await startFakeWhatsAppCloud({ clock: () => Date.now() + cloudClockAhead });
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      ...cloudEnv(cloud),
      ADMIN_TOKEN,
      HANDOFF_TELEGRAM_CHAT: String(FORUM),
      // Each message answered on its own: these tests send several back to back; bursts are specified in messages-as-written.
      CHATBRIDGE_BURST_MS: '0',
    });
    cloud.setWebhook(`http://127.0.0.1:${gateway.port}/whatsapp-cloud/webhook`);
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await telegram?.close();
    await cloud?.close();
  });
  // A failed specification shows what the gateway logged above info: why something never arrived.
  afterEach((context) => {
    if (context.task.result?.state !== 'fail') return;
    const worrying = gateway
      .log()
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line));
    console.error(`chatbridge's warnings and errors:\n${worrying.slice(-30).join('\n')}`);
  });

  it('opens a topic per user who asks for a person, on Telegram and on WhatsApp, whose first message is the card', async () => {
    const ada: TelegramUser = { id: 5101, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' };
    telegram.userSends({ chat: ada.id, from: ada, text: 'Do you have homes for sale in Austin?' });
    await until(() => telegramScreen(ada).some((text) => text.includes('Austin')), 'the answer about Austin');
    const adaThread = await telegramHandOver(ada, 'Ada Lovelace (@ada) · Telegram', 'I want to talk to a person');
    expect(telegramScreen(ada).at(-1)).toBe(HANDOFF_REPLY);

    await cloud.userSends({ from: '4915100000301', name: 'Nora Weiss', text: 'I want to talk to a person' });
    await cloud.waitFor(() => cloudScreen('4915100000301').includes(HANDOFF_REPLY), {
      timeoutMs: WAIT_MS,
      what: 'the handoff reply on WhatsApp',
    });
    const noraThread = await waitForTopic('Nora Weiss · WhatsApp');
    expect(noraThread).not.toBe(adaThread);

    // The topic's first message after Telegram's own "topic created" is the card.
    const [created, first] = telegram.topicMessages(FORUM, adaThread);
    expect(created?.forum_topic_created?.name).toBe('Ada Lovelace (@ada) · Telegram');
    expect(first?.message_id).toBe(card(adaThread).message?.message_id);
    const adaCard = card(adaThread).text;
    expect(adaCard).toContain('Ada Lovelace (@ada) on Telegram, writing to Oakridge Homes assistant');
    expect(adaCard).toMatch(/Why: .*talk to a person/);
    expect(adaCard).toContain('Last messages:');
    expect(adaCard).toContain('Ada Lovelace: Do you have homes for sale in Austin?');
    expect(adaCard).toMatch(/Assistant: .*1812 Elm St/);
    expect(linkOf(card(adaThread).message, 'Open in the inbox')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/inbox\/link\?token=/,
    );
    expect(buttonsOf(card(adaThread).message).map((b) => b.text)).toEqual(['Claim', 'Hand back']);

    await until(() => card(noraThread).text.includes('Waiting for a person'), 'the card of the WhatsApp user');
    // The turn that handed over writes its words when it ends: the card quotes them then.
    await until(() => card(noraThread).text.includes('Nora Weiss: I want to talk to a person'), 'the card quoting it');
    expect(card(noraThread).text).toContain('Nora Weiss on WhatsApp, writing to Oakridge Homes assistant');
    expect(linkOf(card(noraThread).message, 'Open in the inbox')).toMatch(/\/inbox\/link\?token=/);
    expect(buttonsOf(card(noraThread).message).map((b) => b.text)).toEqual(['Claim', 'Hand back']);
  });

  it("relays the user's messages into the topic, and a member's messages, notes and files to the user", async () => {
    const ben: TelegramUser = { id: 5102, first_name: 'Ben', last_name: 'Okafor' };
    const conversation = `main:telegram:${ben.id}`;
    const thread = await telegramHandOver(ben, 'Ben Okafor · Telegram');

    // The user's words and photo, as text and as a photo.
    telegram.userSends({ chat: ben.id, from: ben, text: 'Is the house on Elm St still for sale?' });
    await until(
      () => relayed(thread).some((m) => m.text === 'Is the house on Elm St still for sale?'),
      "the user's text in the topic",
    );
    telegram.userSends({ chat: ben.id, from: ben, photo: telegram.addFile(PNG, { mimeType: 'image/png' }) });
    await until(() => relayed(thread).some((m) => m.photo !== undefined), "the user's photo in the topic");
    const screenWhileHandedOver = telegramScreen(ben);
    expect(screenWhileHandedOver.at(-1)).toBe(HANDOFF_REPLY);

    // A member's message reaches the user as the bot; the transcript has it under their name.
    telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Yes, it is. Visits are on Saturdays.' });
    await until(() => telegramScreen(ben).includes('Yes, it is. Visits are on Saturdays.'), "the member's reply");
    await eventually(async () => {
      const transcript = await transcriptOf(conversation);
      expect(transcript.filter((entry) => entry.role === 'operator')).toEqual([
        expect.objectContaining({
          operator: 'Bruno Costa',
          via: 'telegram',
          text: 'Yes, it is. Visits are on Saturdays.',
        }),
      ]);
    }, WAIT_MS);

    // A note stays among operators.
    telegram.memberWrites({ chat: FORUM, thread, from: CARLA, text: 'note: he called yesterday too' });
    await eventually(async () => {
      const transcript = await transcriptOf(conversation);
      expect(transcript.filter((entry) => entry.note)).toEqual([
        expect.objectContaining({ role: 'operator', operator: 'Carla Dias', text: 'he called yesterday too' }),
      ]);
    }, WAIT_MS);
    expect(telegramScreen(ben).join('\n')).not.toContain('called yesterday');

    // A photo and a document go to the user as files.
    telegram.memberWrites({
      chat: FORUM,
      thread,
      from: BRUNO,
      photo: telegram.addFile(PNG, { mimeType: 'image/png' }),
      caption: 'The floor plan',
    });
    telegram.memberWrites({
      chat: FORUM,
      thread,
      from: BRUNO,
      document: telegram.addFile(PDF, { fileName: 'terms.pdf', mimeType: 'application/pdf' }),
    });
    await until(() => botFilesTo(ben).length === 2, 'the photo and the document for the user');
    expect(botFilesTo(ben).map((m) => m.sentWith)).toEqual(['sendPhoto', 'sendDocument']);
    expect(telegramScreen(ben)).toContain('The floor plan');
  });

  it("records a member whose Telegram user id an account lists with that account, under the account's name", async () => {
    const account = await addOperatorAccount(gateway.prefix, {
      email: 'dana@oakridge.example',
      name: 'Dana Silva',
      telegramIds: [String(DANA.id)],
    });
    const ivo: TelegramUser = { id: 5109, first_name: 'Ivo', last_name: 'Marques' };
    const conversation = `main:telegram:${ivo.id}`;
    const thread = await telegramHandOver(ivo, 'Ivo Marques · Telegram');
    telegram.memberWrites({ chat: FORUM, thread, from: DANA, text: 'Hello Ivo, Dana here.' });
    await until(() => telegramScreen(ivo).includes('Hello Ivo, Dana here.'), "the member's reply");
    await eventually(async () => {
      const transcript = await transcriptOf(conversation);
      expect(transcript.filter((entry) => entry.role === 'operator')).toEqual([
        expect.objectContaining({ operator: 'Dana Silva', account: account.id, via: 'telegram' }),
      ]);
    }, WAIT_MS);
  });

  it("does the same for a WhatsApp user: their words and photo in the topic, a member's reply on WhatsApp", async () => {
    const pia = '4915100000302';
    await cloud.userSends({ from: pia, name: 'Pia Roth', text: 'I want to talk to a person' });
    await cloud.waitFor(() => cloudScreen(pia).includes(HANDOFF_REPLY), {
      timeoutMs: WAIT_MS,
      what: 'the handoff reply on WhatsApp',
    });
    const thread = await waitForTopic('Pia Roth · WhatsApp');

    await cloud.userSends({ from: pia, name: 'Pia Roth', text: 'Is there parking at 300 Bowie St?' });
    await cloud.userSends({ from: pia, name: 'Pia Roth', image: { bytes: PNG, mimeType: 'image/png' } });
    await until(
      () =>
        relayed(thread).some((m) => m.text === 'Is there parking at 300 Bowie St?') &&
        relayed(thread).some((m) => m.photo !== undefined),
      "the user's text and photo in the topic",
    );

    telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Yes, two spaces in the garage.' });
    await cloud.waitFor(() => cloudScreen(pia).includes('Yes, two spaces in the garage.'), {
      timeoutMs: WAIT_MS,
      what: "the member's words on WhatsApp",
    });
  });

  it("a member's text and photo, written back to back, both reach a WhatsApp user", async () => {
    const quinn = '4915100000309';
    await cloud.userSends({ from: quinn, name: 'Quinn Hale', text: 'I want to talk to a person' });
    const thread = await waitForTopic('Quinn Hale · WhatsApp');
    telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Here is the garage.' });
    telegram.memberWrites({
      chat: FORUM,
      thread,
      from: BRUNO,
      photo: telegram.addFile(PNG, { mimeType: 'image/png' }),
    });
    await cloud.waitFor(
      () =>
        cloudScreen(quinn).includes('Here is the garage.') &&
        cloud.visibleMessages(quinn).some((m) => m.type === 'image'),
      { timeoutMs: WAIT_MS, what: 'both messages on WhatsApp' },
    );
    const photo = cloud.visibleMessages(quinn).find((m) => m.type === 'image')!;
    expect(photo.file?.bytes).toEqual(PNG);
  });

  it('Claim says who claimed; /handback tells the user the assistant is back, says who, closes the topic; the bot answers again', async () => {
    const cleo: TelegramUser = { id: 5103, first_name: 'Cleo', last_name: 'Martin' };
    const thread = await telegramHandOver(cleo, 'Cleo Martin · Telegram');
    const claim = buttonsOf(card(thread).message).find((b) => b.text === 'Claim')!;
    const press = telegram.pressButton({
      chat: FORUM,
      messageId: card(thread).message!.message_id,
      data: claim.data,
      from: BRUNO,
    });
    await until(() => card(thread).text.includes('Claimed by Bruno Costa'), 'the card saying who claimed');
    await until(() => telegram.callbackAnswer(press.callback_query.id)?.answered === true, 'the answer to the press');

    telegram.memberWrites({ chat: FORUM, thread, from: CARLA, text: '/handback' });
    await until(() => telegramScreen(cleo).includes(userTexts.handoff.botIsBack), 'the assistant-is-back notice');
    await until(() => telegram.topic(FORUM, thread)?.closed === true, 'the topic closed');
    await until(() => card(thread).text.includes('Handed back to the assistant by Carla Dias'), 'the card saying who');
    expect(buttonsOf(card(thread).message)).toEqual([]);

    telegram.userSends({ chat: cleo.id, from: cleo, text: 'Do you have homes for sale in Austin?' });
    await until(() => /1812 Elm St/.test(telegramScreen(cleo).at(-1) ?? ''), 'an answer after the hand-back');
  });

  it('a hand-back from the admin API updates the card and closes the topic', async () => {
    const dan: TelegramUser = { id: 5104, first_name: 'Dan', last_name: 'Novak' };
    const thread = await telegramHandOver(dan, 'Dan Novak · Telegram');
    expect(await admin('POST', `${conversationPath(`main:telegram:${dan.id}`)}/resume`)).toEqual({
      status: 200,
      body: { conversation: `main:telegram:${dan.id}`, resumed: true },
    });
    await until(() => telegram.topic(FORUM, thread)?.closed === true, 'the topic closed');
    await until(() => card(thread).text.includes('Handed back to the assistant'), 'the card saying it was handed back');
    expect(buttonsOf(card(thread).message)).toEqual([]);
    expect(telegramScreen(dan).at(-1)).toBe(userTexts.handoff.botIsBack);
  });

  it('an admin writing in the closed topic takes the conversation over before the message goes; the next handoff reopens that topic', async () => {
    const eva: TelegramUser = { id: 5105, first_name: 'Eva', last_name: 'Horvat' };
    const conversation = `main:telegram:${eva.id}`;
    const thread = await telegramHandOver(eva, 'Eva Horvat · Telegram');
    expect((await admin('POST', `${conversationPath(conversation)}/resume`)).status).toBe(200);
    await until(() => telegram.topic(FORUM, thread)?.closed === true, 'the topic closed');
    await until(() => telegramScreen(eva).at(-1) === userTexts.handoff.botIsBack, 'the assistant-is-back notice');

    // Telegram lets only the group's admins write in a closed topic: Bruno is one.
    telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Sorry Eva, one more thing about the visit.' });
    await until(
      () => telegramScreen(eva).at(-1) === 'Sorry Eva, one more thing about the visit.',
      "the operator's message",
    );
    // Paused again: the user's next message goes to the topic, and the bot neither writes nor types.
    const callsBefore = telegram.chatLog(eva.id).length;
    telegram.userSends({ chat: eva.id, from: eva, text: 'Do you have homes for sale in Austin?' });
    await until(
      () => relayed(thread).some((m) => m.text === 'Do you have homes for sale in Austin?'),
      "the user's message in the topic",
    );
    expect(telegramScreen(eva).at(-1)).toBe('Sorry Eva, one more thing about the visit.');
    expect(telegram.chatLog(eva.id).slice(callsBefore)).toEqual([]);

    // Handed back, then asked for a person again: the same topic opens again.
    expect((await admin('POST', `${conversationPath(conversation)}/resume`)).status).toBe(200);
    await until(() => telegram.topic(FORUM, thread)?.closed === true, 'the topic closed again');
    telegram.userSends({ chat: eva.id, from: eva, text: '/human' });
    await until(() => telegram.topic(FORUM, thread)?.closed === false, 'the same topic reopened');
    await until(() => telegramScreen(eva).at(-1) === HANDOFF_REPLY, 'the handoff reply');
    await until(() => card(thread).text.includes('Waiting for a person'), 'a new card in it');
    expect(telegram.topics(FORUM).filter((t) => t.name.startsWith('Eva Horvat'))).toHaveLength(1);
  });

  it("answers in the topic with the reason when the user's platform refuses a message (WhatsApp, past the 24-hour window)", async () => {
    const omar = '4915100000306';
    await cloud.userSends({ from: omar, name: 'Omar Haddad', text: 'I want to talk to a person' });
    await cloud.waitFor(() => cloudScreen(omar).includes(HANDOFF_REPLY), {
      timeoutMs: WAIT_MS,
      what: 'the handoff reply on WhatsApp',
    });
    const thread = await waitForTopic('Omar Haddad · WhatsApp');
    await until(() => card(thread).text.includes('Waiting for a person'), 'the card');

    cloudClockAhead = SERVICE_WINDOW_MS + 60 * 60 * 1000;
    try {
      telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Hello Omar, are you still there?' });
      await until(
        () => relayed(thread).some((m) => m.text?.startsWith('Not delivered: ') === true),
        'the refusal in the topic',
      );
    } finally {
      cloudClockAhead = 0;
    }
    const refusal = relayed(thread).find((m) => m.text?.startsWith('Not delivered: '))!;
    expect(refusal.text).toMatch(/24 hours/);
    expect(cloudScreen(omar)).not.toContain('Hello Omar, are you still there?');
  });

  it('a redelivered update of a member reaches the user once', async () => {
    const finn: TelegramUser = { id: 5107, first_name: 'Finn', last_name: 'Berg' };
    const thread = await telegramHandOver(finn, 'Finn Berg · Telegram');
    const update = telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'Only once, please.' });
    await until(() => telegramScreen(finn).includes('Only once, please.'), "the member's message");
    telegram.redeliver(update);
    // The next message goes after the redelivered one: once it is there, the redelivery was handled.
    telegram.memberWrites({ chat: FORUM, thread, from: BRUNO, text: 'And this one after it.' });
    await until(() => telegramScreen(finn).includes('And this one after it.'), 'the next message');
    expect(telegramScreen(finn).filter((text) => text === 'Only once, please.')).toHaveLength(1);
  });

  it('chatbridge doctor names HANDOFF_TELEGRAM_CHAT when the group has no topics', async () => {
    const plainGroup = -1001500000099;
    telegram.createForum({ id: plainGroup, title: 'Oakridge chat', isForum: false });
    const { output, code } = await runDoctor({
      REDIS_URL: testRedisUrl(),
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      HANDOFF_TELEGRAM_CHAT: String(plainGroup),
    });
    expect(output).toMatch(/^FAIL .*HANDOFF_TELEGRAM_CHAT.*is not a supergroup with topics/m);
    expect(code).toBe(1);
  });
});

describe('chatbridge start: a Telegram topic per handoff with two replicas on one Redis', SPEC_TIMEOUT, () => {
  let telegram: FakeTelegram;
  let proxy: RoundRobinProxy;
  const replicas: ChatbridgeProcess[] = [];
  const users: TelegramUser[] = [
    { id: 5201, first_name: 'Gus', last_name: 'Lind' },
    { id: 5202, first_name: 'Hana', last_name: 'Sato' },
    { id: 5203, first_name: 'Ivo', last_name: 'Petrov' },
  ];
  const topicName = (user: TelegramUser) => `${user.first_name} ${user.last_name} · Telegram`;
  const screen = (user: TelegramUser) => telegram.visibleMessages(user.id).map((m) => m.text);

  beforeAll(async () => {
    // Several webhook requests at once, as Telegram opens them, so both replicas are busy together.
    telegram = await startFakeTelegram({ rateLimit: false, webhookConnections: 4, webhookRetryDelayMs: 50 });
    telegram.createForum({ id: FORUM, title: 'Oakridge support' });
    proxy = await startRoundRobinProxy();
    const prefix = `cbtest:e2e-topics:${randomUUID().slice(0, 8)}:`;
    const env = {
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'webhook',
      TELEGRAM_WEBHOOK_URL: proxy.url,
      ADMIN_TOKEN,
      HANDOFF_TELEGRAM_CHAT: String(FORUM),
      CHATBRIDGE_BURST_MS: '0',
    };
    replicas.push(await startChatbridge(env, { prefix }));
    replicas.push(await startChatbridge(env, { prefix }));
    proxy.setBackends(replicas.map((replica) => replica.port));
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    // Both share the prefix: the last one's cleanup deletes the keys.
    await replicas.at(-1)?.cleanup();
    await proxy?.close();
    await telegram?.close();
  });

  it('opens one topic per handoff, and delivers each member message once, a redelivered one too', async () => {
    for (const user of users) telegram.userSends({ chat: user.id, from: user, text: '/human' });
    await telegram.waitFor(() => users.every((user) => screen(user).includes(HANDOFF_REPLY)), {
      timeoutMs: WAIT_MS,
      what: 'the handoff reply to every user',
    });
    const topicOf = (user: TelegramUser) => telegram.topics(FORUM).find((t) => t.name === topicName(user));
    await telegram.waitFor(() => users.every((user) => topicOf(user) !== undefined), {
      timeoutMs: WAIT_MS,
      what: 'a topic per user',
    });
    expect(
      telegram
        .topics(FORUM)
        .map((t) => t.name)
        .sort(),
    ).toEqual(users.map(topicName).sort());

    // The members' messages reach the first replica, their copies the second: each counts once across both.
    const [first, second] = replicas.map((replica) => replica.port) as [number, number];
    proxy.setBackends([first]);
    const written = users.map((user) =>
      telegram.memberWrites({
        chat: FORUM,
        thread: topicOf(user)!.message_thread_id,
        from: BRUNO,
        text: `Hello ${user.first_name}, Bruno here.`,
      }),
    );
    await telegram.waitFor(
      () => users.every((user) => screen(user).includes(`Hello ${user.first_name}, Bruno here.`)),
      {
        timeoutMs: WAIT_MS,
        what: "the member's message to every user",
      },
    );
    proxy.setBackends([second]);
    for (const update of written) telegram.redeliver(update);
    const answeredTwice = (updateId: number) =>
      telegram.webhookAttempts().filter((a) => a.update_id === updateId && a.status === 200).length === 2;
    await telegram.waitFor(() => written.every((update) => answeredTwice(update.update_id)), {
      timeoutMs: WAIT_MS,
      what: 'every redelivery taken',
    });
    for (const user of users)
      expect(screen(user).filter((text) => text === `Hello ${user.first_name}, Bruno here.`)).toHaveLength(1);
  });
});
