import type { Command } from 'commander';
import { createTransport } from 'nodemailer';
import { request } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { createStateStore } from '../state/index.js';
import { openCliContext } from './context.js';

interface Check {
  name: string;
  run(): Promise<string>;
}

async function telegramCheck(bot: Config['bots'][number]): Promise<string> {
  const telegram = bot.telegram!;
  const root = (telegram.apiRoot ?? 'https://api.telegram.org').replace(/\/+$/, '');
  const response = await request(`${root}/bot${telegram.token}/getMe`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const body = (await response.body.json()) as { ok: boolean; result?: { username?: string }; description?: string };
  if (!body.ok) throw new Error(`Telegram refused the token of bot "${bot.id}" (${body.description ?? response.statusCode}); check TELEGRAM_BOT_TOKEN / bots[].telegram.token`);
  return `@${body.result?.username ?? '?'} (${telegram.mode})`;
}

/** Handoff e-mails: connects and greets the SMTP server (and logs in, when the URL has credentials). */
async function smtpCheck(config: Config): Promise<string> {
  if (!config.smtp.url) return 'SMTP_URL is not set: handoff e-mails wait in the outbox until it is';
  const url = new URL(config.smtp.url);
  url.searchParams.set('connectionTimeout', '10000');
  url.searchParams.set('greetingTimeout', '10000');
  const transport = createTransport(url.toString());
  try {
    await transport.verify();
    return `${new URL(config.smtp.url).host} accepts connections (from ${config.smtp.from})`;
  } catch (error) {
    throw new Error(`SMTP_URL (smtp.url) ${new URL(config.smtp.url).host}: ${(error as Error).message}`, { cause: error });
  } finally {
    transport.close();
  }
}

function checksFor(config: Config): Check[] {
  const checks: Check[] = [
    { name: 'configuration', run: async () => `${config.bots.length} bot(s); upstream ${config.upstream.baseUrl ?? 'embedded'}` },
    {
      name: 'state',
      run: async () => {
        if (!config.redisUrl) return 'in memory (REDIS_URL unset: state is lost on restart and not shared)';
        let connectionError: Error | undefined;
        const state = createStateStore({ redisUrl: config.redisUrl, onConnectionError: (error) => (connectionError = error) });
        try {
          await state.ping();
          return `Redis at ${config.redisUrl}`;
        } catch (error) {
          throw new Error(`REDIS_URL (redisUrl) ${config.redisUrl} is not reachable (${connectionError?.message ?? (error as Error).message})`, { cause: error });
        } finally {
          await state.close();
        }
      },
    },
    {
      name: 'upstream',
      run: async () => {
        if (!config.upstream.baseUrl) return 'embedded Chatbot Service (runs inside `chatbridge start`)';
        const ctx = await openCliContext();
        try {
          const models = await ctx.client.modelList();
          await ctx.client.getSession(ctx.serialNumber());
          return `${config.upstream.baseUrl}: ${models.length} models, GetSession works for ${ctx.serialNumber()}`;
        } finally {
          await ctx.close();
        }
      },
    },
  ];
  for (const bot of config.bots) {
    if (bot.telegram) checks.push({ name: `telegram:${bot.id}`, run: () => telegramCheck(bot) });
  }
  checks.push({ name: 'smtp', run: () => smtpCheck(config) });
  return checks;
}

/** `chatbridge doctor`: checks config, Redis, the upstream and every platform credential. */
export function registerDoctorCommand(program: Command): void {
  program.command('doctor').description('check configuration, Redis, the upstream and every platform credential').action(async () => {
    const config = loadConfig();
    let failed = 0;
    for (const check of checksFor(config)) {
      try {
        process.stdout.write(`ok    ${check.name}: ${await check.run()}\n`);
      } catch (error) {
        failed++;
        process.stdout.write(`FAIL  ${check.name}: ${(error as Error).message}\n`);
      }
    }
    if (failed > 0) process.exitCode = 1;
  });
}
