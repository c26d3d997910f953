/**
 * An operator at work in the inbox, through the real HTTP server, real Redis, the real core and
 * the in-memory platform: the waiting list, a conversation, a reply that reaches the user (or the
 * platform's reason it did not), a claim, a hand-back (the user told, the bot answering again,
 * the history), the user's files passed on by the gateway, and user text kept as text.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError } from '../../../../src/contract.js';
import { HandoffAdminClient } from '../../../../src/handoff/index.js';
import type { InboxChange } from '../../../../src/handoff/pause/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { ADMIN_TOKEN as ADMIN, HANDOFF_REPLY, startHandoffStack, type HandoffStack } from '../stack.js';
import { conversationPage, csrfIn, startInboxProcess, type Browser, type InboxProcess } from './inbox-support.js';
import { userTexts } from '../../../../src/gateway/index.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const C1 = conversationPage('main', 'c1');

describe('an operator in the inbox', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-conversation');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  /** A gateway with `c1` handed to a person by Ana, the feed's changes recorded, and Bruno signed in. */
  const start = async (
    who: { user: { id: string; name: string; handle?: string } } = ana,
    first = 'Is anyone there?',
  ) => {
    const state = isolatedRedisStore('inbox-conversation', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client });
    running.push(process);
    const changes: InboxChange[] = [];
    process.handoff.feed!.subscribe((change) => changes.push(change));
    await process.platform.userSends('main', 'c1', first, who);
    // The bot answers (the demo chatbot may answer with an offer of a person too) before the user asks for one.
    await eventually(async () =>
      expect(await process.gateway.answered(process.platform.conversation('main', 'c1'))).toBe(true),
    );
    await process.platform.userSends('main', 'c1', '/human', who);
    await eventually(() => expect(process.platform.textsIn('c1')).toContain(HANDOFF_REPLY));
    const bruno = process.browser();
    expect((await bruno.signIn('Bruno')).status).toBe(303);
    return { process, bruno, changes, kinds: () => changes.map((change) => change.kind) };
  };
  const post = async (browser: Browser, path: string, form: Record<string, string> = {}) =>
    browser.post(path, { _csrf: await browser.csrf(C1), ...form });

  it('lists the waiting conversation and opens it: the transcript in a role="log", Reply, Send, Claim, Hand back', async () => {
    const { process, bruno, kinds } = await start();
    const shown = process.platform.textsIn('c1').length;
    const list = await bruno.get('/inbox');
    expect(list.html).toContain(`<a href="${C1}">Ana Lima (@analima) on Fakechat</a>`);
    expect(list.html).toMatch(/<dt>Chatbot<\/dt><dd>Oakridge Homes assistant<\/dd>/);
    expect(list.html).toMatch(/<dt>Waiting for<\/dt><dd>under a minute/);
    expect(list.html).toContain('<dt>Last message</dt><dd>Ana Lima (@analima): /human</dd>');
    expect(list.html).toContain('<dt>Claimed by</dt><dd>nobody yet</dd>');
    expect(list.html).toContain('<body data-events="/inbox/events">');
    expect(list.html).toMatch(/<section id="waiting" data-live/);

    const page = await bruno.get(C1);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<body data-events="/inbox/events?conversation=main%3Afakechat%3Ac1">');
    expect(page.html).toMatch(/<div id="transcript" class="transcript" role="log" aria-label="Transcript" data-live>/);
    expect(page.html).toMatch(/<section id="conversation-status" class="status" data-live/);
    const inOrder = [
      /<p class="text">Is anyone there\?<\/p>/,
      /<p class="text">\/human<\/p>/,
      /Handed over to a person: the user sent the \/human command\./,
      /<p class="text">A colleague from Oakridge Homes/,
    ];
    expect(page.html).toMatch(new RegExp(inOrder.map((part) => part.source).join('[\\s\\S]*')));
    expect(page.html).toContain(
      '<form method="post" action="/inbox/conversations/main%3Afakechat%3Ac1/messages" id="reply-form" class="reply">',
    );
    expect(page.html).toMatch(/<label for="reply">Reply<\/label>\s*<textarea name="text" id="reply"/);
    expect(page.html).toContain('<button type="submit">Send</button>');
    expect(page.html).toContain('<button type="submit">Claim</button>');
    expect(page.html).toContain('<button type="submit">Hand back</button>');
    // The change comes back through Redis pub/sub, after the request's answer.
    await eventually(() => expect(kinds()).toContain('handed-over'));
    // Wired by installHandoff: the user's messages to the person reach the feed too (once in the transcript).
    await eventually(() => expect(kinds()).toContain('user-message'));
    // Reading sends nothing to the user.
    expect(process.platform.textsIn('c1')).toHaveLength(shown);
  });

  it('shows whatever a user sends as text: no markup, no script, in the list and the conversation', async () => {
    const mallory = {
      user: { id: 'u-m', name: '<script>alert("name")</script>', handle: '"><img src=x onerror=alert(2)>' },
    };
    const { bruno } = await start(mallory, '<img src=x onerror=alert(1)><b>bold</b> & <script>alert(3)</script>');
    for (const page of [await bruno.get('/inbox'), await bruno.get(C1)]) {
      expect(page.html).not.toMatch(/<script>alert|<img src=x|<b>bold/);
      expect(page.html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    }
    const conversation = await bruno.get(C1);
    expect(conversation.html).toContain(
      '<p class="text">&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(3)&lt;/script&gt;</p>',
    );
  });

  it("sends a reply to the user on their platform, records it with the operator's name, and tells the live pages", async () => {
    const { process, bruno, kinds } = await start();
    const sent = await post(bruno, `${C1}/messages`, {
      text: 'Hi Ana, this is **Bruno** from Oakridge.\nHow can I help?',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(C1);
    expect(process.platform.textsIn('c1').at(-1)).toBe('Hi Ana, this is Bruno from Oakridge.\nHow can I help?');
    const transcript = await process.gateway.transcript.read(process.platform.conversation('main', 'c1'));
    expect(transcript.at(-1)).toMatchObject({
      role: 'operator',
      operator: 'Bruno',
      text: 'Hi Ana, this is **Bruno** from Oakridge.\nHow can I help?',
    });
    expect((await bruno.get(C1)).html).toMatch(/<span class="speaker">Bruno \(operator\)<\/span>/);
    // The change comes back through Redis pub/sub, after the request's answer.
    await eventually(() => expect(kinds()).toContain('operator-message'));

    const empty = await post(bruno, `${C1}/messages`, { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toMatch(/role="alert">Your reply was not sent: A reply has 1 to 20,000 characters\./);
  });

  it("shows the platform's reason when a reply cannot be delivered, keeps the draft, and records nothing", async () => {
    const { process, bruno } = await start();
    const reason =
      '(#131047) Re-engagement message: more than 24 hours have passed since the customer last replied to this number';
    const { outbound } = process.adapters[0]!;
    const send = outbound.send.bind(outbound);
    // The platform refuses this one message, as WhatsApp does outside its 24-hour window.
    outbound.send = async () => {
      outbound.send = send;
      throw new PlatformError(reason, 'other');
    };
    const before = await process.gateway.transcript.read(process.platform.conversation('main', 'c1'));
    const refused = await post(bruno, `${C1}/messages`, { text: 'Are you still there?' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain(
      `<p class="alert" role="alert">Your reply was not sent: the platform said &quot;${reason}&quot;.</p>`,
    );
    expect(refused.html).toMatch(/<textarea name="text" id="reply"[^>]*>Are you still there\?<\/textarea>/);
    expect(process.platform.textsIn('c1')).not.toContain('Are you still there?');
    expect(await process.gateway.transcript.read(process.platform.conversation('main', 'c1'))).toEqual(before);
  });

  it('claims the conversation: kept with the pause, shown to every operator, taken over through the admin API', async () => {
    const { process, bruno, kinds } = await start();
    const claimed = await post(bruno, `${C1}/claim`);
    expect(claimed.status).toBe(303);
    const conversation = process.platform.conversation('main', 'c1');
    expect((await process.handoff.controller.activePause(conversation))?.claim).toMatchObject({ by: 'Bruno' });
    const mine = await bruno.get(C1);
    expect(mine.html).toMatch(/<dt>Claimed by<\/dt><dd>Bruno \(<time/);
    // Bruno's own page offers no Claim any more.
    expect(mine.html).not.toContain('<button type="submit">Claim</button>');
    // The change comes back through Redis pub/sub, after the request's answer.
    await eventually(() => expect(kinds()).toContain('claimed'));

    const carla = process.browser();
    await carla.signIn('Carla');
    expect((await carla.get('/inbox')).html).toContain('<dt>Claimed by</dt><dd>Bruno</dd>');
    expect((await carla.get(C1)).html).toContain('<button type="submit">Claim</button>');

    // The CLI's door (`chatbridge handoff claim`): the admin API, through the client the CLI uses.
    const cli = new HandoffAdminClient(process.url, ADMIN);
    expect(await cli.claim('main:fakechat:c1', 'Dana')).toEqual({
      conversation: 'main:fakechat:c1',
      claimedBy: 'Dana',
      takenFrom: 'Bruno',
    });
    await expect(cli.claim('main:fakechat:nobody', 'Dana')).rejects.toThrow(
      /HTTP 409: main:fakechat:nobody is not waiting for a person/,
    );
    const handoffs = await fetch(`${process.url}/admin/handoffs`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(await handoffs.json()).toMatchObject({
      handoffs: [{ conversation: 'main:fakechat:c1', claimedBy: 'Dana' }],
    });
    const events = (await process.gateway.transcript.read(conversation)).filter((entry) => entry.event === 'claimed');
    expect(events.map((entry) => entry.text)).toEqual([
      'Bruno claimed the conversation.',
      'Dana took the conversation over from Bruno.',
    ]);
  });

  it('hands back: the user is told, the conversation leaves the list for the history, and the bot answers again', async () => {
    const { process, bruno, kinds } = await start();
    await post(bruno, `${C1}/claim`);
    const back = await post(bruno, `${C1}/hand-back`);
    expect(back.status).toBe(303);
    expect(process.platform.textsIn('c1').at(-1)).toBe(userTexts.handoff.botIsBack);
    // The change comes back through Redis pub/sub, after the request's answer.
    await eventually(() => expect(kinds()).toContain('handed-back'));

    const list = await bruno.get('/inbox');
    expect(list.html).not.toContain('Ana Lima');
    expect(list.html).toContain('Nobody is waiting');
    const page = await bruno.get(C1);
    expect(page.html).toContain('Handed back: the assistant answers this conversation.');
    expect(page.html).toContain('Handed back to the assistant by Bruno.');
    expect(page.html).not.toContain('id="reply-form"');
    const history = await bruno.get('/inbox/history');
    expect(history.html).toContain(`<a href="${C1}">Ana Lima (@analima) on Fakechat</a>`);
    expect(history.html).toMatch(
      /<dt>Handed back<\/dt><dd><time[^>]*>[^<]*<\/time> by Bruno, after under a minute with a person<\/dd>/,
    );
    expect(history.html).toContain('<dt>Claimed by</dt><dd>Bruno</dd>');

    // A reply or a second hand-back from a page left open changes nothing.
    const late = await bruno.post(`${C1}/messages`, { _csrf: csrfIn(page.html), text: 'Still there?' });
    expect(late.status).toBe(409);
    expect(late.html).toContain('This conversation was handed back to the assistant: your reply was not sent.');
    expect((await bruno.post(`${C1}/hand-back`, { _csrf: csrfIn(page.html) })).status).toBe(409);

    const asks = stack.clientAsks();
    const shown = process.platform.textsIn('c1').length;
    await process.platform.userSends('main', 'c1', 'Homes in Austin?', ana);
    await eventually(() => expect(process.platform.textsIn('c1').length).toBe(shown + 1));
    expect(stack.clientAsks()).toBe(asks + 1);
  });

  it("passes the user's files on through the gateway: images shown, anything else downloaded, never as a page", async () => {
    const state = isolatedRedisStore('inbox-conversation', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client });
    running.push(process);
    const photo = process.platform.addFile({
      bytes: PNG,
      kind: 'image',
      mimeType: 'image/png',
      fileName: 'kitchen.png',
    });
    const page = Buffer.from('<html><script>alert(1)</script></html>');
    const document = process.platform.addFile({
      bytes: page,
      kind: 'document',
      mimeType: 'text/html',
      fileName: 'offer.html',
    });
    await process.platform.userSends('main', 'c1', 'Look at these', { ...ana, attachments: [photo, document] });
    await process.platform.userSends('main', 'c1', '/human', ana);
    await eventually(() => expect(process.platform.textsIn('c1')).toContain(HANDOFF_REPLY));
    const bruno = process.browser();
    await bruno.signIn();

    const html = (await bruno.get(C1)).html;
    const links = [...html.matchAll(/"(\/inbox\/conversations\/main%3Afakechat%3Ac1\/files\/\d+\/\d)"/g)].map(
      (match) => match[1]!,
    );
    expect(new Set(links).size).toBe(2);
    expect(html).toMatch(
      /<img src="\/inbox\/conversations\/main%3Afakechat%3Ac1\/files\/\d+\/0" alt="Photo from Ana Lima \(@analima\): kitchen.png" class="photo">/,
    );
    expect(html).toContain('>document (offer.html, text/html, 38 bytes)</a>');

    const image = await bruno.get(links.find((link) => link.endsWith('/0'))!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toMatch(/^inline; filename="kitchen.png"/);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const imageBytes = await fetch(`${process.url}${links.find((link) => link.endsWith('/0'))!}`, {
      headers: { cookie: `cb_inbox=${bruno.session}` },
    });
    expect(Buffer.from(await imageBytes.arrayBuffer())).toEqual(PNG);

    const file = await bruno.get(links.find((link) => link.endsWith('/1'))!);
    expect(file.status).toBe(200);
    // The declared text/html is not believed: bytes with no known type go out as a download.
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="offer.html"/);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(file.html).toBe(page.toString());

    expect((await bruno.get(`${C1}/files/1/0`)).status).toBe(404);
    expect((await process.browser().get(links[0]!)).status).toBe(401);
  });
});
