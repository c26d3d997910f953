/**
 * The human handoff on WhatsApp, end to end: `chatbridge start` as a process with
 * WHATSAPP_ENABLED (whatsapp-web.js swapped for the fake by the module hook, as in
 * whatsapp-start.test.ts), ADMIN_TOKEN and SMTP_URL pointing at a real SMTP server in this
 * process, on the default set-up (the embedded demo chatbot, whose TalkToHumanEmail and
 * TalkToHumanResponseMessage are in config/demo/chatbot.yaml). A user asks for a person
 * (the word `human`, or a sentence), the operator gets the transcript by e-mail, the bot
 * stays quiet in that chat while it is paused, and answers again once handed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import { FakeSmtpServer, type ReceivedMail } from '../../../fakes/smtp/server.js';
import { postResume, resumeLinkIn } from '../../integration/handoff/stack.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';
import { userTexts } from '../../../src/gateway/index.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-whatsapp-handoff-admin-token';
/** The demo chatbot's handoff settings (config/demo/chatbot.yaml). */
const OPERATOR_EMAIL = 'agents@oakridge-homes.example';
const HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const OPERATOR_TEXT = "Hello, I'm Bruno from Oakridge Homes";
const WAIT = { timeoutMs: 45_000 };

describe('chatbridge start with WhatsApp: handing a chat to a person and back', () => {
  let fake: FakeWhatsApp;
  let smtp: FakeSmtpServer;
  let gateway: ChatbridgeProcess;

  const chatOf = (number: string) => `${number}@c.us`;
  const conversationOf = (chat: string) => `main:whatsapp:${chat}`;
  const admin = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  /** The user texts the gateway has recorded for the chat (a turn writes its entries when it ends). */
  const recordedUserTexts = async (chat: string) => {
    const shown = await admin('GET', `/admin/conversations/${encodeURIComponent(conversationOf(chat))}`);
    const transcript = (shown.body as { transcript?: { role: string; text: string }[] }).transcript ?? [];
    return transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text);
  };
  /** The handoff e-mail about one chat (not the "wrote again" follow-ups). */
  const handoffMailsAbout = (chat: string): ReceivedMail[] =>
    smtp
      .to(OPERATOR_EMAIL)
      .filter(
        (mail) =>
          mail.subject.includes('wants a person') && mail.text.includes(`Conversation: ${conversationOf(chat)}`),
      );
  const typingCalls = (chat: string) =>
    fake.calls().filter((call) => call.method === 'sendStateTyping' && call.chat === chat).length;
  const shows = (chat: string, text: string) => fake.screen(chat).some((shown) => shown.includes(text));

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    smtp = await FakeSmtpServer.start();
    // Each message answered on its own: the handoff's steps are sent back to back; bursts are specified in messages-as-written.
    gateway = await startLinkedWhatsAppGateway(fake, { ADMIN_TOKEN, SMTP_URL: smtp.url, CHATBRIDGE_BURST_MS: '0' });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
    await smtp?.stop();
  });

  it('"human" hands the chat to a person: handoff reply, transcript e-mailed, silence while paused, answers again after the hand-back link', async () => {
    const chat = chatOf('4915100000201');
    fake.userSends({ from: '4915100000201', name: 'Ana Lima', text: 'Do you have homes in Denver?' });
    await fake.waitFor(() => shows(chat, 'Denver') && !fake.typing(chat), { ...WAIT, what: 'the answer about Denver' });

    fake.userSends({ from: '4915100000201', name: 'Ana Lima', text: 'human' });
    await fake.waitFor(() => shows(chat, HANDOFF_REPLY), { ...WAIT, what: 'the handoff reply' });
    expect(fake.screen(chat).at(-1)).toBe(HANDOFF_REPLY);

    // The operator gets the conversation so far, with the link that hands it back.
    await fake.waitFor(() => handoffMailsAbout(chat).length === 1, { ...WAIT, what: 'the handoff e-mail' });
    const mail = handoffMailsAbout(chat)[0]!;
    expect(mail.subject).toBe('Handoff: Ana Lima on whatsapp wants a person (Oakridge Homes assistant)');
    expect(mail.text).toContain('User (Ana Lima): Do you have homes in Denver?');
    expect(mail.text).toMatch(/Bot: .*Denver/);
    const link = resumeLinkIn(mail.text);

    // Paused: the next message is recorded, but the bot does not answer it.
    const screenWhilePaused = fake.screen(chat);
    const typingBefore = typingCalls(chat);
    fake.userSends({ from: '4915100000201', name: 'Ana Lima', text: 'Are there any in Portland too?' });
    await expect
      .poll(() => recordedUserTexts(chat), { timeout: WAIT.timeoutMs })
      .toContain('Are there any in Portland too?');
    expect(fake.screen(chat)).toEqual(screenWhilePaused);
    // Not even "typing…": nobody is writing an answer.
    expect(typingCalls(chat)).toBe(typingBefore);

    // The operator answers through the admin API; the user sees it in the same chat.
    expect(
      await admin('POST', `/admin/conversations/${encodeURIComponent(conversationOf(chat))}/messages`, {
        text: OPERATOR_TEXT,
      }),
    ).toEqual({ status: 200, body: { conversation: conversationOf(chat), sent: true } });
    await fake.waitFor(() => shows(chat, OPERATOR_TEXT), { ...WAIT, what: "the operator's message" });

    // The hand-back link's button: the bot says it is back, then answers again.
    const handedBack = await postResume(`http://127.0.0.1:${gateway.port}`, new URL(link).searchParams.get('token')!);
    expect(handedBack.status).toBe(200);
    await fake.waitFor(() => shows(chat, userTexts.handoff.botIsBack), {
      ...WAIT,
      what: 'the assistant-is-back notice',
    });
    expect(fake.screen(chat).slice(screenWhilePaused.length)).toEqual([OPERATOR_TEXT, userTexts.handoff.botIsBack]);

    fake.userSends({ from: '4915100000201', name: 'Ana Lima', text: 'Which homes do you have in Austin?' });
    await fake.waitFor(
      () =>
        fake.screen(chat).length > screenWhilePaused.length + 2 &&
        /Austin/.test(fake.screen(chat).at(-1)!) &&
        !fake.typing(chat),
      {
        ...WAIT,
        what: 'an answer about Austin after the hand-back',
      },
    );
  }, 120_000);

  it('asking for a person in a sentence hands the chat over too, and the admin API hands it back', async () => {
    const chat = chatOf('4915100000202');
    fake.userSends({ from: '4915100000202', name: 'Bruno Costa', text: 'I want to talk to a person' });
    await fake.waitFor(() => shows(chat, HANDOFF_REPLY), { ...WAIT, what: 'the handoff reply' });
    await fake.waitFor(() => handoffMailsAbout(chat).length === 1, { ...WAIT, what: 'the handoff e-mail' });
    expect(handoffMailsAbout(chat)[0]!.text).toContain('User (Bruno Costa): I want to talk to a person');

    const paused = fake.screen(chat);
    fake.userSends({ from: '4915100000202', name: 'Bruno Costa', text: 'Hello?' });
    await expect.poll(() => recordedUserTexts(chat), { timeout: WAIT.timeoutMs }).toContain('Hello?');
    expect(fake.screen(chat)).toEqual(paused);

    expect(await admin('POST', `/admin/conversations/${encodeURIComponent(conversationOf(chat))}/resume`)).toEqual({
      status: 200,
      body: { conversation: conversationOf(chat), resumed: true },
    });
    await fake.waitFor(() => shows(chat, userTexts.handoff.botIsBack), {
      ...WAIT,
      what: 'the assistant-is-back notice',
    });
    fake.userSends({ from: '4915100000202', name: 'Bruno Costa', text: 'Do you have homes in Portland?' });
    await fake.waitFor(() => /Portland/.test(fake.screen(chat).at(-1)!) && !fake.typing(chat), {
      ...WAIT,
      what: 'an answer about Portland after the hand-back',
    });
  }, 120_000);

  it('in a group, "@bot human" hands the group over; while paused even a mention gets no answer', async () => {
    const group = '120363000000000888';
    const chat = `${group}@g.us`;
    fake.userSends({ from: '4915100000203', name: 'Carla Dias', group, text: 'human', mentionsBot: true });
    await fake.waitFor(() => shows(chat, HANDOFF_REPLY), { ...WAIT, what: 'the handoff reply in the group' });
    await fake.waitFor(() => handoffMailsAbout(chat).length === 1, {
      ...WAIT,
      what: 'the handoff e-mail about the group',
    });

    const paused = fake.screen(chat);
    fake.userSends({ from: '4915100000204', name: 'Davi Reis', group, text: 'Homes in Denver?', mentionsBot: true });
    await expect.poll(() => recordedUserTexts(chat), { timeout: WAIT.timeoutMs }).toContain('Homes in Denver?');
    expect(fake.screen(chat)).toEqual(paused);

    expect(
      (await admin('POST', `/admin/conversations/${encodeURIComponent(conversationOf(chat))}/resume`)).status,
    ).toBe(200);
    await fake.waitFor(() => shows(chat, userTexts.handoff.botIsBack), {
      ...WAIT,
      what: 'the assistant-is-back notice in the group',
    });
  }, 120_000);
});
