/**
 * Operators answer handed-over conversations in a Slack thread, end to end: `chatbridge start`
 * as a process whose users are on Telegram (the fake Telegram) and whose operators have a
 * Slack app of their own (HANDOFF_SLACK_* against the fake Slack, events and presses POSTed
 * signed to /slack/operators/events), on the default set-up (the embedded demo chatbot).
 * Each specification hands over a Telegram user of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES, startFakeSlack, type FakeSlack, type VisibleMessage } from '../../../fakes/slack/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { userTexts } from '../../../src/gateway/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { runDoctor } from '../../support/doctor-process.js';
import { addOperatorAccount } from '../../support/operator-accounts.js';
import { testRedisUrl } from '../../support/redis.js';
import { eventually } from '../../unit/gateway/support/recording-adapter.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-slack-threads-admin-token';
const OPS_CHANNEL = 'C0OPSE2E001';
/** The operators' app: the bot's scopes and those of adapters/slack/operators/manifest.yaml. */
const DOOR_SCOPES = [
  ...DEFAULT_SCOPES,
  'channels:read',
  'groups:read',
  'users:read',
  'users:read.email',
  'files:write',
];
const BRUNO = { id: 'U0OPERBRUNO', display_name: 'Bruno', real_name: 'Bruno Costa', email: 'bruno@example.com' };
const CARLA = { id: 'U0OPERCARLA', display_name: 'Carla', real_name: 'Carla Dias' };
/** An operator account's holder: her profile's e-mail is the account's. */
const DANA = { id: 'U0OPERDANA1', display_name: 'dana', real_name: 'Dana Silva', email: 'Dana.Silva@Oakridge.example' };
/** The demo chatbot's TalkToHumanResponseMessage (config/demo/chatbot.yaml). */
const DEMO_HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const ASK_FOR_A_PERSON = 'I want to talk to a person';
/** A question the demo chatbot answers with listings. */
const QUESTION = 'Do you have homes for sale in Austin?';
const ANSWER_MARK = 'MLS TX-10452';
const WAIT = { timeoutMs: 45_000 };

interface TelegramUser {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
}
const telegramUser = (id: number, first_name: string): TelegramUser => ({
  id,
  first_name,
  last_name: 'Tester',
  username: first_name.toLowerCase(),
});

interface Stack {
  slack: FakeSlack;
  telegram: FakeTelegram;
  gateway: ChatbridgeProcess;
}

async function startStack(mode: 'threads' | 'alerts'): Promise<Stack> {
  const slack = await startFakeSlack({ rateLimits: false, scopes: DOOR_SCOPES });
  slack.addConversation({ id: OPS_CHANNEL, name: 'support' });
  slack.addUser(BRUNO);
  slack.addUser(CARLA);
  slack.addUser(DANA);
  const telegram = await startFakeTelegram({ rateLimit: false });
  const gateway = await startChatbridge({
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    HANDOFF_SLACK_CHANNEL: OPS_CHANNEL,
    HANDOFF_SLACK_BOT_TOKEN: slack.botToken,
    HANDOFF_SLACK_SIGNING_SECRET: slack.signingSecret,
    HANDOFF_SLACK_API_URL: slack.apiUrl,
    HANDOFF_SLACK_MODE: mode,
    ADMIN_TOKEN,
  });
  return { slack, telegram, gateway };
}

/** What the tests do as the user on Telegram, as an operator in Slack, and through the admin API. */
function actors({ slack, telegram, gateway }: Stack) {
  const eventsUrl = `http://127.0.0.1:${gateway.port}/slack/operators/events`;
  const conversation = (user: TelegramUser) => encodeURIComponent(`main:telegram:${user.id}`);
  const admin = async (method: 'GET' | 'POST', path: string) => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const seenBy = (user: TelegramUser) => telegram.visibleMessages(user.id);
  const textsSeenBy = (user: TelegramUser) => seenBy(user).map((message) => message.text);
  const cards = () => slack.visibleMessages(OPS_CHANNEL).filter((message) => message.thread_ts === undefined);
  const card = (ts: string) => cards().find((message) => message.ts === ts)!;

  return {
    eventsUrl,
    textsSeenBy,
    seenBy,
    cards,
    card,
    says: (user: TelegramUser, text: string) => telegram.userSends({ chat: user.id, from: user, text }),
    async untilSeenBy(user: TelegramUser, predicate: (texts: string[]) => boolean, what: string) {
      await telegram.waitFor(() => predicate(textsSeenBy(user)), { ...WAIT, what });
    },
    /** The user asks for a person; resolves with the ts of their thread's root, once its card quotes the ask. */
    async handOver(user: TelegramUser): Promise<string> {
      const before = new Set(cards().map((message) => message.ts));
      telegram.userSends({ chat: user.id, from: user, text: ASK_FOR_A_PERSON });
      await telegram.waitFor(() => textsSeenBy(user).includes(DEMO_HANDOFF_REPLY), {
        ...WAIT,
        what: 'the handoff reply on Telegram',
      });
      const opened = () =>
        cards().find((message) => !before.has(message.ts) && message.text.startsWith(user.first_name));
      await slack.waitFor(() => sectionOf(opened())?.includes(ASK_FOR_A_PERSON) ?? false, {
        ...WAIT,
        what: `the card of ${user.first_name}'s handoff quoting the ask`,
      });
      return opened()!.ts;
    },
    /** The gateway's posts in a thread, oldest first (the root excluded). */
    posts: (thread: string) => slack.visibleMessages(OPS_CHANNEL, thread),
    /** An operator writes in a thread: Slack POSTs the event to the operators' app; resolves with the event. */
    async writes(
      thread: string,
      text: string,
      options: { by?: { id: string }; files?: ReturnType<FakeSlack['addFile']>[] } = {},
    ) {
      const event = slack.humanWrites({
        channel: OPS_CHANNEL,
        thread_ts: thread,
        user: (options.by ?? BRUNO).id,
        text,
        ...(options.files ? { files: options.files } : {}),
      });
      expect((await slack.postSigned(eventsUrl, event)).status).toBe(200);
      return event;
    },
    async presses(thread: string, kind: 'claim' | 'hand-back', by: typeof BRUNO | typeof CARLA = BRUNO) {
      const press = slack.humanPresses({
        channel: OPS_CHANNEL,
        messageTs: thread,
        actionId: `chatbridge_operator_${kind}`,
        user: by.id,
      });
      expect((await slack.postSigned(eventsUrl, press)).status).toBe(200);
    },
    async transcript(user: TelegramUser) {
      const shown = await admin('GET', `/admin/conversations/${conversation(user)}`);
      return (shown.body.transcript ?? []) as {
        role: string;
        text: string;
        operator?: string;
        account?: string;
        via?: string;
        note?: true;
        event?: string;
      }[];
    },
    resume: (user: TelegramUser) => admin('POST', `/admin/conversations/${conversation(user)}/resume`),
  };
}

/** A file the bot sent on Telegram, as the user downloads it (getFile, then its path). */
async function downloadFromTelegram(telegram: FakeTelegram, fileId: string): Promise<Uint8Array> {
  const found = (await (
    await fetch(`${telegram.apiRoot}/bot${telegram.token}/getFile?file_id=${encodeURIComponent(fileId)}`)
  ).json()) as { result: { file_path: string } };
  const file = await fetch(`${telegram.apiRoot}/file/bot${telegram.token}/${found.result.file_path}`);
  return new Uint8Array(await file.arrayBuffer());
}

/** The card's body (its mrkdwn section). */
function sectionOf(card: VisibleMessage | undefined): string | undefined {
  const section = (card?.blocks ?? []).find((block) => (block as { type: string }).type === 'section') as
    { text: { text: string } } | undefined;
  return section?.text.text;
}

/** The labels of the card's buttons. */
function buttonsOf(card: VisibleMessage | undefined): string[] {
  const actions = (card?.blocks ?? []).find((block) => (block as { type: string }).type === 'actions') as
    { elements: { text: { text: string } }[] } | undefined;
  return actions?.elements.map((button) => button.text.text) ?? [];
}

describe('chatbridge start: Telegram users, operators in a thread of a Slack channel', () => {
  let stack: Stack;
  let the: ReturnType<typeof actors>;

  beforeAll(async () => {
    stack = await startStack('threads');
    the = actors(stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.gateway.cleanup();
    await stack?.slack.close();
    await stack?.telegram.close();
  });

  it('opens a thread when a Telegram user asks for a person, its card saying who, where, why, with the inbox link, Claim and Hand back', async () => {
    const ada = telegramUser(5001, 'Ada');
    const thread = await the.handOver(ada);
    expect(the.textsSeenBy(ada)).toEqual([DEMO_HANDOFF_REPLY]);
    const card = the.card(thread);
    expect(card.text).toBe('Ada Tester (@ada) · Telegram');
    const body = sectionOf(card)!;
    expect(body).toContain('*Ada Tester (@ada)* on Telegram, writing to *Oakridge Homes assistant*');
    expect(body).toMatch(/^Why: .*talk to a person/m);
    expect(body).toContain(`> *Ada Tester:* ${ASK_FOR_A_PERSON}`);
    const inboxLink = /<(http:\/\/127\.0\.0\.1:\d+\/inbox\/link\?token=[^|]+)\|Open in the inbox>/.exec(body);
    expect(inboxLink).not.toBeNull();
    // The link opens Ada's conversation in the gateway's inbox.
    const linkPage = await fetch(inboxLink![1]!);
    expect(linkPage.status).toBe(200);
    expect(await linkPage.text()).toContain('Ada Tester');
    expect(body).toContain('*Waiting for a person.*');
    expect(buttonsOf(card)).toEqual(['Claim', 'Hand back']);
  });

  it("relays the user's words and photos to the thread and an operator's replies, notes aside, to the user; never its own posts", async () => {
    const ben = telegramUser(5002, 'Ben');
    const thread = await the.handOver(ben);
    the.says(ben, 'Is the flat on Elm Street still for sale?');
    const photo = stack.telegram.addFile(new Uint8Array(64).fill(3), { fileName: 'door.jpg', mimeType: 'image/jpeg' });
    stack.telegram.userSends({ chat: ben.id, from: ben, photo, caption: 'This door is broken' });
    await stack.slack.waitFor(() => the.posts(thread).some((post) => (post.files ?? []).length > 0), {
      ...WAIT,
      what: "the user's photo in the thread",
    });
    // The caption as a post of its own, then the photo as a file (Telegram gives a photo no name).
    const userPosts = ['Is the flat on Elm Street still for sale?', 'This door is broken', ''];
    expect(the.posts(thread).map((post) => post.text)).toEqual(userPosts);
    const photoPost = the.posts(thread).find((post) => (post.files ?? []).length > 0)!;
    expect(photoPost.sentWith).toBe('files.completeUploadExternal');
    expect(photoPost.files![0]!.bytes).toEqual(new Uint8Array(64).fill(3));

    await the.writes(thread, 'Yes, and *visits* are on Saturdays.');
    await the.untilSeenBy(ben, (texts) => texts.includes('Yes, and visits are on Saturdays.'), 'the reply on Telegram');
    await the.writes(thread, 'note: he called yesterday too');
    const plan = stack.slack.addFile(new Uint8Array([37, 80, 68, 70, 1, 2, 3]), {
      name: 'floor-plan.pdf',
      mimetype: 'application/pdf',
    });
    await the.writes(thread, 'The floor plan', { files: [plan] });
    await stack.telegram.waitFor(() => the.seenBy(ben).some((message) => message.sentWith === 'sendDocument'), {
      ...WAIT,
      what: 'the floor plan on Telegram',
    });
    // The operator's words as the file's caption, as they sent them.
    const document = the.seenBy(ben).find((message) => message.sentWith === 'sendDocument')!;
    expect(await downloadFromTelegram(stack.telegram, document.file_id!)).toEqual(
      new Uint8Array([37, 80, 68, 70, 1, 2, 3]),
    );

    // Slack sends the app its own posts in the thread too: none goes back to the user.
    const ownPost = the.posts(thread).find((post) => post.text.includes('Elm Street'))!;
    const echo = stack.slack.build.threadMessage({
      channel: OPS_CHANNEL,
      thread_ts: thread,
      user: stack.slack.identity.botUserId,
      text: ownPost.text,
    });
    (echo.event as Record<string, unknown>).bot_id = stack.slack.identity.botId;
    // A file the app uploaded comes back as a file_share of the app's own user, without bot_id.
    const uploadEcho = stack.slack.build.threadMessage({
      channel: OPS_CHANNEL,
      thread_ts: thread,
      user: stack.slack.identity.botUserId,
      text: photoPost.text,
    });
    Object.assign(uploadEcho.event, {
      subtype: 'file_share',
      files: [stack.slack.addFile(photoPost.files![0]!.bytes, { name: 'door.jpg', mimetype: 'image/jpeg' })],
    });
    for (const own of [echo, uploadEcho]) expect((await stack.slack.postSigned(the.eventsUrl, own)).status).toBe(200);
    await the.writes(thread, 'Anything else?');
    await the.untilSeenBy(ben, (texts) => texts.includes('Anything else?'), 'the last reply on Telegram');

    expect(the.textsSeenBy(ben)).toEqual([
      DEMO_HANDOFF_REPLY,
      'Yes, and visits are on Saturdays.',
      'The floor plan',
      'Anything else?',
    ]);
    const operatorEntries = (await the.transcript(ben)).filter((entry) => entry.role === 'operator');
    expect(operatorEntries).toEqual([
      expect.objectContaining({ operator: 'Bruno', text: 'Yes, and **visits** are on Saturdays.', via: 'slack' }),
      expect.objectContaining({ operator: 'Bruno', text: 'he called yesterday too', note: true }),
      expect.objectContaining({
        operator: 'Bruno',
        text: 'The floor plan',
        attachments: [expect.stringContaining('floor-plan.pdf')],
        via: 'slack',
      }),
      expect.objectContaining({ operator: 'Bruno', text: 'Anything else?' }),
    ]);
    // The thread does not get its operators' words back.
    expect(the.posts(thread).map((post) => post.text)).toEqual(userPosts);
  });

  it('says on the card who claimed it and who handed it back; the user is told the assistant is back, and it answers again', async () => {
    const cleo = telegramUser(5003, 'Cleo');
    const thread = await the.handOver(cleo);
    await the.presses(thread, 'claim', BRUNO);
    await stack.slack.waitFor(() => sectionOf(the.card(thread))?.includes('*Claimed by Bruno*') ?? false, {
      ...WAIT,
      what: 'the card claimed by Bruno',
    });
    expect(buttonsOf(the.card(thread))).toEqual(['Claim', 'Hand back']);

    await the.presses(thread, 'hand-back', CARLA);
    await the.untilSeenBy(cleo, (texts) => texts.includes(userTexts.handoff.botIsBack), 'the assistant-is-back notice');
    await stack.slack.waitFor(
      () => sectionOf(the.card(thread))?.includes('*Handed back to the assistant by Carla*') ?? false,
      { ...WAIT, what: 'the card handed back by Carla' },
    );
    expect(buttonsOf(the.card(thread))).toEqual([]);

    the.says(cleo, QUESTION);
    await the.untilSeenBy(cleo, (texts) => texts.some((text) => text.includes(ANSWER_MARK)), "the bot's answer");
  });

  it('updates the card when the conversation is handed back from the admin API', async () => {
    const dora = telegramUser(5004, 'Dora');
    const thread = await the.handOver(dora);
    expect(await the.resume(dora)).toEqual({
      status: 200,
      body: { conversation: `main:telegram:${dora.id}`, resumed: true },
    });
    await stack.slack.waitFor(() => sectionOf(the.card(thread))?.includes('Handed back to the assistant') ?? false, {
      ...WAIT,
      what: 'the card handed back',
    });
    expect(buttonsOf(the.card(thread))).toEqual([]);
    await the.untilSeenBy(dora, (texts) => texts.includes(userTexts.handoff.botIsBack), 'the assistant-is-back notice');
  });

  it('takes a handed-back conversation over before an operator message goes, and the next thread links the one before', async () => {
    const eli = telegramUser(5005, 'Eli');
    const first = await the.handOver(eli);
    await the.presses(first, 'hand-back');
    await the.untilSeenBy(eli, (texts) => texts.includes(userTexts.handoff.botIsBack), 'the assistant-is-back notice');

    await the.writes(first, 'One more thing: the owner lowered the price.');
    await the.untilSeenBy(
      eli,
      (texts) => texts.includes('One more thing: the owner lowered the price.'),
      "the operator's late message",
    );
    // Paused again: the user's next message goes to the operators, not to the bot.
    the.says(eli, QUESTION);
    const second = await eventually(() => {
      const thread = the
        .cards()
        .find((card) => card.ts !== first && card.text.startsWith('Eli') && the.posts(card.ts).length > 0);
      expect(thread && the.posts(thread.ts).map((post) => post.text)).toContain(QUESTION);
      return thread!.ts;
    }, WAIT.timeoutMs);
    expect(sectionOf(the.card(second))).toContain(
      `<https://fakeworkspace.slack.com/archives/${OPS_CHANNEL}/p${first.replace('.', '')}|The thread of the handoff before>`,
    );
    // The turn of the question has ended (it is in the transcript) without an answer.
    const transcript = await eventually(async () => {
      const entries = await the.transcript(eli);
      expect(entries.at(-1)).toMatchObject({ role: 'user', text: QUESTION });
      return entries;
    }, WAIT.timeoutMs);
    // Paused before the operator's message went.
    const takeover = transcript.findIndex((entry) => entry.event === 'handed-over' && entry.operator === 'Bruno');
    const late = transcript.findIndex((entry) => entry.role === 'operator');
    expect(takeover).toBeGreaterThan(-1);
    expect(late).toBeGreaterThan(takeover);
    expect(the.textsSeenBy(eli).at(-1)).toBe('One more thing: the owner lowered the price.');
  });

  it("records an operator whose Slack profile e-mail is an account's with that account, under its name; others without", async () => {
    const account = await addOperatorAccount(stack.gateway.prefix, {
      email: 'dana.silva@oakridge.example',
      name: 'Dana (Oakridge support)',
    });
    const gil = telegramUser(5007, 'Gil');
    const thread = await the.handOver(gil);
    await the.writes(thread, 'Hello Gil, Dana here.', { by: DANA });
    await the.writes(thread, 'Carla here too.', { by: CARLA });
    await the.untilSeenBy(gil, (texts) => texts.includes('Carla here too.'), "the second operator's message");
    const operatorEntries = (await the.transcript(gil)).filter((entry) => entry.role === 'operator');
    expect(operatorEntries).toEqual([
      expect.objectContaining({ operator: 'Dana (Oakridge support)', account: account.id, via: 'slack' }),
      expect.objectContaining({ operator: 'Carla', via: 'slack' }),
    ]);
    // Carla's profile shows no e-mail: no account names her.
    expect(operatorEntries[1]).not.toHaveProperty('account');
  });

  it("delivers Slack's redelivery of an operator's message to the user once", async () => {
    const fay = telegramUser(5006, 'Fay');
    const thread = await the.handOver(fay);
    const event = await the.writes(thread, 'Hello Fay, Bruno here.');
    expect((await stack.slack.postSigned(the.eventsUrl, event, { retryNum: 1 })).status).toBe(200);
    await the.writes(thread, 'How can I help?');
    await the.untilSeenBy(fay, (texts) => texts.includes('How can I help?'), 'the second reply');
    expect(the.textsSeenBy(fay)).toEqual([DEMO_HANDOFF_REPLY, 'Hello Fay, Bruno here.', 'How can I help?']);
  });
});

describe('chatbridge start: the Slack channel in alerts mode (HANDOFF_SLACK_MODE=alerts)', () => {
  let stack: Stack;
  let the: ReturnType<typeof actors>;

  beforeAll(async () => {
    stack = await startStack('alerts');
    the = actors(stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.gateway.cleanup();
    await stack?.slack.close();
    await stack?.telegram.close();
  });

  it('posts the card with the inbox link only, and relays nothing either way', async () => {
    const gus = telegramUser(5101, 'Gus');
    const thread = await the.handOver(gus);
    const card = the.card(thread);
    expect(sectionOf(card)).toMatch(/<http:\/\/127\.0\.0\.1:\d+\/inbox\/link\?token=[^|]+\|Open in the inbox>/);
    expect(sectionOf(card)).toContain('Answer from the inbox.');
    expect(buttonsOf(card)).toEqual([]);

    the.says(gus, 'hello?');
    await the.writes(thread, 'not relayed');
    the.says(gus, 'still there?');
    await eventually(async () => {
      expect((await the.transcript(gus)).map((entry) => entry.text)).toContain('still there?');
    }, WAIT.timeoutMs);
    expect(the.posts(thread)).toEqual([]);
    expect(the.textsSeenBy(gus)).toEqual([DEMO_HANDOFF_REPLY]);
  });
});

describe('chatbridge doctor with the Slack operators’ channel', () => {
  it('fails naming HANDOFF_SLACK_CHANNEL when the app is not a member of the channel', async () => {
    const slack = await startFakeSlack({ rateLimits: false, scopes: DOOR_SCOPES });
    const telegram = await startFakeTelegram();
    try {
      slack.addConversation({ id: OPS_CHANNEL, name: 'support', is_member: false });
      const { output, code } = await runDoctor({
        REDIS_URL: testRedisUrl(),
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        HANDOFF_SLACK_CHANNEL: OPS_CHANNEL,
        HANDOFF_SLACK_BOT_TOKEN: slack.botToken,
        HANDOFF_SLACK_SIGNING_SECRET: slack.signingSecret,
        HANDOFF_SLACK_API_URL: slack.apiUrl,
      });
      expect(output).toMatch(/^FAIL .*not a member of #?support.*HANDOFF_SLACK_CHANNEL/m);
      expect(code).toBe(1);
    } finally {
      await slack.close();
      await telegram.close();
    }
  }, 30_000);
});
