/**
 * Meta's batches taken message by message, and users Meta names only by their business-scoped
 * user id (BSUID: a WhatsApp username, no number), as `chatbridge start` meets them on the default
 * set-up (the embedded demo chatbot). A `user_changed_user_id` notice (a `system` message with no
 * `from`) in the same POST as a user's text does not cost the text: the POST is answered 200 and
 * the text once. A BSUID-only user is answered like any other (written to with `recipient`), and
 * after their id changes their next message lands in the same conversation. A reaction is an
 * acknowledgement, not a question: it is not answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-cloud-batches-admin-token';
/** The demo chatbot's greeting (config/demo/chatbot.yaml), sent before a user's first message. */
const WELCOME = "Hi! I'm the Oakridge Homes assistant.";
const WAIT = { timeoutMs: 45_000 };
const POLL = { timeout: WAIT.timeoutMs };

describe('chatbridge start with WhatsApp Cloud: batches, business-scoped user ids, reactions', () => {
  let cloud: CloudProcess;

  const answers = (user: string) => cloud.texts(user).filter((text) => !text.startsWith(WELCOME));
  const until = (condition: () => boolean, what: string) => cloud.fake.waitFor(condition, { ...WAIT, what });
  const transcript = async (conversationId: string) => {
    const response = await fetch(
      `${cloud.base}/admin/conversations/${encodeURIComponent(`main:whatsapp-cloud:${conversationId}`)}`,
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    );
    const body = (await response.json()) as { transcript?: { role: string; text: string }[] };
    return body.transcript ?? [];
  };
  const userTexts = async (conversationId: string) =>
    (await transcript(conversationId)).filter((entry) => entry.role === 'user').map((entry) => entry.text);

  beforeAll(async () => {
    cloud = await startCloudGateway({ fake: { pairRateLimit: false }, env: { ADMIN_TOKEN } });
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
  });

  it("answers 200 to a batch holding a user_changed_user_id notice and a user's text, and the text once", async () => {
    const user = '4915100034801';
    const [notice, text] = await cloud.fake.usersSendTogether([
      { from: 'DE.1500000000000001', name: 'Uli', userIdChanged: { newUserId: 'DE.1500000000000002' } },
      { from: user, text: 'Homes in Austin?' },
    ]);
    // The fake resolves once the gateway answered 200; its first try was that 200.
    const tries = cloud.fake.webhookAttempts().filter((attempt) => attempt.id === `${notice},${text}`);
    expect(tries.map((attempt) => attempt.status)).toEqual([200]);
    await until(() => answers(user).length > 0, 'the answer to the text');
    // The greeting before a first message is recorded as /start.
    await expect.poll(() => userTexts(user), POLL).toEqual(['/start', 'Homes in Austin?']);
    expect(answers(user).filter((answer) => /Austin/.test(answer))).toHaveLength(1);
  }, 60_000);

  it('answers a user known only by their business-scoped id, and keeps them in their conversation when the id changes', async () => {
    const first = 'US.13491208655302741918';
    const next = 'US.13491208655302749999';
    await cloud.fake.userSends({ from: first, name: 'Robin', text: 'Homes in Austin?' });
    await until(() => answers(first).some((answer) => /Austin/.test(answer)), 'the answer to the BSUID-only user');
    // Written to by `recipient`: Meta has no number to put in `to`.
    const sends = cloud.fake.calls().filter((call) => call.method === 'POST' && call.path.endsWith('/messages'));
    expect(sends.some((call) => (call.body as { recipient?: string }).recipient === first)).toBe(true);

    // Meta gives the user a new id, then they write again, in the same batch.
    await cloud.fake.usersSendTogether([
      { from: first, name: 'Robin', userIdChanged: { newUserId: next } },
      { from: next, name: 'Robin', text: 'Homes in Denver?' },
    ]);
    await until(() => answers(next).some((answer) => /Denver/.test(answer)), 'the answer at the new id');
    // One conversation: both messages in its transcript (and session), greeted once, not again at the new id.
    await expect.poll(() => userTexts(first), POLL).toEqual(['/start', 'Homes in Austin?', 'Homes in Denver?']);
    expect(cloud.texts(next).some((text) => text.startsWith(WELCOME))).toBe(false);
    expect(await userTexts(next)).toEqual([]);

    // And the message after that too.
    await cloud.fake.userSends({ from: next, name: 'Robin', text: 'Homes in Portland?' });
    await until(() => answers(next).some((answer) => /Portland/.test(answer)), 'the answer to the next message');
    await expect
      .poll(() => userTexts(first), POLL)
      .toEqual(['/start', 'Homes in Austin?', 'Homes in Denver?', 'Homes in Portland?']);
  }, 90_000);

  it("does not answer a reaction to the bot's message", async () => {
    const user = '4915100034803';
    await cloud.fake.userSends({ from: user, text: 'Homes in Austin?' });
    await until(() => answers(user).length > 0, 'the answer');
    const answer = cloud.fake.visibleMessages(user).at(-1)!;
    await cloud.fake.userSends({ from: user, reaction: { messageId: answer.id, emoji: '👍' } });
    // Answered in order: once the next text is answered, the reaction was long handled.
    await cloud.fake.userSends({ from: user, text: 'Homes in Denver?' });
    await until(() => answers(user).some((text) => /Denver/.test(text)), 'the answer to the next text');
    expect(answers(user)).toHaveLength(2);
    expect(answers(user).join('\n')).not.toMatch(/kind of file/);
  }, 60_000);
});
