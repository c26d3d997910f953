/**
 * A fake Slack for tests and benchmarks. It speaks the real wire protocols on
 * 127.0.0.1 so the real @slack/web-api and Bolt talk to it, and it enforces
 * Slack's limits (docs/platforms.md §B):
 *
 * - Web API at `apiUrl` (`<base>/api/<method>`): form-encoded (JSON-valued fields
 *   parsed) and JSON bodies; `Authorization: Bearer` (or a `token` field) checked:
 *   `not_authed`, `invalid_auth`, `not_allowed_token_type`; errors `{ok:false, error}`
 *   with HTTP 200; 429 `{ok:false, error:'ratelimited'}` with `Retry-After` (seconds)
 *   from per-method rules (DEFAULT_RATE_RULES: chat.postMessage 1/s per channel,
 *   chat.update Tier 3, …; `rateLimits: false` turns them off); scripted failures.
 *   Methods: auth.test (with `x-oauth-scopes`), chat.postMessage / chat.update
 *   (text ≤ 40,000 else `msg_too_long`, blocks ≤ 50 else `invalid_blocks`),
 *   chat.startStream / appendStream / stopStream (`markdown_text` ≤ 12,000 per call
 *   or `chunks`; recipient_user_id and recipient_team_id required outside DMs:
 *   `missing_recipient_user_id` / `missing_recipient_team_id`; `setStreaming`
 *   makes them answer `not_allowed` or `unknown_method`),
 *   assistant.threads.setStatus / setSuggestedPrompts (≤ 4) / setTitle,
 *   conversations.info (ids D… are DMs, C… public channels, G… private, unless
 *   declared with addConversation), conversations.replies (the bot's messages of a
 *   thread, with their metadata: Bolt's Assistant reads its thread context there),
 *   apps.connections.open (app token only). Every bot-token answer carries `x-oauth-scopes`.
 * - A channel people work in with the app (an operators' channel): channels declared with
 *   addConversation and `is_member` (the app outside a public channel: `not_in_channel`;
 *   outside a private one: `channel_not_found`; `guessConversations: false` makes any
 *   undeclared id `channel_not_found`); chat.getPermalink; users.info (addUser; `missing_scope`
 *   without users:read, the e-mail only with users:read.email); upload v2
 *   (files.getUploadURLExternal, over `maxUploadBytes` `file_upload_size_restricted`; the bytes
 *   POSTed raw or multipart to its URL; files.completeUploadExternal into a channel or thread,
 *   shown as the bot's message with its files). World helpers: `humanWrites` (a person's
 *   message, a thread reply with thread_ts, files from addFile) and `humanPresses` (a press of
 *   a button the bot's message shows) return what Slack sends the app, to deliver with
 *   `postSigned` (signed; `retryNum` sets X-Slack-Retry-Num) or `socket.push*`; `threadMessages`
 *   reads a thread back as the channel shows it.
 * - Files: `addFile` returns the `files[]` object of a file_share event; its
 *   `url_private(_download)` is served with the bot token, and without it answers
 *   200 with an HTML login page, as Slack does.
 * - Socket Mode: apps.connections.open returns a `ws://` URL; the socket says
 *   `hello`, `socket.pushEvent/pushInteractive/pushSlashCommand` send envelopes,
 *   acks are recorded (`socketAcks`, `socket.waitForAck`).
 * - Events over HTTP: `build.*` makes payloads (messageIm, appMention, threadMessage,
 *   fileShare, assistantThreadStarted, blockActions, slashCommand, urlVerification…; a user's
 *   edit or deletion of a message they sent, from the event it arrived as: messageChanged,
 *   messageDeleted; a shared message: messageShare, with `messageToShare` for one the channel
 *   holds; agentSessionStopped),
 *   `signedEventRequest(url, secret, body, {retryNum})` POSTs them signed (v0); `signedRawRequest`
 *   signs bytes as given (a body of any shape).
 *
 *   const slack = await startFakeSlack();
 *   const client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl });
 *   await signedEventRequest(`${gateway}/slack/events`, slack.signingSecret, slack.build.messageIm({ channel: 'D0DM000001', text: 'hi' }));
 *   await slack.waitFor(() => slack.visibleMessages('D0DM000001').length > 0);
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  DEFAULT_USER,
  SlackPayloadBuilders,
  interactivityForm,
  slashCommandForm,
  type AssistantThreadEvent,
  type EventCallback,
  type MessageChangeInput,
  type SharedMessage,
  type SlackEvent,
  type SlackFileObject,
  type UserMessageEvent,
} from './builders.js';
import type { MethodContext, SlackIdentity, StreamingSupport } from './context.js';
import {
  DEFAULT_RATE_RULES,
  FailureScript,
  RateLimiter,
  type InjectedFailure,
  type RateRule,
  type RateRules,
} from './limits.js';
import { createFakeSlackApp } from './server.js';
import { SocketModeEndpoint, type EnvelopeType } from './socket-mode.js';
import {
  World,
  type AssistantCall,
  type ConversationInfo,
  type FileDownload,
  type LoggedCall,
  type SocketAck,
  type VisibleMessage,
} from './world.js';
import { waitForChange } from '../wait-for.js';
import { MAX_UPLOAD_BYTES } from './context.js';
import { PeopleInChannels, type HumanMessageInput, type HumanPressInput } from './people.js';
import { signedEventRequest, type SignedRequestOptions } from './signing.js';
import type { FakeUser, ThreadMessage } from './world.js';

export { DEFAULT_RATE_RULES, DEFAULT_USER, interactivityForm, slashCommandForm };
export {
  signSlackRequest,
  signedEventRequest,
  signedRawRequest,
  encodeSlackBody,
  type SignedRequestOptions,
  type SlackRequestBody,
} from './signing.js';
export {
  MAX_BLOCKS,
  MAX_STREAM_MARKDOWN,
  MAX_SUGGESTED_PROMPTS,
  MAX_TEXT_LENGTH,
  MAX_UPLOAD_BYTES,
} from './context.js';
export type { FakeUser, HumanMessageInput, HumanPressInput, ThreadMessage };
export type {
  AssistantCall,
  AssistantThreadEvent,
  ConversationInfo,
  MessageChangeInput,
  SharedMessage,
  EnvelopeType,
  EventCallback,
  FileDownload,
  InjectedFailure,
  LoggedCall,
  RateRule,
  RateRules,
  SlackEvent,
  SlackFileObject,
  SlackIdentity,
  SocketAck,
  StreamingSupport,
  UserMessageEvent,
  VisibleMessage,
};

/** What a bot token of the chatbridge manifest is granted (auth.test's `x-oauth-scopes`). */
export const DEFAULT_SCOPES = [
  'app_mentions:read',
  'assistant:write',
  'channels:history',
  'chat:write',
  'commands',
  'files:read',
  'groups:history',
  'im:history',
  'im:read',
  'im:write',
  'mpim:history',
];

export interface FakeSlackOptions {
  /** Default 'xoxb-fake-bot-token'. */
  botToken?: string;
  /** Default 'xapp-1-fake-app-token'. */
  appToken?: string;
  /** The secret `signedEventRequest` signs with when a test uses `slack.signingSecret` (default 'fake-signing-secret'). */
  signingSecret?: string;
  identity?: Partial<SlackIdentity>;
  /** Default DEFAULT_SCOPES. */
  scopes?: string[];
  /** Default DEFAULT_RATE_RULES; `false` = unlimited (throughput benchmarks). */
  rateLimits?: RateRules | false;
  /** Default 'supported'. */
  streaming?: StreamingSupport;
  /** The user on the other side of a guessed DM (conversations.info `user`). Default DEFAULT_USER. */
  imUser?: string;
  /** The fake's clock (ms): message ts and rate limits use it. Default Date.now. */
  now?: () => number;
  /** Largest upload (files.getUploadURLExternal `length`); default Slack's 1 GB. */
  maxUploadBytes?: number;
  /**
   * Whether an id never declared with addConversation is a conversation, guessed from its first
   * letter (default true); false: it answers `channel_not_found`, as a wrong channel id does.
   */
  guessConversations?: boolean;
}

export interface FakeSlackSocket {
  /** Sends an Events API envelope (an `event_callback` from `build.*`); returns the envelope_id. */
  pushEvent(body: EventCallback, options?: { retryAttempt?: number; envelopeId?: string }): string;
  /** Sends an interactivity envelope (a payload from `build.blockActions`). */
  pushInteractive(payload: Record<string, unknown>): string;
  /** Sends a slash command envelope (fields from `build.slashCommand`). */
  pushSlashCommand(fields: Record<string, string>): string;
  push(type: EnvelopeType, payload: unknown): string;
  openConnections(): number;
  /** Connections accepted since start (a reconnect counts one more). */
  connectionsOpened(): number;
  /** Asks clients to reconnect (Slack's `disconnect` message) or drops them ('terminate'). */
  disconnectAll(how?: 'refresh_requested' | 'terminate'): void;
  /** Resolves with the ack of that envelope (rejects after timeoutMs, default 5000). */
  waitForAck(envelopeId: string, options?: { timeoutMs?: number }): Promise<SocketAck>;
}

export interface FakeSlack {
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** Pass as web-api / Bolt `slackApiUrl` (ends with `/api/`). */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly identity: SlackIdentity;
  /** Payload builders bound to this fake's identity and clock. */
  readonly build: SlackPayloadBuilders;
  readonly socket: FakeSlackSocket;
  addConversation(info: Partial<ConversationInfo> & { id: string }): ConversationInfo;
  /** Registers a file a user could share; put the result in `build.fileShare({files: [...]})`. */
  addFile(
    bytes: Uint8Array,
    meta: { name: string; mimetype: string; filetype?: string; subtype?: string; declaredSize?: number },
  ): SlackFileObject;
  /** The file is deleted from Slack: its download URLs answer 404. */
  deleteFile(fileId: string): void;
  /** The bot's messages in a channel as the user sees them now, in order; with `threadTs`, one thread's. */
  visibleMessages(channel: string, threadTs?: string): VisibleMessage[];
  /** Every Web API call, or those of one method, in order. */
  calls(method?: string): LoggedCall[];
  /** The calls naming this channel (channel or channel_id). */
  channelCalls(channel: string): LoggedCall[];
  assistantCalls(channel?: string): AssistantCall[];
  downloads(): FileDownload[];
  socketAcks(): SocketAck[];
  /** 429s answered so far (rate rules and injected ones). */
  tooManyRequestsCount(): number;
  /** The next `times` calls of `method` fail like this (ok:false error, 429, 5xx or a reset connection). */
  failNext(method: string, failure: InjectedFailure, times?: number): void;
  /** The next call of `method` is answered as usual, but only once `release()` is called (a slow Slack); `arrived` resolves when it comes. */
  holdNext(method: string): { arrived: Promise<void>; release(): void };
  setRateLimits(rules: RateRules | false): void;
  setStreaming(support: StreamingSupport): void;
  setScopes(scopes: string[]): void;
  /** A person of the workspace (users.info). */
  addUser(user: FakeUser): FakeUser;
  /**
   * A person writes in a channel (a thread reply with `thread_ts`), optionally sharing files
   * from addFile: kept in the channel (threadMessages, conversations.replies) and returned as
   * the `message` event Slack sends the app, to deliver with `postSigned` or `socket.pushEvent`.
   */
  humanWrites(input: HumanMessageInput): EventCallback<UserMessageEvent>;
  /**
   * A person presses a button of one of the bot's messages (found by its action_id in the
   * message's blocks as they are now; throws when there is none): the `block_actions` payload,
   * to deliver with `postSigned` (as a form) or `socket.pushInteractive`.
   */
  humanPresses(input: HumanPressInput): Record<string, unknown>;
  /** A thread as the channel shows it: its root and replies, the bot's and people's. */
  threadMessages(channel: string, threadTs: string): ThreadMessage[];
  /**
   * One of the bot's messages (or a person's written with humanWrites) as someone would share it:
   * put it in `build.messageShare({shared})` or `build.messageChanged({unfurled})`. Throws when the
   * channel has no such message.
   */
  messageToShare(channel: string, ts: string): SharedMessage;
  /**
   * POSTs a signed request to an app's endpoint as Slack does: an event as JSON, an interactivity
   * payload (`type: block_actions`) as its `payload` form field; `retryNum` sets X-Slack-Retry-Num.
   */
  postSigned(url: string, body: object, options?: SignedRequestOptions): Promise<Response>;
  /** Resolves once `predicate` holds (checked on every change and every 25 ms); rejects after timeoutMs (default 5000). */
  waitFor(predicate: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const identity: SlackIdentity = {
    teamId: 'T0FAKETEAM',
    teamName: 'FakeWorkspace',
    apiAppId: 'A0FAKEAPP1',
    botUserId: 'U0BOTUSER1',
    botId: 'B0FAKEBOT1',
    ...options.identity,
  };
  const tokens = { bot: options.botToken ?? 'xoxb-fake-bot-token', app: options.appToken ?? 'xapp-1-fake-app-token' };
  const world = new World(now, options.imUser ?? DEFAULT_USER);
  world.guessConversations = options.guessConversations ?? true;
  const failures = new FailureScript();
  const limiter = new RateLimiter(options.rateLimits, now);
  const settings = {
    streaming: options.streaming ?? ('supported' as StreamingSupport),
    scopes: options.scopes ?? DEFAULT_SCOPES,
  };
  let baseUrl = '';
  const context = (): MethodContext => ({
    world,
    identity,
    streaming: settings.streaming,
    scopes: settings.scopes,
    // Called only while serving requests, so after `endpoint` below exists.
    socketUrl: () => endpoint.url(baseUrl),
    uploadUrl: (fileId) => `${baseUrl}/upload/v1/${fileId}`,
    fileUrl: (fileId, name) => `${baseUrl}/files-pri/${identity.teamId}-${fileId}/${encodeURIComponent(name)}`,
    maxUploadBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
  });
  const app = createFakeSlackApp({ world, failures, limiter, context, tokens });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint = new SocketModeEndpoint(server, world, identity.apiAppId);

  const waitFor = (predicate: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void> =>
    waitForChange('fake Slack', world, predicate, options);

  const socket: FakeSlackSocket = {
    pushEvent: (body, opts) => endpoint.push('events_api', body, opts),
    pushInteractive: (payload) => endpoint.push('interactive', payload),
    pushSlashCommand: (fields) => endpoint.push('slash_commands', fields),
    push: (type, payload) => endpoint.push(type, payload),
    openConnections: () => endpoint.openConnections(),
    connectionsOpened: () => endpoint.connectionsOpened,
    disconnectAll: (how) => endpoint.disconnectAll(how),
    waitForAck: async (envelopeId, { timeoutMs } = {}) => {
      const find = (): SocketAck | undefined => world.socketAcks.find((a) => a.envelope_id === envelopeId);
      await waitFor(() => find() !== undefined, { timeoutMs, what: `ack of envelope ${envelopeId}` });
      return find() as SocketAck;
    },
  };

  const build = new SlackPayloadBuilders(identity, () => world.nextTs());
  const people = new PeopleInChannels(world, identity, build);
  const signingSecret = options.signingSecret ?? 'fake-signing-secret';

  return {
    baseUrl,
    apiUrl: `${baseUrl}/api/`,
    botToken: tokens.bot,
    appToken: tokens.app,
    signingSecret,
    identity,
    build,
    addUser: (user) => {
      world.users.set(user.id, user);
      return user;
    },
    humanWrites: (input) => people.writes(input),
    humanPresses: (input) => people.presses(input),
    messageToShare: (channel, ts) => {
      const ofBot = world.message(channel, ts);
      if (ofBot) return { channel, ts, text: ofBot.text, user: identity.botUserId, bot_id: identity.botId };
      const ofPerson = world.humanMessages.find((m) => m.channel === channel && m.ts === ts);
      if (!ofPerson) throw new Error(`fake Slack: messageToShare: ${channel} has no message ${ts}`);
      const person = world.users.get(ofPerson.user);
      const name = person?.real_name ?? person?.display_name;
      return { channel, ts, text: ofPerson.text, user: ofPerson.user, ...(name ? { author_name: name } : {}) };
    },
    threadMessages: (channel, threadTs) =>
      world.threadMessages(channel, threadTs, { userId: identity.botUserId, botId: identity.botId }),
    postSigned: (url, body, opts) =>
      signedEventRequest(
        url,
        signingSecret,
        (body as { type?: unknown }).type === 'block_actions'
          ? interactivityForm(body as Record<string, unknown>)
          : body,
        opts,
      ),
    socket,
    addConversation: (info) => world.addConversation(info),
    deleteFile: (fileId) => {
      if (!world.files.delete(fileId)) throw new Error(`fake Slack: deleteFile: no file ${fileId}`);
    },
    addFile: (bytes, meta) => {
      const id = world.nextFileId();
      const filetype = meta.filetype ?? meta.name.split('.').at(-1) ?? 'binary';
      world.files.set(id, {
        id,
        name: meta.name,
        mimetype: meta.mimetype,
        filetype,
        size: meta.declaredSize ?? bytes.byteLength,
        bytes,
        subtype: meta.subtype,
      });
      const path = `${baseUrl}/files-pri/${identity.teamId}-${id}`;
      const name = encodeURIComponent(meta.name);
      return {
        id,
        name: meta.name,
        title: meta.name,
        mimetype: meta.mimetype,
        filetype,
        size: meta.declaredSize ?? bytes.byteLength,
        ...(meta.subtype ? { subtype: meta.subtype } : {}),
        url_private: `${path}/${name}`,
        url_private_download: `${path}/download/${name}`,
        mode: 'hosted',
        is_external: false,
      };
    },
    visibleMessages: (channel, threadTs) => world.visibleMessages(channel, threadTs),
    calls: (method) => world.calls.filter((c) => method === undefined || c.method === method),
    channelCalls: (channel) => world.calls.filter((c) => c.channel === channel),
    assistantCalls: (channel) => world.assistantCalls.filter((c) => channel === undefined || c.channel_id === channel),
    downloads: () => [...world.downloads],
    socketAcks: () => [...world.socketAcks],
    tooManyRequestsCount: () => world.tooManyRequests,
    failNext: (method, failure, times = 1) => failures.add(method, failure, times),
    holdNext: (method) => {
      let release = (): void => undefined;
      let arrived = (): void => undefined;
      const until = new Promise<void>((resolve) => {
        release = resolve;
      });
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      failures.add(method, { until, arrived }, 1);
      return { arrived: arrival, release };
    },
    setRateLimits: (rules) => limiter.configure(rules),
    setStreaming: (support) => {
      settings.streaming = support;
    },
    setScopes: (scopes) => {
      settings.scopes = scopes;
    },
    waitFor,
    close: async () => {
      endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
