/**
 * What the delivery tests share: `chatbridge start` as a process with
 * a gateway policy of the test's own (short lock timings, so a takeover happens in
 * seconds), and a scripted Chatbot Service it talks to over HTTP, which streams
 * the answers the test writes, slowly, cut short, or not at all.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisStateStore } from '../../src/state/index.js';
import { sendEnvelope, sendJson, startFakeUpstream, type FakeUpstream } from '../integration/upstream/fake-upstream.js';
import { startChatbridge, type ChatbridgeProcess } from './chatbridge-process.js';
import { testRedisClusterNodes, testRedisUrl, type TestTopology } from './redis.js';

export const SERIAL_NUMBER = 'delivery-test-chatbot';

/** Lock and sweep timings short enough for a takeover in a few seconds. */
export const FAST_TAKEOVER = { lockTtlMs: 2_000, heartbeatMs: 500, sweepIntervalMs: 500 };

export interface DeliveryGateway {
  process: ChatbridgeProcess;
  /** The key prefix of its state in the test Redis. */
  prefix: string;
  state: RedisStateStore;
  /** Stops the process (SIGTERM) and deletes its keys. */
  cleanup(): Promise<void>;
}

/**
 * `chatbridge start` with Telegram at `telegramApiRoot` (or the platform `env` names instead),
 * the Chatbot Service at `upstreamUrl`, and `gateway` settings (config `gateway:`). Reusing
 * `prefix` starts another process on the same state (a restart).
 */
export async function startDeliveryGateway(options: {
  telegram?: { token: string; apiRoot: string };
  /** The platform's variables when it is not Telegram (e.g. SLACK_BOT_TOKEN, SLACK_API_URL). */
  env?: Record<string, string>;
  upstreamUrl: string;
  gateway?: Record<string, number>;
  prefix?: string;
  /** 'cluster': the process and `state` use the test Redis Cluster (REDIS_CLUSTER_NODES). */
  topology?: TestTopology;
}): Promise<DeliveryGateway> {
  const nodes = options.topology === 'cluster' ? testRedisClusterNodes() : [];
  const gatewayProcess = await startChatbridge(
    {
      ...(options.telegram
        ? { TELEGRAM_BOT_TOKEN: options.telegram.token, TELEGRAM_API_ROOT: options.telegram.apiRoot }
        : {}),
      ...options.env,
      UPSTREAM_BASE_URL: options.upstreamUrl,
      UPSTREAM_SECRET_KEY: 'delivery-test-secret',
      UPSTREAM_SESSION_KEY: 'delivery-test-session',
      CHATBOT_SERIAL_NUMBER: SERIAL_NUMBER,
    },
    {
      prefix: options.prefix ?? `cbtest:e2e-delivery:${randomUUID().slice(0, 8)}:`,
      // One answer per message: these tests send messages back to back and specify their delivery; bursts
      // (gateway.burstMs) are specified in the messages-as-written tests.
      gateway: { burstMs: 0, ...options.gateway },
      ...(options.topology ? { topology: options.topology } : {}),
    },
  );
  const prefix = gatewayProcess.prefix;
  const state =
    nodes.length > 0
      ? new RedisStateStore({ topology: { kind: 'cluster', nodes }, prefix })
      : new RedisStateStore({ url: testRedisUrl(), prefix });
  return {
    process: gatewayProcess,
    prefix,
    state,
    async cleanup() {
      await gatewayProcess.stop();
      await state.deleteByPrefix();
      await state.close();
    },
  };
}

/** How the scripted service answers one ClientAsk. */
export interface ScriptedAnswer {
  fragments: string[];
  /** Pause before each fragment after the first (ms). */
  gapMs?: number;
  /** After this many fragments the connection is destroyed (the stream is cut mid-answer). */
  cutAfter?: number;
  /** After this many fragments nothing more comes, until the request is closed by the gateway. */
  hangAfter?: number;
}

export interface ScriptedService {
  readonly url: string;
  /** ClientAsk requests received so far (each one's `content`). */
  readonly questions: string[];
  close(): Promise<void>;
}

/**
 * A Chatbot Service that answers GetSession, and ClientAsk with the SSE stream
 * `script` returns for the question and its 1-based number among all ClientAsks.
 */
export async function startScriptedService(
  script: (question: string, askNumber: number) => ScriptedAnswer,
): Promise<ScriptedService> {
  const questions: string[] = [];
  let nextSession = 1;
  const upstream: FakeUpstream = await startFakeUpstream(async (request, response) => {
    if (request.path.endsWith('/GetSession')) return sendEnvelope(response, { SessionID: nextSession++ });
    if (!request.path.endsWith('/ClientAsk'))
      return sendJson(response, 404, { Success: false, Code: 404, Message: `no ${request.path} here`, Version: '1' });
    const body = JSON.parse(request.body) as Record<string, unknown>;
    const question = String(body.content ?? body.Content ?? '');
    questions.push(question);
    await streamAnswer(response, script(question, questions.length));
  });
  return { url: upstream.url, questions, close: () => upstream.close() };
}

async function streamAnswer(response: ServerResponse, answer: ScriptedAnswer): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [index, content] of answer.fragments.entries()) {
    if (index > 0 && answer.gapMs) await sleep(answer.gapMs);
    if (answer.cutAfter === index) {
      response.socket?.destroy();
      return;
    }
    if (answer.hangAfter === index) return;
    if (response.destroyed) return;
    response.write(`data: ${JSON.stringify({ content })}\n\n`);
  }
  if (answer.cutAfter === answer.fragments.length) {
    response.socket?.destroy();
    return;
  }
  if (answer.hangAfter === answer.fragments.length) return;
  const final = { QuestionID: 1, AnswerID: 2, Answer: answer.fragments.join(''), TotalToken: 5, noAnswer: false };
  response.end(`data: ${JSON.stringify(final)}\n\n`);
}

/** Resolves once the process's log matches `pattern` (checked every 50 ms). */
export async function waitForLog(process: ChatbridgeProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(process.log())) {
    if (Date.now() > deadline)
      throw new Error(`the gateway never logged ${pattern}; its log:\n${process.log().slice(-4000)}`);
    await sleep(50);
  }
}

/** Resolves once `check` holds (every 50 ms); throws `what` after timeoutMs. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
