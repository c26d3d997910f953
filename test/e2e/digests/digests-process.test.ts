/**
 * The day's chat logs and leads as the demo sends them: two `chatbridge start` processes (replicas
 * on one Redis) with users on the fake Telegram and the fake WhatsApp Cloud API, the embedded demo
 * chatbot (its EmailForDailyChatLogs and EmailForDailyLeads in config/demo/chatbot.yaml) and the
 * mail caught by a real SMTP server. Three people write: one asks about listings in Austin and
 * leaves a phone number, one asks for a person, one only chats. The day's digests, asked of both
 * replicas at once, go once each; asked again, they go again only with `again`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSmtpServer, type ReceivedMail } from '../../../fakes/smtp/server.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startFakeWhatsAppCloud, type FakeWhatsAppCloud } from '../../../fakes/whatsapp-cloud/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { cloudEnv } from '../../support/whatsapp-cloud-process.js';
import { eventually } from '../../unit/gateway/support/recording-adapter.js';

const ADMIN_TOKEN = 'e2e-digests-admin-token-0123';
const LOGS_TO = 'logs@oakridge-homes.example';
const LEADS_TO = 'sales@oakridge-homes.example';
const WAIT_MS = 45_000;
const ada = { id: 8101, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' };
const ben = { id: 8102, first_name: 'Ben', last_name: 'Okafor' };
const nora = '4915100000501';

describe("chatbridge start: the day's chat logs and leads by e-mail", () => {
  let telegram: FakeTelegram;
  let cloud: FakeWhatsAppCloud;
  let smtp: FakeSmtpServer;
  const replicas: ChatbridgeProcess[] = [];

  const post = async (replica: ChatbridgeProcess, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${replica.port}/admin/digests/main/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const mailsTo = (to: string): ReceivedMail[] => smtp.to(to);
  const telegramAnswered = (user: number, count: number) =>
    telegram.waitFor(() => telegram.visibleMessages(user).length >= count, {
      timeoutMs: WAIT_MS,
      what: `${count} messages to ${user}`,
    });

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    cloud = await startFakeWhatsAppCloud();
    smtp = await FakeSmtpServer.start();
    const prefix = `cbtest:e2e-digests:${randomUUID().slice(0, 8)}:`;
    const env = { ...cloudEnv(cloud), ADMIN_TOKEN, SMTP_URL: smtp.url };
    // Two replicas of one deployment on one Redis prefix; the first polls Telegram (one poller per
    // bot token: Telegram refuses a second) and Meta's webhook reaches it.
    replicas.push(
      await startChatbridge(
        { ...env, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot },
        { prefix },
      ),
    );
    replicas.push(await startChatbridge(env, { prefix }));
    cloud.setWebhook(`http://127.0.0.1:${replicas[0]!.port}/whatsapp-cloud/webhook`);
  }, 90_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.cleanup();
    await telegram?.close();
    await cloud?.close();
    await smtp?.stop();
  });

  it('mails the logs of every conversation and the leads of those who showed interest, once however many replicas ask', async () => {
    telegram.userSends({ chat: ada.id, from: ada, text: 'Do you have homes for sale in Austin?' });
    await telegramAnswered(ada.id, 1);
    telegram.userSends({ chat: ada.id, from: ada, text: 'Call me at +1 512 555 0142 about 1812 Elm St please' });
    await telegramAnswered(ada.id, 2);
    telegram.userSends({ chat: ben.id, from: ben, text: 'I want to talk to a person' });
    await telegramAnswered(ben.id, 1);
    await cloud.userSends({ from: nora, name: 'Nora Weiss', text: 'What a lovely day' });
    await cloud.waitFor(() => cloud.visibleMessages(nora).length >= 2, {
      timeoutMs: WAIT_MS,
      what: 'an answer to Nora',
    });
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });
    // A turn's transcript entries are written after its answer is shown: wait until the day holds the last one.
    await eventually(async () => {
      const preview = await fetch(`http://127.0.0.1:${replicas[1]!.port}/admin/digests/main?kind=logs&day=${day}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const body = (await preview.json()) as { mail: { text: string } | null };
      expect(body.mail?.text).toContain('What a lovely day');
    }, WAIT_MS);

    const [logsA, logsB, leadsA, leadsB] = await Promise.all([
      post(replicas[0]!, { kind: 'logs', day }),
      post(replicas[1]!, { kind: 'logs', day }),
      post(replicas[0]!, { kind: 'leads', day }),
      post(replicas[1]!, { kind: 'leads', day }),
    ]);
    expect([logsA.body.queued, logsB.body.queued].sort()).toEqual([false, true]);
    expect([leadsA.body.queued, leadsB.body.queued].sort()).toEqual([false, true]);

    const logs = await eventually(() => {
      expect(mailsTo(LOGS_TO)).toHaveLength(1);
      return mailsTo(LOGS_TO)[0]!;
    }, WAIT_MS);
    expect(logs.subject).toContain(day);
    for (const words of [
      'Ada Lovelace',
      'Ben Okafor',
      'Nora Weiss',
      'Do you have homes for sale in Austin?',
      'What a lovely day',
    ])
      expect(logs.text).toContain(words);

    const leads = await eventually(() => {
      expect(mailsTo(LEADS_TO)).toHaveLength(1);
      return mailsTo(LEADS_TO)[0]!;
    }, WAIT_MS);
    expect(leads.text).toContain('Ada Lovelace');
    expect(leads.text).toContain('+15125550142');
    expect(leads.text).toContain('1812 Elm St');
    expect(leads.text).toContain('Ben Okafor');
    // Only chatted: in the logs, not in the leads.
    expect(leads.text).not.toContain('Nora Weiss');
    const csv = leads.attachments.find((attachment) => attachment.filename === `leads-${day}.csv`);
    expect(csv?.content).toContain('+15125550142');

    const again = await post(replicas[1]!, { kind: 'leads', day });
    expect(again.status).toBe(409);
    const forced = await post(replicas[1]!, { kind: 'leads', day, again: true });
    expect(forced.body.queued).toBe(true);
    await eventually(() => expect(mailsTo(LEADS_TO)).toHaveLength(2), WAIT_MS);
  }, 120_000);
});
