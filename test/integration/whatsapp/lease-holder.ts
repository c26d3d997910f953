/**
 * One gateway process's side of the WhatsApp browser lease, as a child process of
 * lease.test.ts: `node --import tsx lease-holder.ts <redis url> <key prefix> <ttl ms>`.
 * Prints ACQUIRED, STANDBY (once) and LOST on stdout; on SIGTERM releases the lease
 * (as `chatbridge start` does on stop) and exits.
 */
import { pino } from 'pino';
import { browserLease } from '../../../adapters/whatsapp/lease.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';

const [url, prefix, ttl] = process.argv.slice(2);
const ttlMs = Number(ttl);
const state = new RedisStateStore({ url: url!, prefix: prefix! });
const say = (line: string) => process.stdout.write(`${line}\n`);
let standbySaid = false;
const lease = browserLease(
  platformStorage(state, 'whatsapp', 'main'),
  pino({ level: 'silent' }),
  {
    acquired: () => {
      say('ACQUIRED');
    },
    lost: () => {
      say('LOST');
    },
    standby: () => {
      if (!standbySaid) say('STANDBY');
      standbySaid = true;
    },
  },
  { ttlMs, renewEveryMs: Math.floor(ttlMs / 3), retryEveryMs: 200 },
);
lease.start();
process.once('SIGTERM', () => {
  void lease.stop().then(async () => {
    await state.close();
    say('RELEASED');
    process.exit(0);
  });
});
