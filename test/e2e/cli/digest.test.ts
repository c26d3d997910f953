/**
 * `chatbridge digest preview|send` as a process, as an operator runs it: against a running gateway (the handoff
 * stack's, with the real DigestService, on real Redis, the SMTP catcher receiving) through the admin API, and on a
 * set-up missing what it needs, each mistake named before anything is called.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatbotSettings } from '../../../src/upstream/api.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { eventually } from '../../unit/gateway/support/recording-adapter.js';
import {
  ADMIN_TOKEN,
  HANDOFF_SETTINGS,
  startHandoffProcess,
  startHandoffStack,
  type HandoffProcess,
  type HandoffStack,
} from '../../integration/handoff/stack.js';
import { aDayOfLeads, DIGEST_SETTINGS, LEADS_EMAIL, LOGS_EMAIL } from '../../integration/handoff/admin/digest-day.js';

/** The mails in the outbox to either digest address. */
const digestsQueued = async (process: HandoffProcess) =>
  (await process.handoff.outbox.pending()).filter((mail) => [LEADS_EMAIL, LOGS_EMAIL].includes(mail.to));

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `chatbridge <args>` with only these settings (and console off). */
function chatbridge(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, CHATBRIDGE_CONSOLE: 'off', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('chatbridge digest, without what it needs', () => {
  it('refuses a --day or --kind that is not one before calling anything', async () => {
    for (const day of ['2026-02-30', 'yesterday']) {
      const run = await chatbridge(['digest', 'send', '--bot', 'main', '--day', day]);
      expect(run.stderr).toContain(`--day must be a date written YYYY-MM-DD, e.g. 2026-11-26 (got "${day}").`);
      // Refused before reading ADMIN_TOKEN: on this set-up a call would have failed for want of one.
      expect(run.stderr).not.toContain('ADMIN_TOKEN');
      expect(run.code).toBe(1);
    }
    const kind = await chatbridge(['digest', 'preview', '--kind', 'transcripts']);
    expect(kind.stderr).toContain('--kind must be logs or leads (got "transcripts").');
    expect(kind.code).toBe(1);
  }, 60_000);

  it('needs --day to send', async () => {
    const run = await chatbridge(['digest', 'send', '--bot', 'main']);
    expect(run.stderr).toContain("required option '--day <YYYY-MM-DD>' not specified");
    expect(run.code).toBe(1);
  }, 60_000);

  it('names ADMIN_TOKEN when it is not set, and PORT when no gateway answers there', async () => {
    const noToken = await chatbridge(['digest', 'preview', '--bot', 'main']);
    expect(noToken.stderr).toContain("Set ADMIN_TOKEN (admin.token) to the running gateway's admin token.");
    expect(noToken.code).toBe(1);
    const noGateway = await chatbridge(['digest', 'preview', '--bot', 'main'], { PORT: '1', ADMIN_TOKEN });
    expect(noGateway.stderr).toContain(
      'The gateway at http://127.0.0.1:1 is not reachable (fetch failed); is `chatbridge start` running with this PORT?',
    );
    expect(noGateway.code).toBe(1);
  }, 60_000);
});

describe('chatbridge digest, against a running gateway', () => {
  let stack: HandoffStack;
  const processes: HandoffProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('cli-digest');
  }, 60_000);
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
    stack.smtp.mails.splice(0);
  });
  afterAll(async () => {
    await stack.close();
  });

  /** A gateway whose day holds Ana, Bruno and Carla; the CLI's settings to reach it; today in its zone (UTC). */
  const start = async (settings: ChatbotSettings = DIGEST_SETTINGS) => {
    const state = isolatedRedisStore('cli-digest', { checkSlots: true });
    stores.push(state);
    const process = await startHandoffProcess({
      state,
      upstream: stack.client,
      settings,
      config: { smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' } },
    });
    processes.push(process);
    await aDayOfLeads(process.gateway, {
      say: (id, text, extra) => process.adapter.say(id, text, extra),
      conversation: (id) => process.adapter.world.conversation('main', id),
    });
    const today = (await process.handoff.digests!.window('main')).day;
    const env = { PORT: new URL(process.url).port, ADMIN_TOKEN };
    return { process, today, env };
  };

  it('previews both mails: to whom, the subject, the attachments, the text; nothing is sent', async () => {
    const { process, today, env } = await start();
    const run = await chatbridge(['digest', 'preview', '--bot', 'main'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Chat logs of bot main for ${today}\nTo: ${LOGS_EMAIL}\nSubject: `);
    expect(run.stdout).toContain(`Leads of bot main for ${today}\nTo: ${LEADS_EMAIL}\nSubject: `);
    expect(run.stdout).toMatch(/^Attachments: \S+\.csv \(\d[\d.]* (bytes|KB)\)$/m);
    expect(run.stdout).toContain('Carla Dias');
    expect(run.stdout).toContain('Ana Lima');
    // (Bruno's handoff e-mail goes to TalkToHumanEmail; no digest goes anywhere.)
    expect(await digestsQueued(process)).toEqual([]);
    expect([...stack.smtp.to(LEADS_EMAIL), ...stack.smtp.to(LOGS_EMAIL)]).toEqual([]);

    const leads = await chatbridge(['digest', 'preview', '--bot', 'main', '--kind', 'leads', '--day', today], env);
    expect(leads.stdout).not.toContain('Chat logs of');
    expect(leads.stdout).not.toContain('Carla Dias');
  }, 60_000);

  it('sends a mail once: queued to whom, then already sent on when, then once more with --again', async () => {
    const { today, env } = await start();
    const send = ['digest', 'send', '--bot', 'main', '--day', today, '--kind', 'leads'];
    const first = await chatbridge(send, env);
    expect(first.stdout).toMatch(
      new RegExp(
        `^The leads of bot main for ${today}: queued to ${LEADS_EMAIL} \\(mail \\S+\\); \`chatbridge handoff mail\``,
      ),
    );
    expect(first.code).toBe(0);
    await eventually(() => expect(stack.smtp.to(LEADS_EMAIL)).toHaveLength(1));

    const second = await chatbridge(send, env);
    expect(second.stdout).toMatch(
      new RegExp(
        `^The leads of bot main for ${today}: already sent on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC; add --again`,
      ),
    );
    expect(second.code).toBe(0);

    const again = await chatbridge([...send, '--again'], env);
    expect(again.stdout).toContain(`queued to ${LEADS_EMAIL}`);
    await eventually(() => expect(stack.smtp.to(LEADS_EMAIL)).toHaveLength(2));
  }, 60_000);

  it('says there is nothing to report for an empty day', async () => {
    const { env } = await start();
    const run = await chatbridge(['digest', 'send', '--bot', 'main', '--day', '2020-01-01'], env);
    expect(run.stdout).toContain(
      'The chat logs of bot main for 2020-01-01: nothing to report that day; no mail was sent.',
    );
    expect(run.stdout).toContain('The leads of bot main for 2020-01-01: nothing to report that day; no mail was sent.');
    expect(run.code).toBe(0);
  }, 60_000);

  it('fails naming the setting to fix when the chatbot has no address for a mail, and sends the other', async () => {
    const { today, env } = await start({ ...HANDOFF_SETTINGS, EmailForDailyLeads: LEADS_EMAIL });
    const run = await chatbridge(['digest', 'send', '--bot', 'main', '--day', today], env);
    expect(run.stdout).toContain(`The leads of bot main for ${today}: queued to ${LEADS_EMAIL}`);
    expect(run.stderr).toContain(`The chat logs of bot main for ${today}: not sent:`);
    expect(run.stderr).toContain('chatbridge settings set EmailForDailyChatLogs=<address>');
    expect(run.code).toBe(1);
  }, 60_000);
});
