/**
 * `chatbridge digest preview|send`: the day's chat logs and leads e-mails (issue 29), through the running gateway's
 * admin API (http://127.0.0.1:PORT, ADMIN_TOKEN), as the handoff commands.
 */
import type { Command } from 'commander';
import {
  badDayMessage,
  badKindMessage,
  DIGEST_KINDS,
  parseDigestDay,
  parseDigestKind,
  type DigestKind,
  type DigestPreview,
  type DigestSendAnswer,
} from '../handoff/index.js';
import { loadGatewayConfig } from '../runtime/platforms.js';
import { adminClient } from './handoff-commands.js';

/** The chatbot setting that holds each mail's address. */
export const DIGEST_SETTINGS: Record<DigestKind, string> = {
  logs: 'EmailForDailyChatLogs',
  leads: 'EmailForDailyLeads',
};

const TITLES: Record<DigestKind, string> = { logs: 'Chat logs', leads: 'Leads' };

interface DigestOptions {
  bot?: string;
  day?: string;
  kind?: string;
  again?: boolean;
}

export function registerDigestCommands(program: Command): void {
  const digest = program
    .command('digest')
    .description(
      "the day's chat logs and leads e-mails (EmailForDailyChatLogs, EmailForDailyLeads; talks to the running gateway)",
    );
  digest
    .command('preview')
    .description('print what would be sent: to whom, the subject, the text and the attachments')
    .option('--bot <id>', 'the bot (default: the first of bots[])')
    .option('--day <YYYY-MM-DD>', "the day, midnight to midnight in the chatbot's TimeZone (default: today, so far)")
    .option('--kind <kind>', `${DIGEST_KINDS.join(' or ')} (default: both)`)
    .action(async (options: DigestOptions) => {
      const { kinds, day } = readOptions(options);
      const client = adminClient();
      const bot = options.bot ?? firstBot();
      const previews: string[] = [];
      for (const kind of kinds) previews.push(describePreview(await client.digestPreview(bot, kind, day)));
      process.stdout.write(`${previews.join('\n')}`);
    });
  digest
    .command('send')
    .description('queue the mail now (a missed day, or a test), once per chatbot, kind and day unless --again')
    .option('--bot <id>', 'the bot (default: the first of bots[])')
    .requiredOption('--day <YYYY-MM-DD>', "the day, midnight to midnight in the chatbot's TimeZone (today: so far)")
    .option('--kind <kind>', `${DIGEST_KINDS.join(' or ')} (default: both)`)
    .option('--again', 'send it even if it was sent for that day already')
    .action(async (options: DigestOptions) => {
      const { kinds, day } = readOptions(options);
      const client = adminClient();
      const bot = options.bot ?? firstBot();
      const refusals: string[] = [];
      for (const kind of kinds) {
        const answer = await client.sendDigest(bot, kind, day!, options.again === true);
        const words = describeOutcome(answer);
        if (!answer.queued && answer.reason === 'no-address') refusals.push(words);
        else process.stdout.write(`${words}\n`);
      }
      // No address is the operator's to fix: said on stderr, and the command fails.
      if (refusals.length > 0) throw new Error(refusals.join('\n'));
    });
}

/** The kinds and day asked for, refused before anything is called when they are not ones. */
function readOptions(options: DigestOptions): { kinds: DigestKind[]; day: string | undefined } {
  const kind = options.kind === undefined ? null : parseDigestKind(options.kind);
  if (options.kind !== undefined && !kind) throw new Error(badKindMessage('--kind', options.kind));
  const day = options.day === undefined ? undefined : parseDigestDay(options.day);
  if (day === null) throw new Error(badDayMessage('--day', options.day));
  return { kinds: kind ? [kind] : [...DIGEST_KINDS], day };
}

function firstBot(): string {
  const bot = loadGatewayConfig().bots[0];
  if (!bot) throw new Error('No bot in bots[] of the config: name one with --bot <id>.');
  return bot.id;
}

/** A preview in words: to whom, the subject, the attachments, then the text as the mail holds it. */
export function describePreview(preview: DigestPreview): string {
  const lines = [`${TITLES[preview.kind]} of bot ${preview.bot} for ${preview.day}`];
  lines.push(
    preview.to
      ? `To: ${preview.to}`
      : `To: nobody: ${DIGEST_SETTINGS[preview.kind]} holds no e-mail address (set it to send this mail).`,
  );
  if (!preview.mail) {
    lines.push(`Nothing to report that day: no ${preview.kind === 'logs' ? 'conversation' : 'lead'}, no mail.`);
    return `${lines.join('\n')}\n`;
  }
  const { mail } = preview;
  lines.push(`Subject: ${mail.subject}`);
  lines.push(
    mail.attachments.length === 0
      ? 'Attachments: none'
      : `Attachments: ${mail.attachments.map((file) => `${file.filename} (${bytes(file.size)})`).join(', ')}`,
  );
  if (mail.omitted > 0)
    lines.push(`Left out to stay within the size cap: ${mail.omitted} (the mail says so and where to find them)`);
  lines.push('', mail.text.trimEnd());
  return `${lines.join('\n')}\n`;
}

/** What `send` did, in words. */
export function describeOutcome(answer: DigestSendAnswer): string {
  const what = `The ${answer.kind === 'logs' ? 'chat logs' : 'leads'} of bot ${answer.bot} for ${answer.day}`;
  if (answer.queued)
    return `${what}: queued to ${answer.to} (mail ${answer.mailId}); \`chatbridge handoff mail\` lists it until it is sent.`;
  switch (answer.reason) {
    case 'already-sent':
      return `${what}: already sent on ${utc(answer.at)}; add --again to send it once more.`;
    case 'empty':
      return `${what}: nothing to report that day; no mail was sent.`;
    case 'no-address':
      return `${what}: not sent: ${answer.message} (chatbridge settings set ${DIGEST_SETTINGS[answer.kind]}=<address>)`;
  }
}

function utc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function bytes(size: number): string {
  return size < 1024 ? `${size} bytes` : `${(size / 1024).toFixed(1)} KB`;
}
