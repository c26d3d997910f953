/**
 * The Telegram adapter (real grammY) through the conformance suite, against the
 * fake Bot API behind a TCP proxy (cut = Telegram unreachable). The first gateway
 * instance long-polls; the second (crash and takeover) runs in webhook mode
 * without a public URL, like a replica behind a load balancer that receives no
 * update itself (two pollers would make the fake, like Telegram, answer 409), and
 * answers through the same Bot API. The user writes in a private chat, where
 * answers stream as drafts and end as one message.
 */
import { createTelegramAdapter } from '../../adapters/telegram/index.js';
import { silentLogger } from '../../src/logger.js';
import { startFakeTelegram } from '../../fakes/telegram/index.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

const USER = { id: 4242, first_name: 'Conny', username: 'conny' };
/** What the user sees rendered: messages, their edits and the drafts of an answer being written. */
const SHOWN_BY = new Set(['sendMessage', 'editMessageText', 'sendMessageDraft']);

async function telegramDriver(): Promise<ConformanceDriver> {
  // Flood limits off: the suite checks what the adapter delivers, not Telegram's pace (pacing.test.ts does).
  const fake = await startFakeTelegram({ rateLimit: false });
  const proxy = await startTcpProxy({ port: Number(new URL(fake.apiRoot).port) });
  const withButtons = () =>
    fake
      .visibleMessages(USER.id)
      .filter((m) => m.reply_markup && 'inline_keyboard' in m.reply_markup)
      .at(-1);
  const inlineButtons = () => {
    const markup = withButtons()?.reply_markup;
    return markup && 'inline_keyboard' in markup ? markup.inline_keyboard.flat() : [];
  };
  const send = (message: Omit<Parameters<typeof fake.userSends>[0], 'chat' | 'from'>) =>
    fake.userSends({ chat: USER.id, from: USER, ...message });

  return {
    createAdapter: (instance) =>
      createTelegramAdapter({
        bot: 'main',
        token: fake.token,
        apiRoot: proxy.url,
        mode: instance === 0 ? 'polling' : 'webhook',
        logger: silentLogger(),
        botInfo: fake.botInfo,
      }),
    async userSends(text) {
      send({ text });
    },
    async userSendsFile(file, caption) {
      const ref = fake.addFile(file.bytes, { fileName: file.fileName, mimeType: file.mimeType });
      send({ [file.as]: ref, ...(caption ? { caption } : {}) });
    },
    async userSendsGoneFile(file, caption) {
      const ref = fake.addFile(file.bytes, { fileName: file.fileName, mimeType: file.mimeType });
      fake.forgetFile(ref.file_id);
      send({ [file.as]: ref, ...(caption ? { caption } : {}) });
    },
    async userSendsTwice(text) {
      fake.redeliver(send({ text }));
    },
    buttons: () => inlineButtons().map((button) => button.text),
    async pressButton(label) {
      const button = inlineButtons().find((candidate) => candidate.text === label);
      if (!button || !('callback_data' in button)) throw new Error(`Telegram shows no inline button "${label}"`);
      fake.pressButton({ chat: USER.id, messageId: withButtons()!.message_id, data: button.callback_data, from: USER });
    },
    screen: () => fake.visibleMessages(USER.id).map((message) => message.text),
    renders: () =>
      fake
        .chatLog(USER.id)
        .filter((call) => call.ok && SHOWN_BY.has(call.method) && call.visibleText !== undefined)
        .map((call) => call.visibleText!),
    async rateLimitNextFinal() {
      // The next sendMessage is the final: of an answer written as drafts, or of one that arrived at once.
      fake.failNext('sendMessage', { errorCode: 429, retryAfter: 1 });
    },
    goUnreachable: () => proxy.cut(),
    comeBack: () => proxy.restore(),
    async close() {
      await proxy.close();
      await fake.close();
    },
  };
}

describeAdapterConformance({
  platform: 'telegram',
  notApplicable: {
    'message too long':
      "a Telegram user cannot send more than 4,096 characters in one message (a caption: 1,024, or 4,096 with Premium), far under the service's 20,000",
  },
  createDriver: telegramDriver,
});
