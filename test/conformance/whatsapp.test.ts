/**
 * The WhatsApp adapter through the conformance suite, on the fake whatsapp-web.js (the
 * real library cannot run offline) talking to the fake WhatsApp world. The user writes in
 * a private chat; the phone at hand scans any QR a client shows, as a user linking the
 * number would. Both gateway instances run the adapter with the bot's state (session,
 * lease) in Redis: one holds the number and runs the client, the other stands by and
 * takes over when the first stops (crash and takeover).
 *
 * WhatsApp has no buttons for a linked device: a listing says which words page it
 * ("Send `/listings 2` for the next page"), so here a "button" is such a hint and pressing
 * it is writing those words, which is what a WhatsApp user does.
 */
import { createWhatsAppAdapter } from '../../adapters/whatsapp/index.js';
import type { Adapter } from '../../src/contract.js';
import { silentLogger } from '../../src/logger.js';
import { platformStorage } from '../../src/runtime/platform-storage.js';
import { startFakeWhatsApp, type MessageData } from '../../fakes/whatsapp/index.js';
import { isolatedRedisStore } from '../support/redis.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

// The fake RemoteAuth saves the session after this instead of the real one's 60 s (fakes/whatsapp/remote-auth.ts).
process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS = '300';

const USER = '4915112345678';
const CHAT = `${USER}@c.us`;
/** Short lease and restart timings: a standby instance takes over within a second of a stop. */
const TIMINGS = {
  ttlMs: 3_000,
  renewEveryMs: 1_000,
  retryEveryMs: 200,
  restartMinMs: 200,
  restartMaxMs: 1_000,
  destroyTimeoutMs: 2_000,
};
/** A listing's paging hint: "Send `/listings 2` for the next page". */
const HINT = /`(\/listings[^`]*)` for the (next|previous) page/g;

async function whatsappDriver(): Promise<ConformanceDriver> {
  const fake = await startFakeWhatsApp();
  const store = isolatedRedisStore('whatsapp-conformance');
  const adapters: Adapter[] = [];
  // The phone scans whatever QR a client shows.
  const scan = (): void => {
    if (fake.clients().some((client) => client.state === 'waiting-for-qr')) fake.scanQr();
  };
  fake.world.on('change', scan);

  /** The user writes once the number is linked and a client is ready to receive. */
  const linked = () =>
    fake.waitFor(() => adapters.some((adapter) => adapter.status?.().connected === true), {
      timeoutMs: 15_000,
      what: 'a linked, ready WhatsApp client',
    });
  const send = async (input: Parameters<typeof fake.userSends>[0]): Promise<MessageData> => {
    await linked();
    return fake.userSends({ from: USER, ...input });
  };

  const hints = (): { label: string; words: string }[] => {
    for (const text of [...fake.screen(CHAT)].reverse()) {
      const found = [...text.matchAll(HINT)].map((match) => ({
        label: match[2] === 'next' ? 'Next »' : '« Previous',
        words: match[1]!,
      }));
      if (found.length > 0) return found;
    }
    return [];
  };

  return {
    createAdapter() {
      const adapter = createWhatsAppAdapter({
        bot: 'main',
        logger: silentLogger(),
        storage: platformStorage(store, 'whatsapp', 'main'),
        // The fake library checks only that the browser exists; any file does.
        chromiumPath: process.execPath,
        library: () => Promise.resolve(fake.library),
        // The suite's welcome scenario is `/start`; the first-contact greeting has its own tests.
        welcomeNewChats: false,
        timings: TIMINGS,
        terminalQr: false,
      });
      adapters.push(adapter);
      return adapter;
    },
    async userSends(text) {
      await send({ text });
    },
    async userSendsFile(file, caption) {
      await send({
        text: caption,
        type: file.as === 'photo' ? 'image' : 'document',
        media: { bytes: file.bytes, mimetype: file.mimeType, filename: file.fileName },
      });
    },
    async userSendsGoneFile(file, caption) {
      await send({
        text: caption,
        type: file.as === 'photo' ? 'image' : 'document',
        // downloadMedia() resolves null: WhatsApp no longer has the file.
        media: { bytes: file.bytes, mimetype: file.mimeType, filename: file.fileName, expired: true },
      });
    },
    async userSendsTwice(text) {
      // WhatsApp Web emits one message twice (same id) now and then.
      const message = await send({ text });
      fake.redeliver(message);
    },
    buttons: () => hints().map((hint) => hint.label),
    async pressButton(label) {
      const hint = hints().find((h) => h.label === label);
      if (!hint) throw new Error(`WhatsApp shows no "${label}" hint`);
      await send({ text: hint.words });
    },
    screen: () => fake.screen(CHAT),
    renders: () => fake.renders(CHAT),
    goUnreachable: async () => fake.goUnreachable(),
    comeBack: async () => fake.comeBack(),
    async close() {
      fake.world.off('change', scan);
      for (const adapter of adapters) await adapter.stop().catch(() => undefined);
      await fake.close();
      await store.cleanup();
    },
  };
}

describeAdapterConformance({
  platform: 'whatsapp',
  notApplicable: {
    '429 on the final':
      "WhatsApp Web answers no 429: the library has no rate-limit refusal with a retry-after to wait out (edits are paced by the adapter's interval instead)",
  },
  createDriver: whatsappDriver,
});
