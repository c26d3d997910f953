/**
 * `chatbridge handoff list|show|resume|claim|say|mail|retry-mail`: the operator's commands, sent to
 * the running gateway's admin API (http://127.0.0.1:PORT, ADMIN_TOKEN).
 */
import type { Command } from 'commander';
import { loadGatewayConfig } from '../runtime/platforms.js';
import { HandoffAdminClient } from '../handoff/index.js';
import { printJson } from './context.js';

/** The running gateway's admin API (the `digest` commands use it too). */
export function adminClient(): HandoffAdminClient {
  const config = loadGatewayConfig();
  if (!config.admin.token) throw new Error("Set ADMIN_TOKEN (admin.token) to the running gateway's admin token.");
  return new HandoffAdminClient(`http://127.0.0.1:${config.port}`, config.admin.token);
}

export function registerHandoffCommands(program: Command): void {
  const handoff = program
    .command('handoff')
    .description('conversations handed to a person (talks to the running gateway)');
  handoff
    .command('list')
    .description('paused conversations, and handoff e-mails the SMTP server refused for good')
    .action(async () => {
      printJson(await adminClient().list());
    });
  handoff
    .command('show')
    .argument('<conversation>', '<bot>:<platform>:<conversation id>')
    .description('handoff state and transcript')
    .action(async (conversation: string) => {
      printJson(await adminClient().show(conversation));
    });
  handoff
    .command('resume')
    .argument('<conversation>', '<bot>:<platform>:<conversation id>')
    .description('hand the conversation back to the bot')
    .action(async (conversation: string) => {
      const { resumed } = await adminClient().resume(conversation);
      process.stdout.write(
        resumed
          ? `${conversation} is back with the bot; the user was told.\n`
          : `${conversation} was not with a person; nothing changed.\n`,
      );
    });
  handoff
    .command('claim')
    .argument('<conversation>', '<bot>:<platform>:<conversation id>')
    .argument('<name...>', 'your name, as the other operators see it')
    .description('mark the conversation as yours (the inbox shows who claimed it)')
    .action(async (conversation: string, words: string[]) => {
      const { claimedBy, takenFrom } = await adminClient().claim(conversation, words.join(' '));
      process.stdout.write(
        `${conversation} is claimed by ${claimedBy}${takenFrom ? ` (taken over from ${takenFrom})` : ''}.\n`,
      );
    });
  handoff
    .command('say')
    .argument('<conversation>', '<bot>:<platform>:<conversation id>')
    .argument('<text...>', 'the message')
    .description('send a message to the user as the operator')
    .action(async (conversation: string, words: string[]) => {
      await adminClient().say(conversation, words.join(' '));
      process.stdout.write(`Sent to ${conversation}.\n`);
    });
  handoff
    .command('mail')
    .description('handoff e-mails waiting in the outbox, and dead letters')
    .action(async () => {
      printJson(await adminClient().mail());
    });
  handoff
    .command('retry-mail')
    .argument('<id>', 'id of a dead letter (from `handoff list`)')
    .description(
      'put a handoff e-mail the SMTP server refused back into the outbox (fix TalkToHumanEmail or SMTP_URL first)',
    )
    .action(async (id: string) => {
      await adminClient().retryMail(id);
      process.stdout.write(`Handoff e-mail ${id} is back in the outbox and is sent now.\n`);
    });
}
