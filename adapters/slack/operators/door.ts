/**
 * The Slack operator door: one channel, one thread per handoff. The card is the thread's
 * root (chat.postMessage, updated with chat.update), what the gateway posts goes into the
 * thread (mrkdwn split within Slack's limit, files by upload v2), and what people write in
 * the thread or press on the card goes to the handoff (events.ts), from the door's own app or
 * the bot's (receivers.ts). Slack has nothing to close and no thread to reuse: a new
 * handoff of the same user opens a new thread, which the handoff links in the card.
 */
import type { WebClient } from '@slack/web-api';
import {
  describeSent,
  PlatformError,
  renderChunks,
  type HttpRoute,
  type Logger,
  type OperatorDoor,
  type OperatorSink,
  type ThreadCard,
  type ThreadPost,
  type ThreadRef,
} from '../../../src/contract.js';
import { SLACK_MAX_MESSAGE_LENGTH } from '../capabilities.js';
import type { SlackFileSource } from '../files.js';
import { slackMarkup } from '../markdown.js';
import { messageBlocks } from '../outbound.js';
import { SLACK_MAX_UPLOAD_BYTES, uploadFile } from '../upload.js';
import { cardBlocks, cardText } from './card.js';
import { doorCall, doorCallContinuing, type DoorSettings } from './calls.js';
import { createDoorEventHandler } from './events.js';
import { OperatorDirectory } from './operators.js';
import type { DoorReceiver } from './receivers.js';

export type SlackDoorMode = 'threads' | 'alerts';

export interface SlackDoorOptions {
  bot: string;
  /** The operators' channel (C… or G…). */
  channel: string;
  mode: SlackDoorMode;
  /** The door's own app's client, or the bot's (shared). */
  client: WebClient;
  files: SlackFileSource;
  /** The variable the token came from, named when Slack refuses it. */
  tokenVariable: string;
  receiver: DoorReceiver;
  logger: Logger;
}

export class SlackOperatorDoor implements OperatorDoor {
  readonly platform = 'slack';
  readonly relays: boolean;
  readonly maxFileBytes = SLACK_MAX_UPLOAD_BYTES;
  readonly routes: readonly HttpRoute[];
  private readonly settings: DoorSettings;
  private readonly client: WebClient;
  private sink: OperatorSink | undefined;
  private ownUserId: string | undefined;

  constructor(private readonly options: SlackDoorOptions) {
    this.relays = options.mode === 'threads';
    this.routes = options.receiver.routes;
    this.client = options.client;
    this.settings = { channel: options.channel, tokenVariable: options.tokenVariable };
  }

  async start(sink: OperatorSink): Promise<void> {
    this.sink = sink;
    await this.learnWhoWeAre();
    await this.options.receiver.start(
      createDoorEventHandler(
        {
          channel: this.options.channel,
          relays: this.relays,
          files: this.options.files,
          operators: new OperatorDirectory(this.client, this.options.logger),
          ownUserId: () => this.ownUserId,
        },
        () => this.sink,
      ),
    );
  }

  async stop(): Promise<void> {
    await this.options.receiver.stop();
    this.sink = undefined;
  }

  async open(card: ThreadCard): Promise<ThreadRef> {
    const { channel } = this.options;
    const posted = await doorCall(
      'chat.postMessage',
      this.settings,
      () =>
        this.client.chat.postMessage({
          channel,
          text: cardText(card),
          blocks: cardBlocks(card),
          unfurl_links: false,
          unfurl_media: false,
        }),
      describeSent({ to: channel, text: card.title, buttons: card.actions.length }),
    );
    if (!posted.ts)
      throw new PlatformError('Slack chat.postMessage answered without a ts', 'other', undefined, {
        method: 'chat.postMessage',
      });
    const url = await this.permalink(posted.ts);
    return { id: posted.ts, cardMessageId: posted.ts, ...(url ? { url } : {}) };
  }

  async updateCard(thread: ThreadRef, card: ThreadCard): Promise<void> {
    const { channel } = this.options;
    await doorCall(
      'chat.update',
      this.settings,
      () =>
        this.client.chat.update({ channel, ts: thread.cardMessageId, text: cardText(card), blocks: cardBlocks(card) }),
      describeSent({ to: channel, message: thread.cardMessageId, text: card.title, buttons: card.actions.length }),
    );
  }

  async post(thread: ThreadRef, post: ThreadPost): Promise<void> {
    const { channel } = this.options;
    // The first call may fail as it is (nothing was posted); the later ones wait out a rate limit.
    let calls = 0;
    const call = <T>(method: string, run: () => Promise<T>, sent?: string): Promise<T> =>
      (calls++ === 0 ? doorCall : doorCallContinuing)(method, this.settings, run, sent);
    for (const chunk of renderChunks(post.markdown, slackMarkup, SLACK_MAX_MESSAGE_LENGTH)) {
      await call(
        'chat.postMessage',
        () =>
          this.client.chat.postMessage({
            channel,
            thread_ts: thread.id,
            text: chunk,
            blocks: messageBlocks(chunk),
            unfurl_links: false,
            unfurl_media: false,
          }),
        describeSent({ to: `${channel}:${thread.id}`, text: chunk }),
      );
    }
    for (const file of post.files ?? []) {
      await call('files.uploadV2', () =>
        uploadFile(this.client, { bytes: file.bytes, fileName: file.fileName, channel, threadTs: thread.id }),
      );
    }
  }

  /** A Slack thread is never closed: nothing to do. */
  async close(): Promise<void> {}

  /** The thread's link for the inbox and the e-mail; a card without one still works. */
  private async permalink(ts: string): Promise<string | undefined> {
    try {
      const { permalink } = await this.client.chat.getPermalink({ channel: this.options.channel, message_ts: ts });
      return permalink;
    } catch (error) {
      this.options.logger.warn({ err: error, ts }, 'slack operators: chat.getPermalink failed; the card has no link');
      return undefined;
    }
  }

  /** The app's bot user, to drop its own posts (which also carry bot_id); a failure only logs. */
  private async learnWhoWeAre(): Promise<void> {
    try {
      this.ownUserId = (await this.client.auth.test()).user_id;
    } catch (error) {
      this.options.logger.warn(
        { err: error, bot: this.options.bot },
        `slack operators: auth.test failed (check ${this.options.tokenVariable}); the app's own posts are recognised by their bot_id only`,
      );
    }
  }
}
