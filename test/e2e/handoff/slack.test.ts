/**
 * The human handoff on Slack, end to end: `chatbridge start` as a process with only the
 * Slack variables (HTTP Events mode, against the fake Slack) and ADMIN_TOKEN, on the
 * default set-up (the embedded demo chatbot). A DM user asks for a person, the bot
 * falls silent, an operator answers through the admin API and hands the DM back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signedEventRequest,
  startFakeSlack,
  type FakeSlack,
  type SlackRequestBody,
} from '../../../fakes/slack/index.js';

import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { userTexts } from '../../../src/gateway/index.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-slack-handoff-admin-token';
const DM = 'D0E2EHANDOFF1';
const CONVERSATION = encodeURIComponent(`main:slack:${DM}`);
/** The demo chatbot's TalkToHumanResponseMessage (config/demo/chatbot.yaml). */
const DEMO_HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const OPERATOR_TEXT = "Hello, I'm Bruno";
const WAIT = { timeoutMs: 45_000 };

describe('chatbridge start with Slack: handing a DM to a person and back', () => {
  let slack: FakeSlack;
  let gateway: ChatbridgeProcess;
  const post = async (body: SlackRequestBody): Promise<Response> =>
    signedEventRequest(`http://127.0.0.1:${gateway.port}/slack/events`, slack.signingSecret, body);
  const admin = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const textsInDm = () => slack.visibleMessages(DM).map((message) => message.text);
  /** The user texts the gateway has recorded for the DM (a turn writes its entries when it ends). */
  const recordedUserTexts = async () => {
    const shown = await admin('GET', `/admin/conversations/${CONVERSATION}`);
    const transcript = (shown.body as { transcript?: { role: string; text: string }[] }).transcript ?? [];
    return transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text);
  };

  beforeAll(async () => {
    slack = await startFakeSlack({ rateLimits: false });
    gateway = await startChatbridge({
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: slack.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      ADMIN_TOKEN,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await slack?.close();
  });

  it('replies with the chatbot handoff message, stays silent while paused, posts the operator text and tells the user when the assistant is back', async () => {
    expect((await post(slack.build.messageIm({ channel: DM, text: 'I want to talk to a person' }))).status).toBe(200);
    await slack.waitFor(() => textsInDm().includes(DEMO_HANDOFF_REPLY), {
      ...WAIT,
      what: 'the handoff reply in the DM',
    });
    expect(textsInDm()).toEqual([DEMO_HANDOFF_REPLY]);

    // Paused: the next message is recorded, but the bot does not answer it.
    expect((await post(slack.build.messageIm({ channel: DM, text: 'Homes for sale in Austin?' }))).status).toBe(200);
    await expect
      .poll(recordedUserTexts, { timeout: WAIT.timeoutMs })
      .toEqual(['I want to talk to a person', 'Homes for sale in Austin?']);
    expect(textsInDm()).toEqual([DEMO_HANDOFF_REPLY]);

    expect(await admin('POST', `/admin/conversations/${CONVERSATION}/messages`, { text: OPERATOR_TEXT })).toEqual({
      status: 200,
      body: { conversation: `main:slack:${DM}`, sent: true },
    });
    await slack.waitFor(() => textsInDm().includes(OPERATOR_TEXT), {
      ...WAIT,
      what: "the operator's message in the DM",
    });

    expect(await admin('POST', `/admin/conversations/${CONVERSATION}/resume`)).toEqual({
      status: 200,
      body: { conversation: `main:slack:${DM}`, resumed: true },
    });
    await slack.waitFor(() => textsInDm().includes(userTexts.handoff.botIsBack), {
      ...WAIT,
      what: 'the assistant-is-back notice in the DM',
    });
    expect(textsInDm()).toEqual([DEMO_HANDOFF_REPLY, OPERATOR_TEXT, userTexts.handoff.botIsBack]);
  }, 120_000);
});
