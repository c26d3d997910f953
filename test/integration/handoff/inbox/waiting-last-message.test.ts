/**
 * The waiting list's "Last message" is the user's last words, what the operator must answer: not the bot's
 * handoff reply that follows them, nor an operator's answer; a message of files only is named by its files.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HANDOFF_REPLY, startHandoffStack, type HandoffStack } from '../stack.js';
import { conversationPage, startInboxProcess, type InboxProcess } from './inbox-support.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The waiting list's "Last message" of the one conversation waiting. */
function lastMessageIn(html: string): string {
  const match = /<dt>Last message<\/dt><dd>([^<]*)<\/dd>/.exec(html);
  if (!match) throw new Error(`no "Last message" in:\n${html}`);
  return match[1]!;
}

describe('the waiting list: the last message', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-last-message');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  it("is the user's last words, not the bot's handoff reply after them nor an operator's answer", async () => {
    const state = isolatedRedisStore('inbox-last-message', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client });
    running.push(process);
    const conversation = process.platform.conversation('main', 'c1');
    await process.platform.userSends('main', 'c1', '/human', ana);
    await eventually(() => expect(process.platform.textsIn('c1')).toContain(HANDOFF_REPLY));
    const bruno = process.browser();
    await bruno.signIn('Bruno');
    expect(lastMessageIn((await bruno.get('/inbox')).html)).toBe('Ana Lima (@analima): /human');

    await process.platform.userSends('main', 'c1', 'Is the house on Elm Street still for sale?', ana);
    await eventually(async () => {
      const transcript = await process.gateway.transcript.read(conversation, 5);
      expect(transcript.at(-1)?.text).toBe('Is the house on Elm Street still for sale?');
    });
    const csrf = await bruno.csrf(conversationPage('main', 'c1'));
    const reply = await bruno.post(`${conversationPage('main', 'c1')}/messages`, { _csrf: csrf, text: 'Let me check' });
    expect(reply.status).toBe(303);
    expect(lastMessageIn((await bruno.get('/inbox')).html)).toBe(
      'Ana Lima (@analima): Is the house on Elm Street still for sale?',
    );

    const photo = process.platform.addFile({ bytes: PNG, kind: 'image', mimeType: 'image/png', fileName: 'elm.png' });
    await process.platform.userSends('main', 'c1', '', { ...ana, attachments: [photo] });
    await eventually(async () =>
      expect(lastMessageIn((await bruno.get('/inbox')).html)).toMatch(/^Ana Lima \(@analima\): \(image.*elm\.png.*\)$/),
    );
  });
});
