/**
 * Issue #18, item 2: the "interrupted" note waits for the platform as the answer does. Two
 * `chatbridge start` processes serve one WhatsApp number on one Redis (whatsapp-web.js swapped
 * for the fake in each by its module hook): the first runs the browser, the second stands by.
 * The first is killed (SIGKILL) mid-answer. Its conversation lock lives 2 s, the browser lease
 * 30 s: the standby takes the conversation over long before it can run the browser, so at first
 * it has no WhatsApp to tell the user with. Once its browser is up, the half-written message gets
 * the note edited into it, and only then comes the answer given again, complete, once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationTag, pendingMembers, userTexts } from '../../../src/gateway/index.js';
import { inflightIndexKey } from '../../../src/gateway/relay/index.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import {
  FAST_TAKEOVER,
  startDeliveryGateway,
  startScriptedService,
  until,
  waitForLog,
  type DeliveryGateway,
  type ScriptedService,
} from '../../support/delivery-gateway.js';

const REGISTER = join(import.meta.dirname, '../../../fakes/whatsapp/register.mjs');
const USER = '4915100000301';
const CHAT = `${USER}@c.us`;
const CONVERSATION = { bot: 'main', platform: 'whatsapp', id: CHAT };
const QUESTION = 'Homes for sale in Austin?';
const FRAGMENTS = [
  'Here are the homes for sale in Austin that match what you asked for. ',
  'First, 1200 Barton Springs Rd: three bedrooms and a garden. ',
  'Second, 300 Bowie St: a flat with a view over the river. ',
  'That is all I have for now.',
];
const WHOLE_ANSWER = FRAGMENTS.join('').trim();
const NOTE = userTexts.interruptedNote;
/** The standby gets the browser once the killed holder's lease (30 s) expires; then the note and the answer wait out their backoff. */
const TAKEOVER = { timeoutMs: 150_000 };

describe('a WhatsApp answer cut off by a crash, taken over by a standby without the browser (chatbridge start, as processes)', () => {
  let fake: FakeWhatsApp;
  let service: ScriptedService;
  const gateways: DeliveryGateway[] = [];

  afterEach(async () => {
    for (const gateway of gateways.splice(0)) {
      // A killed process has nothing left to stop; the shared state is deleted by the survivor's cleanup.
      if (gateway.process.child.signalCode === 'SIGKILL') await gateway.state.close();
      else await gateway.cleanup();
    }
    await service?.close();
    await fake?.close();
  });

  it('edits the note into the half-written message once the browser is up, before the answer given again, once each', async () => {
    fake = await startFakeWhatsApp();
    // The first ask stops after two fragments (its process is killed then); the second is answered in full.
    service = await startScriptedService((_question, askNumber) =>
      askNumber === 1 ? { fragments: FRAGMENTS, gapMs: 300, hangAfter: 2 } : { fragments: FRAGMENTS, gapMs: 100 },
    );
    const env = {
      WHATSAPP_ENABLED: 'true',
      // The fake library only checks that the browser exists.
      CHROMIUM_PATH: process.execPath,
      FAKE_WHATSAPP_URL: fake.url,
      NODE_OPTIONS: `--import ${REGISTER}`,
      // The linked session is saved to Redis at once (not after a minute), so the standby resumes it without a QR.
      FAKE_WHATSAPP_BACKUP_SYNC_MS: '300',
    };
    const options = { env, upstreamUrl: service.url, gateway: FAST_TAKEOVER };

    const holder = await startDeliveryGateway(options);
    gateways.push(holder);
    await fake.waitFor(() => fake.clients().some((client) => client.state === 'waiting-for-qr'), {
      timeoutMs: 20_000,
      what: 'a QR to scan',
    });
    fake.scanQr();
    await waitForLog(holder.process, /WhatsApp session saved to the state store/);
    const standby = await startDeliveryGateway({ ...options, prefix: holder.prefix });
    gateways.push(standby);
    await waitForLog(standby.process, /standing by to take over/);

    fake.userSends({ from: USER, name: 'Ana Lima', text: QUESTION });
    await fake.waitFor(() => fake.screen(CHAT).some((text) => text.includes('homes for sale in Austin')), {
      timeoutMs: 45_000,
      what: 'the half answer',
    });
    // What the answer left on screen is recorded for whoever takes over.
    await until(
      async () =>
        (
          await holder.state.sortedRangeByScore(
            inflightIndexKey(conversationTag(CONVERSATION)),
            Number.NEGATIVE_INFINITY,
            Number.POSITIVE_INFINITY,
          )
        ).length > 0,
      'the in-flight record',
    );
    const half = fake.world
      .botMessages(CHAT)
      .find((message) => message.data.body.includes('homes for sale in Austin'))!;
    const halfId = half.data.id._serialized;
    const halfText = half.data.body;
    const rendersBefore = fake.renders(CHAT).length;
    holder.process.child.kill('SIGKILL');
    await new Promise((resolve) => holder.process.child.once('exit', resolve));

    await fake.waitFor(() => fake.screen(CHAT).at(-1)?.trim() === WHOLE_ANSWER, {
      ...TAKEOVER,
      what: 'the answer given again, complete',
    });
    await until(async () => (await pendingMembers(standby.state)).length === 0, 'the message to leave the queue');

    // The half-written message carries the note after what it showed.
    const closed = fake.world.botMessages(CHAT).find((message) => message.data.id._serialized === halfId)!;
    expect(closed.data.body.startsWith(halfText.trimEnd().slice(0, 40))).toBe(true);
    expect(closed.data.body.trimEnd().endsWith(NOTE)).toBe(true);
    // After the crash, the note came first (an edit of that message), then the answer given again.
    const rendersAfter = fake.renders(CHAT).slice(rendersBefore);
    expect(rendersAfter[0]).toBe(closed.data.body);
    expect(rendersAfter.filter((text) => text.includes(NOTE))).toHaveLength(1);
    // Once each on the screen: the note in the half message, and the whole answer in a message of its own, last.
    const screen = fake.screen(CHAT);
    expect(screen.filter((text) => text.includes(NOTE))).toEqual([closed.data.body]);
    expect(screen.filter((text) => text.trim() === WHOLE_ANSWER)).toHaveLength(1);
    expect(screen.indexOf(closed.data.body)).toBeLessThan(screen.length - 1);
    expect(service.questions).toEqual([QUESTION, QUESTION]);

    // The standby took the conversation over before it held the browser, and waited for it rather than drop the note.
    const log = standby.process.log();
    const tookConversation = log.indexOf('taking over a conversation queue whose holder stopped');
    expect(tookConversation).toBeGreaterThan(-1);
    expect(tookConversation).toBeLessThan(log.indexOf('took the WhatsApp browser lease'));
    expect(log).toMatch(/the note on an interrupted answer waits for it/);
  }, 240_000);
});
