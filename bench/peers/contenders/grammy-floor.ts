/**
 * A bare grammY bot, the floor of the peers benchmark: each text message gets
 * the bench's answer with one sendMessage (PEERS_MODE=send), or with a
 * sendMessage of the first chunk and 3 editMessageText growing to the whole
 * answer (PEERS_MODE=edits, a streaming floor). No state, no queue, no Redis.
 * The runner transpiles this file and runs it with plain node, as its own process,
 * so its CPU and memory are its own; it writes "ready" on stdout once polling.
 */
import { run } from '@grammyjs/runner';
import { Bot } from 'grammy';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`grammy-floor: set ${name}`);
  return value;
};

const chunks = JSON.parse(env('PEERS_CHUNKS')) as string[];
const mode = env('PEERS_MODE');
const answer = chunks.join('');
/** After how many chunks each of the 3 edits shows the text (the last one, all of it). */
const EDIT_POINTS = [Math.ceil(chunks.length / 3), Math.ceil((2 * chunks.length) / 3), chunks.length];

const bot = new Bot(env('PEERS_BOT_TOKEN'), { client: { apiRoot: env('PEERS_API_ROOT') } });

bot.on('message:text', async (ctx) => {
  if (mode === 'send') {
    await ctx.reply(answer);
    return;
  }
  const sent = await ctx.reply(chunks[0]!);
  for (const point of EDIT_POINTS)
    await ctx.api.editMessageText(ctx.chat.id, sent.message_id, chunks.slice(0, point).join(''));
});

bot.catch((error) => {
  process.stderr.write(`grammy-floor: ${String(error.error)}\n`);
});

await bot.init();
const runner = run(bot);
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void runner.stop().then(() => process.exit(0));
});
