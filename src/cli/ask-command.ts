import type { Command } from 'commander';
import { withCli } from './context.js';

/** `chatbridge ask "question"`: one ClientAsk from the terminal, streamed as it is written. */
export function registerAskCommand(program: Command): void {
  program
    .command('ask')
    .argument('<question...>')
    .option('--bot <id>')
    .option('--session <id>', 'reuse a service session instead of creating one')
    .option('--no-stream', 'one JSON answer instead of a stream')
    .description('send one message to the chatbot and print the answer')
    .action(async (words: string[], opts: { bot?: string; session?: string; stream: boolean }) => {
      await withCli(async (ctx) => {
        const sessionId = opts.session
          ? Number(opts.session)
          : (await ctx.client.getSession(ctx.serialNumber(opts.bot))).sessionId;
        const request = { sessionId, content: words.join(' ') };
        if (!opts.stream) {
          const answer = await ctx.client.ask(request);
          process.stdout.write(`${answer.content}\n`);
          return;
        }
        let shown = '';
        for await (const event of ctx.client.askStream(request)) {
          if (event.type === 'fragment') {
            shown += event.content;
            process.stdout.write(event.content);
          } else if (event.answer !== shown) {
            // The final answer is authoritative; print it whole when the fragments differed.
            process.stdout.write(`\n---\n${event.answer}`);
          }
        }
        process.stdout.write(`\n(session ${sessionId})\n`);
      });
    });
}
