/**
 * The day's digests in the admin API, what `chatbridge digest` calls: the preview of each mail (to whom, its
 * subject, text, HTML and CSV) without sending anything, and the send, once per chatbot, kind and day however many
 * replicas are asked, again only when asked to; an empty day, a chatbot without the address, and requests that
 * are not ones answered with what to fix. The real DigestService on real Redis, the SMTP catcher receiving.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HandoffAdminClient } from '../../../../src/handoff/index.js';
import type { RedisStateStore } from '../../../../src/state/index.js';
import type { ChatbotSettings } from '../../../../src/upstream/api.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  ADMIN_TOKEN,
  HANDOFF_SETTINGS,
  sameRedis,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';
import { aDayOfLeads, ANA_EMAIL, ANA_PHONE_E164, DIGEST_SETTINGS, LEADS_EMAIL, LOGS_EMAIL } from './digest-day.js';

/** The mails in the outbox to either digest address. */
const digestsQueued = async (process: HandoffProcess) =>
  (await process.handoff.outbox.pending()).filter((mail) => [LEADS_EMAIL, LOGS_EMAIL].includes(mail.to));

/** A day long before any transcript the test wrote. */
const EMPTY_DAY = '2020-01-01';

interface PreviewBody {
  bot: string;
  kind: string;
  day: string;
  to: string | null;
  mail: {
    subject: string;
    text: string;
    html: string;
    attachments: { filename: string; contentType: string; content: string; size: number }[];
    omitted: number;
  } | null;
}

describe("the admin API's digests", () => {
  let stack: HandoffStack;
  const processes: HandoffProcess[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('digest-routes');
  });
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    for (const close of closers.splice(0)) await close();
    stack.smtp.mails.splice(0);
  });
  afterAll(async () => {
    await stack.close();
  });

  /** A gateway process on its own Redis prefix (or `state`), mailing through the SMTP catcher. */
  const start = async (settings: ChatbotSettings = DIGEST_SETTINGS, state?: RedisStateStore) => {
    let store = state;
    if (!store) {
      const own = isolatedRedisStore('digest-routes', { checkSlots: true });
      closers.push(() => own.cleanup());
      store = own;
    }
    const process = await startHandoffProcess({
      state: store,
      upstream: stack.client,
      settings,
      config: { smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' } },
    });
    processes.push(process);
    return { process, store };
  };
  /** A process whose day holds Ana, Bruno and Carla; `today` in the chatbot's zone (UTC: no TimeZone). */
  const startWithADay = async () => {
    const started = await start();
    const { process } = started;
    await aDayOfLeads(process.gateway, {
      say: (id, text, extra) => process.adapter.say(id, text, extra),
      conversation: (id) => process.adapter.world.conversation('main', id),
    });
    const today = (await process.handoff.digests!.window('main')).day;
    return { ...started, today };
  };
  const preview = async (process: HandoffProcess, query: string) => {
    const answer = await process.admin('GET', `/admin/digests/main?${query}`);
    return { status: answer.status, body: answer.body as PreviewBody };
  };

  it("previews the day's leads: to EmailForDailyLeads, the people who showed interest, the CSV; nothing is sent", async () => {
    const { process, today } = await startWithADay();
    const { status, body } = await preview(process, `kind=leads&day=${today}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ bot: 'main', kind: 'leads', day: today, to: LEADS_EMAIL });
    const mail = body.mail!;
    expect(mail.subject).not.toBe('');
    expect(mail.text).toContain('Ana Lima');
    expect(mail.text).toContain(ANA_PHONE_E164);
    expect(mail.text).toContain(ANA_EMAIL);
    expect(mail.text).toContain('Bruno Costa');
    // Carla only said hello: in the logs, not a lead.
    expect(mail.text).not.toContain('Carla');
    expect(mail.html).toContain('Ana Lima');
    const csv = mail.attachments.find((attachment) => attachment.filename.endsWith('.csv'));
    expect(csv?.contentType).toMatch(/^text\/csv/);
    expect(csv?.content).toContain(ANA_EMAIL);
    expect(csv?.size).toBe(Buffer.byteLength(csv!.content, 'utf8'));
    expect(mail.omitted).toBe(0);

    // (Bruno's handoff e-mail goes to TalkToHumanEmail; no digest goes anywhere.)
    expect(await digestsQueued(process)).toEqual([]);
    expect([...stack.smtp.to(LEADS_EMAIL), ...stack.smtp.to(LOGS_EMAIL)]).toEqual([]);
  });

  it("previews the day's chat logs: to EmailForDailyChatLogs, every conversation, Carla's too", async () => {
    const { process, today } = await startWithADay();
    const { status, body } = await preview(process, `kind=logs&day=${today}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'logs', day: today, to: LOGS_EMAIL });
    for (const name of ['Ana Lima', 'Bruno Costa', 'Carla Dias']) expect(body.mail!.text).toContain(name);
    expect(body.mail!.text).toContain('Please call me on');
  });

  it("takes today, in the chatbot's zone, when no day is given", async () => {
    const { process, today } = await startWithADay();
    const { status, body } = await preview(process, 'kind=leads');
    expect(status).toBe(200);
    expect(body.day).toBe(today);
    expect(body.mail!.text).toContain('Ana Lima');
  });

  it('has nothing to show for a day without conversations', async () => {
    const { process } = await start();
    const { status, body } = await preview(process, `kind=logs&day=${EMPTY_DAY}`);
    expect(status).toBe(200);
    expect(body).toEqual({ bot: 'main', kind: 'logs', day: EMPTY_DAY, to: LOGS_EMAIL, mail: null });
  });

  it('answers 400 naming the parameter for a kind or a day that is not one, and 404 for a bot it does not serve', async () => {
    const { process } = await start();
    for (const query of ['kind=transcripts&day=2026-11-26', 'day=2026-11-26']) {
      const { status, body } = await process.admin('GET', `/admin/digests/main?${query}`);
      expect(status).toBe(400);
      expect((body as { error: string }).error).toMatch(/^kind must be logs or leads/);
    }
    for (const day of ['2026-02-30', 'yesterday', '26/11/2026']) {
      const { status, body } = await process.admin('GET', `/admin/digests/main?kind=leads&day=${day}`);
      expect(status).toBe(400);
      expect((body as { error: string }).error).toContain('day must be a date written YYYY-MM-DD');
    }
    const unknown = await process.admin('GET', '/admin/digests/nobody?kind=leads&day=2026-11-26');
    expect(unknown).toEqual({ status: 404, body: { error: 'No bot "nobody" in this gateway; its bots: main.' } });
    const badSend = await process.admin('POST', '/admin/digests/main/send', {
      kind: 'leads',
      day: '2026-11-26',
      again: 'yes',
    });
    expect(badSend).toEqual({ status: 400, body: { error: 'again must be true or false (got "yes").' } });
    const noDay = await process.admin('POST', '/admin/digests/main/send', { kind: 'leads' });
    expect(noDay.status).toBe(400);
    expect((noDay.body as { error: string }).error).toContain('day must be a date written YYYY-MM-DD');
  });

  it('is behind the admin token, as the rest of /admin', async () => {
    const { process } = await start();
    const response = await fetch(`${process.url}/admin/digests/main?kind=leads`);
    expect(response.status).toBe(401);
  });

  it('sends the leads once: queued and delivered, 409 with when on a second send, once more with again', async () => {
    const { process, today } = await startWithADay();
    const first = await process.admin('POST', '/admin/digests/main/send', { kind: 'leads', day: today });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ bot: 'main', kind: 'leads', day: today, queued: true, to: LEADS_EMAIL });
    await eventually(() => expect(stack.smtp.to(LEADS_EMAIL)).toHaveLength(1));
    const mail = stack.smtp.to(LEADS_EMAIL)[0]!;
    expect(mail.text).toContain('Ana Lima');
    // The CSV goes with it, as an attachment.
    expect(mail.raw).toMatch(/filename="?[^"\s;]+\.csv/);

    const second = await process.admin('POST', '/admin/digests/main/send', { kind: 'leads', day: today });
    expect(second.status).toBe(409);
    const refused = second.body as { queued: boolean; reason: string; at: number; error: string };
    expect(refused).toMatchObject({ queued: false, reason: 'already-sent' });
    expect(refused.at).toBeLessThanOrEqual(Date.now());
    expect(refused.error).toContain(`already sent (queued ${new Date(refused.at).toISOString()})`);
    expect(refused.error).toContain('"again": true');

    const again = await process.admin('POST', '/admin/digests/main/send', { kind: 'leads', day: today, again: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ queued: true, to: LEADS_EMAIL });
    await eventually(() => expect(stack.smtp.to(LEADS_EMAIL)).toHaveLength(2));
    // The chat logs are another mail, still unsent.
    expect(stack.smtp.to(LOGS_EMAIL)).toEqual([]);
  });

  it('queues one mail when two replicas are asked for the same digest at once', async () => {
    const { process: first, store, today } = await startWithADay();
    const other = sameRedis(store);
    closers.unshift(() => other.close());
    const { process: second } = await start(DIGEST_SETTINGS, other);
    const answers = await Promise.all(
      [first, second].map((process) => process.admin('POST', '/admin/digests/main/send', { kind: 'logs', day: today })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    await eventually(() => expect(stack.smtp.to(LOGS_EMAIL)).toHaveLength(1));
  });

  it('sends nothing for an empty day (200, reason empty)', async () => {
    const { process } = await start();
    const answer = await process.admin('POST', '/admin/digests/main/send', { kind: 'leads', day: EMPTY_DAY });
    expect(answer).toEqual({
      status: 200,
      body: { bot: 'main', kind: 'leads', day: EMPTY_DAY, queued: false, reason: 'empty' },
    });
    expect(await digestsQueued(process)).toEqual([]);
  });

  it('refuses with 422 naming the setting when the chatbot has no address for that mail', async () => {
    const { process } = await start({ ...HANDOFF_SETTINGS, EmailForDailyLeads: LEADS_EMAIL });
    await aDayOfLeads(process.gateway, {
      say: (id, text, extra) => process.adapter.say(id, text, extra),
      conversation: (id) => process.adapter.world.conversation('main', id),
    });
    const today = (await process.handoff.digests!.window('main')).day;
    const previewed = await preview(process, `kind=logs&day=${today}`);
    expect(previewed.body.to).toBeNull();
    const answer = await process.admin('POST', '/admin/digests/main/send', { kind: 'logs', day: today });
    expect(answer.status).toBe(422);
    const body = answer.body as { queued: boolean; reason: string; message: string; error: string };
    expect(body).toMatchObject({ queued: false, reason: 'no-address' });
    expect(body.message).toContain('EmailForDailyChatLogs');
    expect(body.error).toBe(body.message);
    expect(await digestsQueued(process)).toEqual([]);
  });

  it("serves the CLI's client: a refusal is an outcome to tell, a bad request an error naming what to fix", async () => {
    const { process, today } = await startWithADay();
    const cli = new HandoffAdminClient(process.url, ADMIN_TOKEN);
    expect(await cli.digestPreview('main', 'leads')).toMatchObject({ day: today, to: LEADS_EMAIL });
    expect(await cli.sendDigest('main', 'leads', today)).toMatchObject({ queued: true, to: LEADS_EMAIL });
    expect(await cli.sendDigest('main', 'leads', today)).toMatchObject({ queued: false, reason: 'already-sent' });
    expect(await cli.sendDigest('main', 'leads', today, true)).toMatchObject({ queued: true });
    await expect(cli.digestPreview('nobody', 'leads')).rejects.toThrow(/HTTP 404: No bot "nobody"/);
  });
});
