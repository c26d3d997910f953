/**
 * Vercel's Chat SDK (`chat` + `@chat-adapter/telegram` + `@chat-adapter/state-redis`)
 * as the peers benchmark runs it: polling, Redis state under a private prefix,
 * and every direct message answered by posting the bench's chunks as an async
 * iterable, streamed with Telegram drafts (nativeStreaming: true; the adapter
 * sends a draft, then the final message). Concurrency "queue": the bench's users
 * wait for each answer before the next message, so nothing is ever skipped, but
 * a message arriving as the previous handler releases its lock is not dropped.
 * The runner transpiles this file and runs it with plain node, as its own process;
 * it writes "ready" on stdout once polling.
 */
import { Chat, type Logger } from 'chat';
import { createTelegramAdapter } from '@chat-adapter/telegram';
import { createRedisState } from '@chat-adapter/state-redis';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`chat-sdk: set ${name}`);
  return value;
};

const chunks = JSON.parse(env('PEERS_CHUNKS')) as string[];

/** Warnings and errors only, to stderr: the SDK's default logger writes every info line to the console. */
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string, ...args: unknown[]) =>
    void process.stderr.write(`chat-sdk warn: ${message} ${JSON.stringify(args)}\n`),
  error: (message: string, ...args: unknown[]) =>
    void process.stderr.write(`chat-sdk error: ${message} ${JSON.stringify(args)}\n`),
  child: () => logger,
};

async function* answer(): AsyncIterable<string> {
  for (const chunk of chunks) yield chunk;
}

const telegram = createTelegramAdapter({
  botToken: env('PEERS_BOT_TOKEN'),
  apiUrl: env('PEERS_API_ROOT'),
  mode: 'polling',
  nativeStreaming: true,
  logger,
});

const bot = new Chat({
  userName: env('PEERS_BOT_USERNAME'),
  adapters: { telegram },
  state: createRedisState({ url: env('PEERS_REDIS_URL'), keyPrefix: env('PEERS_KEY_PREFIX') }),
  concurrency: 'queue',
  logger,
});

bot.onDirectMessage(async (thread) => {
  await thread.post(answer());
});

await bot.initialize();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void bot.shutdown().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
