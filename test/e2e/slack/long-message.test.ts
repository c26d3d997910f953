/**
 * Issue #17, item 4, end to end: `chatbridge start` as a process with the Slack variables
 * (HTTP Events mode, against the fake Slack). A DM far over what the Chatbot Service takes
 * in one ClientAsk (20,000 characters; Slack lets a user send 40,000) is answered with a
 * reply naming the limit, instead of "The assistant could not answer this message"; it is
 * kept in the transcript, and the next message is answered as usual. Once on the default
 * set-up (the embedded demo chatbot, whose refusal used to become the vague reply), and
 * once against a hosted service that records every ClientAsk, which shows that the
 * gateway did not ask it at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedEventRequest, startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { replies } from '../../../src/gateway/index.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS } from '../../../src/upstream/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startScriptedService, type ScriptedService } from '../../support/delivery-gateway.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-slack-long-message-admin';
const QUESTION = 'Homes for sale in Austin?';
/** 38,999 characters: almost twice the service's limit, within Slack's 40,000. */
const LONG_DM = Array.from({ length: 1_500 }, () => QUESTION).join(' ');
const LIMIT_REPLY = replies.messageTooLong(CLIENT_ASK_CONTENT_MAX_CHARS, LONG_DM.length);
/** In the demo's listings: an answer to QUESTION names it. */
const AUSTIN_LISTING = 'MLS TX-10452';
const WAIT = { timeoutMs: 45_000 };

interface SlackGateway {
  slack: FakeSlack;
  gateway: ChatbridgeProcess;
  /** The user writes `text` in the DM (a signed message.im event POSTed to /slack/events). */
  dm(channel: string, text: string): Promise<void>;
  /** What the user sees in the DM, oldest first (finished messages only). */
  texts(channel: string): string[];
  /** The user's messages the gateway recorded for the DM (admin API; a turn writes them when it ends). */
  recordedUserTexts(channel: string): Promise<string[]>;
  close(): Promise<void>;
}

async function startSlackGateway(env: Record<string, string> = {}): Promise<SlackGateway> {
  const slack = await startFakeSlack({ rateLimits: false });
  const gateway = await startChatbridge({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    ADMIN_TOKEN,
    ...env,
  });
  return {
    slack,
    gateway,
    async dm(channel, text) {
      const response = await signedEventRequest(
        `http://127.0.0.1:${gateway.port}/slack/events`,
        slack.signingSecret,
        slack.build.messageIm({ channel, text }),
      );
      expect(response.status).toBe(200);
    },
    texts: (channel) =>
      slack
        .visibleMessages(channel)
        .filter((message) => message.state === 'done')
        .map((message) => message.text),
    async recordedUserTexts(channel) {
      const response = await fetch(
        `http://127.0.0.1:${gateway.port}/admin/conversations/${encodeURIComponent(`main:slack:${channel}`)}`,
        {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        },
      );
      const body = (await response.json()) as { transcript?: { role: string; text: string }[] };
      return (body.transcript ?? []).filter((entry) => entry.role === 'user').map((entry) => entry.text);
    },
    async close() {
      await gateway.cleanup();
      await slack.close();
    },
  };
}

describe('chatbridge start with Slack: a DM longer than the Chatbot Service takes', () => {
  describe('on the default set-up (the embedded demo chatbot)', () => {
    let stack: SlackGateway;
    beforeAll(async () => {
      stack = await startSlackGateway();
    }, 60_000);
    afterAll(async () => {
      await stack?.close();
    });

    it('is answered with the limit, kept in the transcript, and the next message is answered', async () => {
      const dm = 'D0E2ELONG001';
      expect(LONG_DM.length).toBeGreaterThan(CLIENT_ASK_CONTENT_MAX_CHARS * 1.9);
      expect(LIMIT_REPLY).toContain('up to 20,000 characters');
      await stack.dm(dm, LONG_DM);
      await stack.slack.waitFor(() => stack.texts(dm).length === 1, { ...WAIT, what: 'a reply to the long DM' });
      expect(stack.texts(dm)).toEqual([LIMIT_REPLY]);

      await stack.dm(dm, QUESTION);
      await stack.slack.waitFor(() => stack.texts(dm)[1]?.includes(AUSTIN_LISTING) === true, {
        ...WAIT,
        what: 'the answer to the next message',
      });
      expect(stack.texts(dm)).toHaveLength(2);
      await expect.poll(() => stack.recordedUserTexts(dm), { timeout: WAIT.timeoutMs }).toEqual([LONG_DM, QUESTION]);
    }, 120_000);
  });

  describe('against a hosted Chatbot Service that records what it is asked', () => {
    let service: ScriptedService;
    let stack: SlackGateway;
    beforeAll(async () => {
      service = await startScriptedService((question) => ({ fragments: [`Answer to: ${question}`] }));
      stack = await startSlackGateway({
        UPSTREAM_BASE_URL: service.url,
        UPSTREAM_SECRET_KEY: 'long-message-secret',
        UPSTREAM_SESSION_KEY: 'long-message-session',
        CHATBOT_SERIAL_NUMBER: 'long-message-chatbot',
      });
    }, 60_000);
    afterAll(async () => {
      await stack?.close();
      await service?.close();
    });

    it('is not asked of the service at all; the next message is', async () => {
      const dm = 'D0E2ELONG002';
      await stack.dm(dm, LONG_DM);
      await stack.dm(dm, QUESTION);
      await stack.slack.waitFor(() => stack.texts(dm).length === 2, { ...WAIT, what: 'the replies to both messages' });
      expect(stack.texts(dm)).toEqual([LIMIT_REPLY, `Answer to: ${QUESTION}`]);
      expect(service.questions).toEqual([QUESTION]);
      await expect.poll(() => stack.recordedUserTexts(dm), { timeout: WAIT.timeoutMs }).toEqual([LONG_DM, QUESTION]);
    }, 120_000);
  });
});
