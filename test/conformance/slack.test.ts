/**
 * The Slack adapter (real Bolt, HTTP Events mode) through the conformance suite, against
 * the fake Slack: its Web API behind a TCP proxy (cut = Slack unreachable), events POSTed
 * signed to the adapter's routes, mounted on an HTTP server as the runtime mounts them.
 * The user writes at the top level of a DM, where an answer is one message edited as it
 * grows; commands are what a Slack user types: `/chatbot start`, `/chatbot listings`.
 * The second gateway instance (crash and takeover) serves the same bot without receiving
 * events, like a replica behind a load balancer, and answers through the same Web API.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { silentLogger } from '../../src/logger.js';
import {
  interactivityForm,
  signedEventRequest,
  slashCommandForm,
  startFakeSlack,
  type LoggedCall,
  type SlackRequestBody,
} from '../../fakes/slack/index.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

const DM = 'D0CONFORM01';
/** The calls whose text the user sees: a message, its edits, and a native stream's pieces. */
const POSTED = new Set(['chat.postMessage', 'chat.update']);
const STREAMED = new Set(['chat.startStream', 'chat.appendStream', 'chat.stopStream']);

interface ButtonElement {
  type: string;
  action_id: string;
  value?: string;
  text: { text: string };
}
interface Block {
  type: string;
  elements?: ButtonElement[];
}

/** The Markdown a streaming call carries (`markdown_text`, or web-api's buffered `chunks`). */
function streamedText(params: Record<string, unknown>): string {
  if (typeof params.markdown_text === 'string') return params.markdown_text;
  const chunks = Array.isArray(params.chunks) ? (params.chunks as { type?: string; text?: string }[]) : [];
  return chunks
    .filter((chunk) => chunk.type === 'markdown_text')
    .map((chunk) => chunk.text ?? '')
    .join('');
}

/** Every text shown in `channel` over time, from the Web API calls that succeeded. */
function rendersOf(calls: LoggedCall[], channel: string): string[] {
  const shown: string[] = [];
  let stream = '';
  for (const call of calls) {
    if (!call.ok || call.channel !== channel) continue;
    if (POSTED.has(call.method)) shown.push(String(call.params.text ?? ''));
    if (STREAMED.has(call.method)) {
      stream = (call.method === 'chat.startStream' ? '' : stream) + streamedText(call.params);
      shown.push(stream);
    }
  }
  return shown;
}

async function slackDriver(): Promise<ConformanceDriver> {
  // Rate rules off: the suite checks what the adapter delivers, not Slack's pace.
  const fake = await startFakeSlack({ rateLimits: false });
  const proxy = await startTcpProxy({ port: Number(new URL(fake.baseUrl).port) });
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/main/events`;
  const post = async (body: SlackRequestBody, options?: { retryNum?: number }): Promise<void> => {
    const response = await signedEventRequest(eventsUrl, fake.signingSecret, body, options);
    if (response.status !== 200)
      throw new Error(`the adapter answered Slack ${response.status} (${await response.text()})`);
  };

  const withButtons = () =>
    fake
      .visibleMessages(DM)
      .filter((message) => (message.blocks as Block[] | undefined)?.some((block) => block.type === 'actions'))
      .at(-1);
  const buttonElements = (): ButtonElement[] =>
    ((withButtons()?.blocks ?? []) as Block[])
      .filter((block) => block.type === 'actions')
      .flatMap((block) => block.elements ?? []);

  return {
    createAdapter(instance) {
      const adapter = createSlackAdapter({
        bot: 'main',
        botToken: fake.botToken,
        signingSecret: fake.signingSecret,
        apiUrl: `${proxy.url}/api/`,
        logger: silentLogger(),
      });
      // Only the first instance receives events (mounted as src/http/server.ts mounts adapter routes).
      if (instance === 0) for (const route of adapter.routes) app.use(route.path, route.handler);
      return adapter;
    },
    async userSends(text) {
      // A Slack user cannot type /start (Slack takes it as an unknown command): the words go after /chatbot.
      const command = /^\/(\S+)\s*(.*)$/.exec(text);
      if (command)
        await post(
          slashCommandForm(
            fake.build.slashCommand({ command: '/chatbot', text: `${command[1]} ${command[2]}`.trim(), channel: DM }),
          ),
        );
      else await post(fake.build.messageIm({ channel: DM, text }));
    },
    async userSendsFile(file, caption) {
      const hosted = fake.addFile(file.bytes, { name: file.fileName, mimetype: file.mimeType });
      // The adapter talks to Slack through the proxy (SLACK_API_URL), and only sends its token to that origin:
      // the file links point there too, as real Slack's point at its own file host.
      const viaProxy = (url: string) => url.replace(fake.baseUrl, proxy.url);
      const shared = {
        ...hosted,
        url_private: viaProxy(hosted.url_private),
        url_private_download: viaProxy(hosted.url_private_download),
      };
      await post(fake.build.fileShare({ channel: DM, text: caption, files: [shared] }));
    },
    async userSendsGoneFile(file, caption) {
      const hosted = fake.addFile(file.bytes, { name: file.fileName, mimetype: file.mimeType });
      fake.deleteFile(hosted.id);
      const viaProxy = (url: string) => url.replace(fake.baseUrl, proxy.url);
      const shared = {
        ...hosted,
        url_private: viaProxy(hosted.url_private),
        url_private_download: viaProxy(hosted.url_private_download),
      };
      await post(fake.build.fileShare({ channel: DM, text: caption, files: [shared] }));
    },
    async userSendsTwice(text) {
      // Slack's redelivery: the same event (same event_id) again, with X-Slack-Retry-Num.
      const event = fake.build.messageIm({ channel: DM, text });
      await post(event);
      await post(event, { retryNum: 1 });
    },
    buttons: () => buttonElements().map((element) => element.text.text),
    async pressButton(label) {
      const message = withButtons();
      const button = buttonElements().find((element) => element.text.text === label);
      if (!message || !button) throw new Error(`Slack shows no button "${label}"`);
      await post(
        interactivityForm(
          fake.build.blockActions({
            channel: DM,
            messageTs: message.ts,
            actionId: button.action_id,
            value: button.value,
            text: label,
          }),
        ),
      );
    },
    screen: () => fake.visibleMessages(DM).map((message) => message.text),
    renders: () => rendersOf(fake.calls(), DM),
    async rateLimitNextFinal() {
      // The scripted answer arrives at once, so nothing is shown before its final: one chat.postMessage
      // (an answer still being written would be a message, then edits, the last edit its final).
      fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    },
    goUnreachable: () => proxy.cut(),
    comeBack: () => proxy.restore(),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await proxy.close();
      await fake.close();
    },
  };
}

describeAdapterConformance({ platform: 'slack', createDriver: slackDriver });
