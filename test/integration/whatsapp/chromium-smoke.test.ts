/**
 * The one test with the real whatsapp-web.js and a real browser: the connection launches
 * Chromium through the library's puppeteer with the project's flags, on this closed network
 * WhatsApp Web cannot be reached, and the failure is clean: a clear log line, a retry, no
 * crash, the process alive, the browser closed on stop. Skipped where Chromium is absent.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { WhatsAppConnection } from '../../../adapters/whatsapp/connection.js';
import { loadWhatsAppLibrary } from '../../../adapters/whatsapp/load-library.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);

describe.skipIf(!present)(
  `WhatsApp Web in the real Chromium (${present ? CHROMIUM : `skipped: no Chromium at ${CHROMIUM}; apt-get install chromium or set CHROMIUM_PATH`})`,
  () => {
    const state = new RedisStateStore({ url: testRedisUrl(), prefix: `cbtest:wa-smoke:${randomUUID().slice(0, 8)}:` });
    afterAll(async () => {
      await state.deleteByPrefix();
      await state.close();
    });

    it("launches Chromium through whatsapp-web.js with the project's flags and fails cleanly on the closed network: logged, retried, no crash", async () => {
      const lines: { msg: string; level: number; err?: { message?: string } }[] = [];
      const logger = pino(
        { level: 'debug' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()));
            done();
          },
        }),
      );
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const attached: unknown[] = [];
      const connection = new WhatsAppConnection({
        bot: 'smoke',
        logger,
        storage: platformStorage(state, 'whatsapp', 'smoke'),
        library: loadWhatsAppLibrary,
        chromiumPath: CHROMIUM,
        attach: (client) => attached.push(client),
        terminalQr: false,
        timings: { restartMinMs: 500, restartMaxMs: 1_000 },
      });
      try {
        await connection.start();
        const failures = () => lines.filter((line) => line.msg === 'WhatsApp Web did not start; trying again');
        await vi.waitFor(() => expect(failures().length).toBeGreaterThanOrEqual(2), { timeout: 15_000, interval: 100 });
        // Each try was a new client, attached before its initialize().
        expect(attached.length).toBeGreaterThanOrEqual(2);
        expect(failures()[0]!.err?.message).toMatch(/net::ERR_|web\.whatsapp\.com/);
        expect(connection.status()).toMatchObject({
          connected: false,
          reason: expect.stringMatching(/^WhatsApp Web did not start: .*net::ERR_/),
        });
        expect(connection.client()).toBeUndefined();
      } finally {
        await connection.stop();
        process.off('unhandledRejection', onUnhandled);
      }
      expect(unhandled).toEqual([]);
    }, 20_000);
  },
);
